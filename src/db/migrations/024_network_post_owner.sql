-- No network post may be owned by two destinations (issue 33). A network that refuses a post as a
-- duplicate points at a post already live; the engine once recorded that post as the new
-- destination's own, so two destinations showed one tweet. Every published container now carries its
-- account (account_id: this destination owns the post), and at most one destination (target) owns
-- an account's network post:
-- - a post Crier found on the network (after a crash, or a duplicate refusal) is claimed
--   (publishing/parts.ts claimNetworkPost), and a claim of a post another destination owns is refused;
-- - a post the network has just made for this destination is its own by construction. Were the
--   network to hand out an id it had handed out before (an emulator restarted empty under a database
--   that persists: the sandbox), the container is recorded as the network answered, but does not own
--   the post (account_id NULL), rather than failing the write forever.
-- Writers of one post take turns on an advisory lock, so each sees the other's committed row. One
-- destination may hold its post at several positions (a Business Profile post stands for the thread's
-- later containers, which it cannot publish).

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

-- Its functions (network_post_owned_elsewhere…): src/db/functions/network-post-owner.sql, applied by migrate.ts before these files.

CREATE TRIGGER target_parts_one_owner BEFORE INSERT OR UPDATE OF platform_id ON target_parts
  FOR EACH ROW EXECUTE FUNCTION target_parts_one_owner();
