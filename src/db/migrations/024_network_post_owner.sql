-- No network post may be owned by two destinations (issue 33). A network that refuses a post as a
-- duplicate points at a post already live; the engine once recorded that post as the new
-- destination's own, so two destinations showed one tweet. Every published container now carries its
-- account, and a unique index makes a second owner of an account's network post impossible, under
-- races too: the engine claims a post found on the network (publishing/parts.ts claimNetworkPost)
-- and a claim that loses is refused, not recorded.

ALTER TABLE target_parts ADD COLUMN account_id bigint;  -- the destination's account, set with platform_id

UPDATE target_parts p SET account_id = t.account_id
  FROM targets t WHERE t.id = p.target_id AND p.platform_id IS NOT NULL;

-- Records written before this migration may already share a post (the defect this fixes): the
-- earliest record keeps it; the later ones stay as they are, outside the index.
UPDATE target_parts p SET account_id = NULL
  FROM (SELECT target_id, position,
               row_number() OVER (PARTITION BY platform_id, account_id ORDER BY updated_at, target_id, position) AS n
          FROM target_parts WHERE account_id IS NOT NULL) d
 WHERE d.target_id = p.target_id AND d.position = p.position AND d.n > 1;

-- Leading with platform_id, it also serves the lookups by network id that target_parts_platform_id
-- (migration 019) served.
CREATE UNIQUE INDEX target_parts_network_post ON target_parts (platform_id, account_id) WHERE platform_id IS NOT NULL;
DROP INDEX target_parts_platform_id;

-- The writers of target_parts (the batched steps, the outcomes function, imports) name the target,
-- not its account: the account is filled in here, on the rows that name a network post.
CREATE FUNCTION target_parts_fill_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.platform_id IS NOT NULL AND NEW.account_id IS NULL THEN
    SELECT account_id INTO NEW.account_id FROM targets WHERE id = NEW.target_id;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER target_parts_fill_account BEFORE INSERT OR UPDATE OF platform_id ON target_parts
  FOR EACH ROW EXECUTE FUNCTION target_parts_fill_account();
