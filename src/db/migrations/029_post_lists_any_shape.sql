-- GET /v1/posts fast whatever the data's shape (src/posts/list.ts, src/posts/totals.ts).
--
-- 1. Totals. 012 counted the posts of a range's two boundary five-minute slices row by row: when
--    posts are dense (all created in one day, or imported in a burst) a slice holds thousands of
--    them, and every total with a bound cost milliseconds that grew with the data. The counters now
--    have four grains, day, hour, minute and second, of created_at ('cd' 'ch' 'cm' 'cs') and of
--    scheduled_at ('sd' 'sh' 'sm' 'ss'): a total sums at most a few hundred counters and counts only
--    the posts of two boundary seconds row by row (post_counts_total, src/db/functions/post-counts.sql).
--    The old five-minute 'cm' / 'sm' rows mean something else now: every counter is recounted here.
--
-- 2. Pages by account or tenant. Newest first, they walked the org's posts and tested each for a
--    target of the account: cheap when the account has most posts, a walk of thousands of posts for
--    one with few, and a plan that hashed every target of the account when the planner guessed the
--    other way. Each target now carries its post's created_at (kept by triggers,
--    src/db/functions/post-list-order.sql), and an index reads one account's posts newest first, a
--    created range included: a page is its own rows, whatever the account's share of the posts.

-- No writer may add or move a post while its counters are recounted and its targets copied.
LOCK TABLE posts, targets, social_accounts IN SHARE MODE;

-- The grains post_counts_add writes, each for created_at ('c' || grain) and scheduled_at ('s' || grain),
-- and post_counts_total reads: what they are, for anyone reading the counters (and, until this
-- migration has run, the sign for post_counts_add that there is nothing to count into yet).
CREATE TABLE post_count_grains (
  grain text PRIMARY KEY,
  width interval NOT NULL
);
INSERT INTO post_count_grains (grain, width) VALUES ('d', '1 day'), ('h', '1 hour'), ('m', '1 minute'), ('s', '1 second');

ALTER TABLE post_counts DROP CONSTRAINT post_counts_grain_check;
TRUNCATE post_counts;
ALTER TABLE post_counts ADD CONSTRAINT post_counts_grain_check CHECK (grain IN ('cd', 'ch', 'cm', 'cs', 'sd', 'sh', 'sm', 'ss'));

SELECT post_counts_add(array_agg(org_id), array_agg(''::text), array_agg(created_at), array_agg(scheduled_at), array_agg(1)) FROM posts;
SELECT post_counts_add(array_agg(p.org_id), array_agg(s.scope), array_agg(p.created_at), array_agg(p.scheduled_at), array_agg(1))
  FROM (SELECT post_id, 'a' || account_id AS scope FROM targets
        UNION ALL
        SELECT DISTINCT t.post_id, 't' || a.tenant_id FROM targets t JOIN social_accounts a ON a.id = t.account_id
         WHERE a.tenant_id IS NOT NULL) AS s
  JOIN posts p ON p.id = s.post_id;
SELECT post_counts_fold();

ALTER TABLE targets ADD COLUMN post_created_at timestamptz;
UPDATE targets t SET post_created_at = p.created_at FROM posts p WHERE p.id = t.post_id;
ALTER TABLE targets ALTER COLUMN post_created_at SET NOT NULL;

CREATE TRIGGER targets_post_created BEFORE INSERT ON targets FOR EACH ROW EXECUTE FUNCTION targets_post_created();
CREATE TRIGGER targets_post_created AFTER UPDATE OF created_at ON posts FOR EACH ROW
  WHEN (OLD.created_at <> NEW.created_at) EXECUTE FUNCTION targets_post_created_moved();

-- In the list's order (created_at DESC, id DESC), so a page and a created range are one index range.
CREATE INDEX targets_account_created ON targets (account_id, post_created_at DESC, post_id DESC);
