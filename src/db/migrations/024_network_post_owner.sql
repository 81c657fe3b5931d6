-- No network post may be owned by two destinations (issue 33). A network that refuses a post as a
-- duplicate points at a post already live; the engine once recorded that post as the new
-- destination's own, so two destinations showed one tweet. Every published container now carries its
-- account, and a trigger refuses a network post of the account that another destination (target)
-- holds, under races too: writers of one post take turns on an advisory lock, so the second sees the
-- first's committed row. (One destination may hold a post at several positions: a Business Profile
-- post stands for the thread's later containers, which it cannot publish.) The engine claims a post
-- it found on the network (publishing/parts.ts claimNetworkPost); a claim that loses is refused.

ALTER TABLE target_parts ADD COLUMN account_id bigint;  -- the destination's account, set with platform_id

UPDATE target_parts p SET account_id = t.account_id
  FROM targets t WHERE t.id = p.target_id AND p.platform_id IS NOT NULL;

-- Records written before this migration may already share a post (the defect this fixes): the
-- destination recorded first keeps it; the later ones stay as they are, outside the rule.
UPDATE target_parts p SET account_id = NULL
  FROM (SELECT platform_id, account_id, (array_agg(target_id ORDER BY updated_at, target_id))[1] AS owner
          FROM target_parts WHERE account_id IS NOT NULL
         GROUP BY platform_id, account_id HAVING count(DISTINCT target_id) > 1) d
 WHERE p.platform_id = d.platform_id AND p.account_id = d.account_id AND p.target_id <> d.owner;

-- Leading with platform_id, it also serves the lookups by network id that target_parts_platform_id
-- (migration 019) served.
CREATE INDEX target_parts_network_post ON target_parts (platform_id, account_id) WHERE platform_id IS NOT NULL;
DROP INDEX target_parts_platform_id;

-- The writers of target_parts (the batched steps, the outcomes function, imports, claims) name the
-- target, not its account: the account is filled in here, then the rule is checked.
CREATE FUNCTION target_parts_one_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.platform_id IS NULL THEN
    RETURN NEW;
  END IF;
  IF NEW.account_id IS NULL THEN
    SELECT account_id INTO NEW.account_id FROM targets WHERE id = NEW.target_id;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('network_post:' || NEW.account_id || ':' || NEW.platform_id, 0));
  IF EXISTS (SELECT 1 FROM target_parts
              WHERE platform_id = NEW.platform_id AND account_id = NEW.account_id AND target_id <> NEW.target_id) THEN
    RAISE EXCEPTION 'the network post % of account % belongs to another destination', NEW.platform_id, NEW.account_id
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'target_parts_network_post';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER target_parts_one_owner BEFORE INSERT OR UPDATE OF platform_id ON target_parts
  FOR EACH ROW EXECUTE FUNCTION target_parts_one_owner();
