-- Idempotency-Key (src/idempotency/keys.ts): the check that ends a statement storing responses.
-- The current text; migrate.ts applies this file when it changes (src/db/README.md).

-- A claim reads a key's stored response with a snapshot taken before it takes the key's lock, so a
-- request that committed the same key in between is not seen, and the work is done a second time.
-- The store then leaves the live record alone (ON CONFLICT ... WHERE expired) and stores fewer rows
-- than it was given: this fails the statement, with SQLSTATE CR409, so that none of it is written.
CREATE OR REPLACE FUNCTION idempotency_all_stored(p_expected bigint, p_stored bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF p_stored < p_expected THEN
    RAISE EXCEPTION 'an Idempotency-Key''s response was committed by another request after this one claimed the key (% of % stored)', p_stored, p_expected
      USING ERRCODE = 'CR409';
  END IF;
  RETURN true;
END $$;
