-- targets.post_created_at, a copy of its post's created_at (migration 029), so that one account's
-- posts can be read newest first from an index of its own (targets_account_created) instead of
-- walking the org's posts and testing each: GET /v1/posts?social_account_id=… and ?tenant_id=…
-- (src/posts/list.ts). Filled here whatever code writes targets, so no writer can get it wrong.
-- The current text; migrate.ts applies this file when it changes (src/db/README.md).

-- Row level and BEFORE: the one way to set a column of the row being inserted. A primary-key probe.
-- A target of no post is refused as its foreign key would refuse it (this runs first).
CREATE OR REPLACE FUNCTION targets_post_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT created_at INTO NEW.post_created_at FROM posts WHERE id = NEW.post_id;
  IF NOT FOUND THEN
    RAISE foreign_key_violation USING MESSAGE = format('a target of post %s, which does not exist', NEW.post_id);
  END IF;
  RETURN NEW;
END $$;

-- Nothing in Crier moves created_at, but a writer that does (tests, imports) moves its targets' copy.
-- Like the counters (post-counts.sql), this assumes no target is added to the post while it moves.
CREATE OR REPLACE FUNCTION targets_post_created_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE targets SET post_created_at = NEW.created_at WHERE post_id = NEW.id;
  RETURN NULL;
END $$;
