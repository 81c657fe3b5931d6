-- Exact totals for GET /v1/posts without counting every matching post: how many posts each scope
-- has per day and per five minutes of creation and of scheduled time, kept by triggers in the
-- writing transaction (so a count read in one statement agrees with the rows it sees, whatever code
-- writes). A range is summed from whole days, then whole five-minute slices at each end, and only
-- the posts of its two boundary slices are counted row by row (src/posts/totals.ts).
--
-- Scopes: '' all the org's posts; 'a<id>' the posts targeting that account; 't<tenant>' the posts
-- with at least one account carrying that tenant, each post once per tenant.
-- Grains: 'cd'/'cm' day/five minutes of created_at, 'sd'/'sm' of scheduled_at (UTC days). Five
-- minutes: a boundary slice holds few rows, and a partial day is at most 287 slices to add.
--
-- No hot row: each writer adds to rows of its own shard, its backend pid (one transaction at a time
-- per backend, so concurrent writers never wait on one another's counter rows); the maintenance pass
-- folds them into shard 0 (post_counts_fold) so that readers sum few rows.
CREATE TABLE post_counts (
  org_id bigint NOT NULL,       -- no foreign key: its check would lock the org row on every create
  scope  text NOT NULL,
  grain  text NOT NULL CHECK (grain IN ('cd', 'cm', 'sd', 'sm')),
  bucket timestamptz NOT NULL,  -- start of the day or slice, UTC
  shard  integer NOT NULL,      -- the writer's pg_backend_pid(), 0 once folded
  n      bigint NOT NULL,
  PRIMARY KEY (org_id, scope, grain, bucket, shard)
);

-- Its functions (post_counts_add…): src/db/functions/post-counts.sql, applied by migrate.ts before these files.

-- ---- posts ---------------------------------------------------------------------------------------

CREATE TRIGGER post_counts_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_posts
  FOR EACH STATEMENT EXECUTE FUNCTION post_counts_posts_inserted();

CREATE TRIGGER post_counts_delete BEFORE DELETE ON posts FOR EACH ROW WHEN (pg_trigger_depth() = 0)
  EXECUTE FUNCTION post_counts_post_deleted();

CREATE TRIGGER post_counts_update AFTER UPDATE OF org_id, created_at, scheduled_at ON posts FOR EACH ROW
  WHEN (OLD.org_id <> NEW.org_id OR OLD.created_at <> NEW.created_at OR OLD.scheduled_at IS DISTINCT FROM NEW.scheduled_at)
  EXECUTE FUNCTION post_counts_post_moved();

-- ---- targets -------------------------------------------------------------------------------------

CREATE TRIGGER post_counts_insert AFTER INSERT ON targets REFERENCING NEW TABLE AS new_targets
  FOR EACH STATEMENT EXECUTE FUNCTION post_counts_targets_inserted();

CREATE TRIGGER post_counts_delete AFTER DELETE ON targets REFERENCING OLD TABLE AS old_targets
  FOR EACH STATEMENT WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION post_counts_targets_deleted();

CREATE TRIGGER post_counts_target_fixed BEFORE UPDATE OF post_id, account_id ON targets FOR EACH ROW
  WHEN (OLD.post_id <> NEW.post_id OR OLD.account_id <> NEW.account_id)
  EXECUTE FUNCTION post_counts_target_fixed();

-- ---- accounts ------------------------------------------------------------------------------------

CREATE TRIGGER post_counts_tenant AFTER UPDATE OF tenant_id ON social_accounts FOR EACH ROW
  WHEN (OLD.tenant_id IS DISTINCT FROM NEW.tenant_id)
  EXECUTE FUNCTION post_counts_account_changed();

CREATE TRIGGER post_counts_delete BEFORE DELETE ON social_accounts FOR EACH ROW WHEN (pg_trigger_depth() = 0)
  EXECUTE FUNCTION post_counts_account_deleted();

-- ---- orgs and truncation -------------------------------------------------------------------------

CREATE TRIGGER post_counts_delete AFTER DELETE ON orgs REFERENCING OLD TABLE AS old_orgs
  FOR EACH STATEMENT EXECUTE FUNCTION post_counts_orgs_deleted();

CREATE TRIGGER post_counts_truncate AFTER TRUNCATE ON posts FOR EACH STATEMENT EXECUTE FUNCTION post_counts_truncated();
CREATE TRIGGER post_counts_truncate AFTER TRUNCATE ON targets FOR EACH STATEMENT EXECUTE FUNCTION post_counts_truncated();

-- ---- reading -------------------------------------------------------------------------------------

-- ---- folding -------------------------------------------------------------------------------------

-- Counts for the posts that exist already.
SELECT post_counts_add(array_agg(org_id), array_agg(''::text), array_agg(created_at), array_agg(scheduled_at), array_agg(1)) FROM posts;
SELECT post_counts_add(array_agg(p.org_id), array_agg(s.scope), array_agg(p.created_at), array_agg(p.scheduled_at), array_agg(1))
  FROM (SELECT post_id, 'a' || account_id AS scope FROM targets
        UNION ALL
        SELECT DISTINCT t.post_id, 't' || a.tenant_id FROM targets t JOIN social_accounts a ON a.id = t.account_id
         WHERE a.tenant_id IS NOT NULL) AS s
  JOIN posts p ON p.id = s.post_id;
SELECT post_counts_fold();
