-- Exact totals for GET /v1/posts without counting every matching post (the table and its triggers
-- are migration 012's post_counts; src/posts/totals.ts reads through post_counts_total). Writers add
-- to their own shard, post_counts_fold folds shards into 0. The current text; migrate.ts applies this
-- file when it changes (src/db/README.md).

-- Adds `deltas[i]` posts of org_ids[i] to scopes[i] at the day, hour, minute and second of created[i]
-- and of scheduled[i] (skipped when null), in this backend's shard: the grains migration 029 lists in
-- post_count_grains (written out here, which costs less than joining that table on every write;
-- test/posts/totals-shapes.test.ts holds the two together). Keys are written in one order, so two
-- statements of one transaction never lock them in opposite orders. PL/pgSQL, not SQL: it keeps the
-- statement's plan, where an SQL function would plan it on every call (most of a trigger's cost).
--
-- An installation upgraded from before 012 runs 012's backfill with this text while post_counts
-- still has 012's grains: until 029 there is nothing to count into, and 029 recounts every post.
CREATE OR REPLACE FUNCTION post_counts_add(org_ids bigint[], scopes text[], created timestamptz[], scheduled timestamptz[], deltas integer[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF to_regclass('post_count_grains') IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO post_counts AS pc (org_id, scope, grain, bucket, shard, n)
  SELECT d.org_id, d.scope, t.dim || g.grain, date_bin(g.width, t.at, '2000-01-01Z'), pg_backend_pid(), sum(d.delta)
    FROM unnest(org_ids, scopes, created, scheduled, deltas) AS d(org_id, scope, created, scheduled, delta)
   CROSS JOIN LATERAL (VALUES ('c', d.created), ('s', d.scheduled)) AS t(dim, at)
   CROSS JOIN (VALUES ('d', interval '1 day'), ('h', interval '1 hour'), ('m', interval '1 minute'), ('s', interval '1 second')) AS g(grain, width)
   WHERE t.at IS NOT NULL
   GROUP BY 1, 2, 3, 4
  HAVING sum(d.delta) <> 0
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (org_id, scope, grain, bucket, shard) DO UPDATE SET n = pc.n + EXCLUDED.n;
END $$;

-- The counter functions of 012 joined targets to `posts` and `social_accounts` as plain joins.
-- PL/pgSQL keeps a statement's plan for the life of the connection, and a plan made while those
-- tables were small or never analyzed (the planner then guesses a few hundred rows) hashed the whole
-- table on every call: measured in the create benchmark, the new-targets trigger took 2.6 ms of a
-- 3.9 ms batch after 9,000 posts, and grew with every post. Here each row's post and account are
-- looked up by id — a primary-key probe whatever the tables' size or the plan's age. OFFSET 0 keeps
-- a lookup from being flattened back into a join the planner may hash. test/db/plans.test.ts checks
-- the plans on fresh, never-analyzed tables.
CREATE OR REPLACE FUNCTION post_counts_scopes(post bigint) RETURNS text[] LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM targets t CROSS JOIN LATERAL (SELECT 1 FROM social_accounts WHERE id = t.account_id OFFSET 0 FOR KEY SHARE) AS a
   WHERE t.post_id = post;
  RETURN ARRAY[''] || array(SELECT 'a' || account_id FROM targets WHERE post_id = post)
    || array(SELECT DISTINCT 't' || a.tenant_id
               FROM targets t CROSS JOIN LATERAL (SELECT tenant_id FROM social_accounts WHERE id = t.account_id OFFSET 0) AS a
              WHERE t.post_id = post AND a.tenant_id IS NOT NULL);
END $$;

-- Moves one post's counts: -1 at (org, created, scheduled) before, +1 after, in every scope it has.
CREATE OR REPLACE FUNCTION post_counts_move(scopes text[], old_org bigint, old_created timestamptz, old_scheduled timestamptz,
                                 new_org bigint, new_created timestamptz, new_scheduled timestamptz)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  n constant integer[] := ARRAY[cardinality(scopes)];
BEGIN
  PERFORM post_counts_add(array_fill(old_org, n) || array_fill(new_org, n), scopes || scopes,
    array_fill(old_created, n) || array_fill(new_created, n), array_fill(old_scheduled, n) || array_fill(new_scheduled, n),
    array_fill(-1, n) || array_fill(1, n));
END $$;

CREATE OR REPLACE FUNCTION post_counts_posts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM post_counts_add(array_agg(org_id), array_agg(''::text), array_agg(created_at), array_agg(scheduled_at), array_agg(1))
     FROM new_posts;
  RETURN NULL;
END $$;

-- Row level and BEFORE: the post's targets still exist here (the cascade deletes them afterwards,
-- when the post is already gone), and they say which account and tenant scopes to take it from.
--
-- Cascades: a post or account is deleted by a cascade only when its org is, and the org's counts go
-- with it (orgs trigger below); targets are deleted by a cascade only with their post or account,
-- whose own trigger has counted them. Cascaded deletes run at trigger depth 1 or more: `WHEN
-- (pg_trigger_depth() = 0)` skips them in C, where a trigger call per cascaded row would add minutes
-- to deleting a large org.
CREATE OR REPLACE FUNCTION post_counts_post_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  scopes text[] := post_counts_scopes(OLD.id);
BEGIN
  PERFORM post_counts_add(array_fill(OLD.org_id, ARRAY[cardinality(scopes)]), scopes,
    array_fill(OLD.created_at, ARRAY[cardinality(scopes)]), array_fill(OLD.scheduled_at, ARRAY[cardinality(scopes)]),
    array_fill(-1, ARRAY[cardinality(scopes)]));
  RETURN OLD;
END $$;

-- PATCH moves scheduled_at; nothing in Crier moves created_at or org_id, but a writer that does is counted.
CREATE OR REPLACE FUNCTION post_counts_post_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM post_counts_move(post_counts_scopes(NEW.id), OLD.org_id, OLD.created_at, OLD.scheduled_at,
                           NEW.org_id, NEW.created_at, NEW.scheduled_at);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION post_counts_targets_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM post_counts_add(array_agg(p.org_id), array_agg(s.scope), array_agg(p.created_at), array_agg(p.scheduled_at), array_agg(1))
     FROM (SELECT n.post_id, 'a' || n.account_id AS scope FROM new_targets n
           UNION ALL
           SELECT n.post_id, 't' || n.tenant_id
             FROM (SELECT n.post_id, a.tenant_id, count(*) AS added
                     FROM new_targets n CROSS JOIN LATERAL (SELECT tenant_id FROM social_accounts WHERE id = n.account_id OFFSET 0) AS a
                    WHERE a.tenant_id IS NOT NULL GROUP BY 1, 2) AS n
            WHERE n.added = (SELECT count(*)
                               FROM targets o CROSS JOIN LATERAL (SELECT tenant_id FROM social_accounts WHERE id = o.account_id OFFSET 0) AS oa
                              WHERE o.post_id = n.post_id AND oa.tenant_id = n.tenant_id)) AS s
    CROSS JOIN LATERAL (SELECT org_id, created_at, scheduled_at FROM posts WHERE id = s.post_id OFFSET 0) AS p;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION post_counts_targets_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM old_targets o CROSS JOIN LATERAL (SELECT 1 FROM social_accounts WHERE id = o.account_id OFFSET 0 FOR KEY SHARE) AS a;
  PERFORM post_counts_add(array_agg(p.org_id), array_agg(s.scope), array_agg(p.created_at), array_agg(p.scheduled_at), array_agg(-1))
     FROM (SELECT o.post_id, 'a' || o.account_id AS scope FROM old_targets o
           UNION ALL
           SELECT DISTINCT o.post_id, 't' || a.tenant_id
             FROM old_targets o CROSS JOIN LATERAL (SELECT tenant_id FROM social_accounts WHERE id = o.account_id OFFSET 0) AS a
            WHERE a.tenant_id IS NOT NULL
              AND NOT EXISTS (SELECT 1
                                FROM targets r CROSS JOIN LATERAL (SELECT tenant_id FROM social_accounts WHERE id = r.account_id OFFSET 0) AS ra
                               WHERE r.post_id = o.post_id AND ra.tenant_id = a.tenant_id)) AS s
    CROSS JOIN LATERAL (SELECT org_id, created_at, scheduled_at FROM posts WHERE id = s.post_id OFFSET 0) AS p;
  RETURN NULL;
END $$;

-- A target is never moved to another post or account; counting such a move is not worth its code.
CREATE OR REPLACE FUNCTION post_counts_target_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a target''s post_id and account_id cannot change (post_counts relies on it)';
END $$;

-- An account's tenant changes (reconnected with another tenant_id), or the account goes (then its
-- tenant is "none" and its own scope is dropped): every post it targets leaves the old tenant unless
-- another of its accounts carries it, and joins the new one unless another already does. FOR UPDATE
-- waits for transactions that key-share locked the account (creating, deleting or moving its posts)
-- and holds back new ones; the org's advisory lock orders two tenant changes of one org, so each
-- sees the other's accounts as committed.
CREATE OR REPLACE FUNCTION post_counts_account_retenant(account bigint, org bigint, old_tenant text, new_tenant text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(727012, hashtext(org::text));
  PERFORM 1 FROM social_accounts WHERE id = account FOR UPDATE;
  PERFORM post_counts_add(array_agg(p.org_id), array_agg(c.scope), array_agg(p.created_at), array_agg(p.scheduled_at), array_agg(c.delta))
     FROM targets t
     JOIN posts p ON p.id = t.post_id
    CROSS JOIN LATERAL (VALUES ('t' || old_tenant, -1), ('t' || new_tenant, 1)) AS c(scope, delta)
    WHERE t.account_id = account AND c.scope IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM targets o JOIN social_accounts oa ON oa.id = o.account_id
                       WHERE o.post_id = t.post_id AND o.account_id <> account AND 't' || oa.tenant_id = c.scope);
END $$;

CREATE OR REPLACE FUNCTION post_counts_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM post_counts_account_retenant(NEW.id, NEW.org_id, OLD.tenant_id, NEW.tenant_id);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION post_counts_account_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM post_counts_account_retenant(OLD.id, OLD.org_id, OLD.tenant_id, NULL);
  DELETE FROM post_counts WHERE org_id = OLD.org_id AND scope = 'a' || OLD.id;
  RETURN OLD;
END $$;

CREATE OR REPLACE FUNCTION post_counts_orgs_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM post_counts WHERE org_id IN (SELECT id FROM old_orgs);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION post_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'targets' THEN
    DELETE FROM post_counts WHERE scope <> '';
  ELSE
    TRUNCATE post_counts;
  END IF;
  RETURN NULL;
END $$;

-- The posts of `scope` whose created_at (dim 'c') or scheduled_at (dim 's') is strictly between `lo`
-- and `hi` (either null: open), exactly. Only the posts of the two boundary seconds (lo's, after lo,
-- and hi's, before hi) are counted row by row (`row_account` / `row_tenant` say which of them are in
-- the scope, as the list's WHERE clause does); the whole seconds between are summed from the
-- counters, coarsest first: whole days, then at each end the whole hours, minutes and seconds that
-- are not in a whole day — at most 23 + 59 + 59 counters per end whatever the range, and a boundary
-- second holds as many posts as were created in one second, however dense the data is around it.
-- (The grains of post_count_grains: a change there is a change here and in post_counts_add.)
--
-- PL/pgSQL on purpose: the planner sees a function call instead of subqueries whose range it cannot
-- estimate, so the list statement that calls it keeps one generic plan instead of being planned on
-- every request; and PL/pgSQL keeps the plans of its own statements. Those plans are forced generic
-- (each reads at most a few hundred counters or a second of rows whatever its values) and never
-- parallel (starting a worker costs more than the whole count).
CREATE OR REPLACE FUNCTION post_counts_total(org bigint, scope text, dim text, lo timestamptz, hi timestamptz, row_account bigint, row_tenant text)
RETURNS bigint LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan SET max_parallel_workers_per_gather = 0 AS $$
DECLARE
  origin constant timestamptz := '2000-01-01Z';
  -- The first whole second after lo, and the start of hi's second: the counters cover [a, b).
  a timestamptz := date_bin('1 second', lo, origin) + interval '1 second';
  b timestamptz := date_bin('1 second', hi, origin);
  finer constant text[] := ARRAY['s', 'm', 'h'];
  coarser constant interval[] := ARRAY[interval '1 minute', interval '1 hour', interval '1 day'];
  grains text[] := '{}';
  froms timestamptz[] := '{}';
  tos timestamptz[] := '{}';
  a_up timestamptz;
  b_down timestamptz;
  within_day boolean := false;
  rows_ bigint := 0;
  counted bigint;
BEGIN
  IF lo >= hi THEN
    RETURN 0;
  ELSIF a > b THEN  -- lo and hi in the same second
    RETURN post_counts_rows(org, dim, lo, hi, row_account, row_tenant);
  END IF;
  IF lo IS NOT NULL THEN
    rows_ := post_counts_rows(org, dim, lo, a, row_account, row_tenant);
  END IF;
  IF hi IS NOT NULL THEN
    rows_ := rows_ + post_counts_rows(org, dim, b - interval '1 microsecond', hi, row_account, row_tenant);
  END IF;
  -- [a, b) is aligned to seconds. At each level, the part of it outside whole buckets of the next
  -- coarser grain is summed at this level, and the rest, aligned to the coarser grain, goes up.
  FOR level IN 1 .. 3 LOOP
    a_up := CASE WHEN date_bin(coarser[level], a, origin) = a THEN a ELSE date_bin(coarser[level], a, origin) + coarser[level] END;
    b_down := date_bin(coarser[level], b, origin);
    IF a_up >= b_down THEN  -- no whole coarser bucket inside (both ends known): this level's [a, b) is all
      grains := grains || (dim || finer[level]); froms := froms || a; tos := tos || b;
      within_day := true;
      EXIT;
    END IF;
    IF a IS NOT NULL THEN
      grains := grains || (dim || finer[level]); froms := froms || a; tos := tos || a_up;
    END IF;
    IF b IS NOT NULL THEN
      grains := grains || (dim || finer[level]); froms := froms || b_down; tos := tos || b;
    END IF;
    a := a_up;
    b := b_down;
  END LOOP;
  IF NOT within_day THEN
    grains := grains || (dim || 'd'); froms := froms || coalesce(a, '-infinity'); tos := tos || coalesce(b, 'infinity');
  END IF;
  -- One index range of the primary key per (grain, from, to); OFFSET 0 keeps it a probe per range.
  SELECT coalesce(sum(c.n), 0) INTO counted
    FROM unnest(grains, froms, tos) AS r(grain, from_, to_)
   CROSS JOIN LATERAL (SELECT c.n FROM post_counts c
                        WHERE c.org_id = org AND c.scope = post_counts_total.scope AND c.grain = r.grain
                          AND c.bucket >= r.from_ AND c.bucket < r.to_ OFFSET 0) AS c;
  RETURN rows_ + counted;
END $$;

-- The scope's posts with created_at / scheduled_at strictly between `lo` and `hi`, counted row by row:
-- meant for a boundary second. One statement per scope and column, so that
-- each keeps a plan that walks the second's rows (a condition like `account IS NULL OR EXISTS ...`
-- would leave the planner free to hash every target of the account instead).
CREATE OR REPLACE FUNCTION post_counts_rows(org bigint, dim text, lo timestamptz, hi timestamptz, row_account bigint, row_tenant text)
RETURNS bigint LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan SET max_parallel_workers_per_gather = 0 AS $$
BEGIN
  IF dim = 'c' AND row_account IS NOT NULL THEN
    RETURN (SELECT count(*) FROM posts p WHERE p.org_id = org AND p.created_at > lo AND p.created_at < hi
              AND EXISTS (SELECT 1 FROM targets t WHERE t.post_id = p.id AND t.account_id = row_account));
  ELSIF dim = 'c' AND row_tenant IS NOT NULL THEN
    RETURN (SELECT count(*) FROM posts p WHERE p.org_id = org AND p.created_at > lo AND p.created_at < hi
              AND EXISTS (SELECT 1 FROM targets t JOIN social_accounts a ON a.id = t.account_id WHERE t.post_id = p.id AND a.tenant_id = row_tenant));
  ELSIF dim = 'c' THEN
    RETURN (SELECT count(*) FROM posts p WHERE p.org_id = org AND p.created_at > lo AND p.created_at < hi);
  ELSIF row_account IS NOT NULL THEN
    RETURN (SELECT count(*) FROM posts p WHERE p.org_id = org AND p.scheduled_at > lo AND p.scheduled_at < hi
              AND EXISTS (SELECT 1 FROM targets t WHERE t.post_id = p.id AND t.account_id = row_account));
  ELSIF row_tenant IS NOT NULL THEN
    RETURN (SELECT count(*) FROM posts p WHERE p.org_id = org AND p.scheduled_at > lo AND p.scheduled_at < hi
              AND EXISTS (SELECT 1 FROM targets t JOIN social_accounts a ON a.id = t.account_id WHERE t.post_id = p.id AND a.tenant_id = row_tenant));
  END IF;
  RETURN (SELECT count(*) FROM posts p WHERE p.org_id = org AND p.scheduled_at > lo AND p.scheduled_at < hi);
END $$;

-- Merges the writers' shards into shard 0, skipping rows a transaction still holds (it folds them
-- next time), so it never waits on a writer and a writer waits at most for this short transaction.
-- Readers see the rows before or after, never half: the sums are the same.
CREATE OR REPLACE FUNCTION post_counts_fold() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  folded integer;
BEGIN
  IF NOT pg_try_advisory_xact_lock(727013) THEN
    RETURN 0;
  END IF;
  WITH taken AS (
    DELETE FROM post_counts
     WHERE ctid IN (SELECT ctid FROM post_counts WHERE shard <> 0 FOR UPDATE SKIP LOCKED)
    RETURNING org_id, scope, grain, bucket, n
  )
  INSERT INTO post_counts AS pc (org_id, scope, grain, bucket, shard, n)
  SELECT org_id, scope, grain, bucket, 0, sum(n) FROM taken GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT (org_id, scope, grain, bucket, shard) DO UPDATE SET n = pc.n + EXCLUDED.n;
  GET DIAGNOSTICS folded = ROW_COUNT;
  RETURN folded;
END $$;
