-- No network post may be owned by two destinations (migration 024: target_parts.account_id and the
-- trigger that calls target_parts_one_owner). The current text; migrate.ts applies this file when it
-- changes (src/db/README.md).

-- Takes the post's turn and says whether another destination than `p_target` owns it.
CREATE OR REPLACE FUNCTION network_post_owned_elsewhere(p_account bigint, p_platform_id text, p_target bigint) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('network_post:' || p_account || ':' || p_platform_id, 0));
  RETURN EXISTS (SELECT 1 FROM target_parts
                  WHERE platform_id = p_platform_id AND account_id = p_account AND target_id <> p_target);
END $$;

-- The writers of target_parts (the batched steps, the outcomes function, imports, claims) name the
-- target, not its account: the account is filled in here, unless another destination owns the post.
CREATE OR REPLACE FUNCTION target_parts_one_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.platform_id IS NULL OR (TG_OP = 'UPDATE' AND NEW.platform_id IS NOT DISTINCT FROM OLD.platform_id) THEN
    RETURN NEW;
  END IF;
  IF NEW.account_id IS NULL THEN
    SELECT account_id INTO NEW.account_id FROM targets WHERE id = NEW.target_id;
  END IF;
  IF network_post_owned_elsewhere(NEW.account_id, NEW.platform_id, NEW.target_id) THEN
    RAISE WARNING 'the network post % of account % is owned by another destination: target % records it without owning it',
      NEW.platform_id, NEW.account_id, NEW.target_id;
    NEW.account_id := NULL;
  END IF;
  RETURN NEW;
END $$;
