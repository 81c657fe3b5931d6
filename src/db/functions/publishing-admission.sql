-- Each network's per-account publishing quota, applied by the engine before it calls the network
-- (the table is migration 016's account_admissions; src/publishing/admission.ts calls these). The
-- current text; migrate.ts applies this file when it changes (src/db/README.md).

-- Admits target `p_target`, weighing `p_weight` units, to account `p_account`, whose quota is `p_max`
-- per `p_window`; returns the milliseconds until it may go (0 or less: now). A target admitted before
-- (a retry, after its wait, after a crash) keeps its time. Under a per-account advisory lock, each
-- statement with its own snapshot (plpgsql, read committed), so concurrent workers see each other's
-- rows: no window of `p_window` ever holds more than `p_max` units.
--
-- Both functions read every row by key, and PL/pgSQL keeps a plan per connection: one made while the
-- tables were small scanned admissions and targets whole on every later call (test/db/plans.test.ts
-- caught it), so sequential scans are off while they run.
CREATE OR REPLACE FUNCTION publishing_admit(p_account bigint, p_target bigint, p_weight int, p_max int, p_window interval)
RETURNS float8 LANGUAGE plpgsql SET enable_seqscan = off AS $$
DECLARE
  v_weight int := least(greatest(p_weight, 1), p_max);
  v_at timestamptz;
  v_last bigint;
  v_last_at timestamptz;
  v_out_at timestamptz;
BEGIN
  SELECT at INTO v_at FROM account_admissions WHERE target_id = p_target LIMIT 1;
  IF v_at IS NULL THEN
    -- Called in a transaction of its own (admission.ts, through publishing_admit_batch), so this is
    -- that transaction's commit: it does not wait for the WAL flush, which made admission cost more than publishing (bench:publish). A
    -- database crash may forget an admission of its last moments: that target was on its way, and
    -- at worst the account goes a unit over the quota once and the network's 429 is retried later.
    PERFORM set_config('synchronous_commit', 'off', true);
    PERFORM pg_advisory_xact_lock(1919251317, (p_account % 2147483647)::int);
    SELECT seq, at INTO v_last, v_last_at FROM account_admissions WHERE account_id = p_account ORDER BY seq DESC LIMIT 1;
    v_last := coalesce(v_last, 0);
    -- For these units to fit, the unit `p_max` places before the last of them must have left the
    -- window; and none goes before an earlier reservation (arrival order: every window a later
    -- admission checks then holds all the units before it).
    -- (Gone: it left the window long ago.)
    SELECT at INTO v_out_at FROM account_admissions WHERE account_id = p_account AND seq = v_last + v_weight - p_max;
    v_at := greatest(now(), v_out_at + p_window, v_last_at);
    INSERT INTO account_admissions (account_id, seq, target_id, at)
    SELECT p_account, v_last + n, p_target, v_at FROM generate_series(1, v_weight) AS n;
    -- What no later admission asks about (its place is passed) and no target waits on (its time is a
    -- window gone: a retry after that is admitted afresh).
    DELETE FROM account_admissions WHERE account_id = p_account AND seq <= v_last + v_weight - p_max AND at <= now() - p_window;
  END IF;
  RETURN extract(epoch FROM v_at - clock_timestamp()) * 1000;
END $$;

-- The waiting reason GET /v1/posts/:id shows on a destination held back until `p_at` (as migration
-- 016 wrote it, and a window of a fraction of a second in seconds).
CREATE OR REPLACE FUNCTION publishing_quota_wait_reason(p_max int, p_window_secs float8, p_at timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT format('waiting for the account''s publishing quota (%s per %s); it goes at %s', p_max,
                -- A window of a fraction of a second (a quota set by CRIER_ACCOUNT_QUOTAS) was said "0 d".
                CASE WHEN p_window_secs <> floor(p_window_secs) THEN trim_scale(p_window_secs::numeric) || ' s'
                     WHEN p_window_secs::bigint % 86400 = 0 THEN (p_window_secs::bigint / 86400) || ' d'
                     WHEN p_window_secs::bigint % 3600 = 0 THEN (p_window_secs::bigint / 3600) || ' h'
                     WHEN p_window_secs::bigint % 60 = 0 THEN (p_window_secs::bigint / 60) || ' min'
                     ELSE p_window_secs || ' s' END,
                to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
$$;

-- Admits a batch of targets at once (a worker's group commit: admission.ts). Per item in plpgsql
-- (publishing_admit) it cost ~120 µs of the database's CPU, more than the rest of a publish (the
-- drain of bench:publish fell from 4,700 to 1,500 a second), so the batch is placed set-based: the
-- locks first, in account order (two batches never deadlock), then one statement with a fresh
-- snapshot that places every item. Where a batch alone holds more units for an account than its
-- quota, an item's place depends on the batch's own earlier items: those accounts go item by item.
-- The accounts' old admissions are swept only when `p_sweep` (the worker asks at most once a second),
-- and the waiting reason of the items held back is written in the statement that places them.
CREATE OR REPLACE FUNCTION publishing_admit_batch(p_account bigint[], p_target bigint[], p_weight int[], p_max int[], p_window_secs float8[], p_sweep boolean DEFAULT true)
RETURNS TABLE (target_id bigint, wait_ms float8) LANGUAGE plpgsql SET enable_seqscan = off AS $$
#variable_conflict use_column
DECLARE
  r record;
  v_crowded bigint[];
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true); -- see publishing_admit
  PERFORM pg_advisory_xact_lock(1919251317, (a % 2147483647)::int)
     FROM (SELECT DISTINCT a FROM unnest(p_account) AS a ORDER BY a) AS accounts;

  SELECT coalesce(array_agg(account_id), '{}') INTO v_crowded FROM (
    SELECT i.account_id FROM unnest(p_account, p_weight, p_max) AS i(account_id, weight, max)
     GROUP BY i.account_id HAVING sum(least(greatest(i.weight, 1), i.max)) > min(i.max)) AS c;
  FOR r IN SELECT * FROM unnest(p_account, p_target, p_weight, p_max, p_window_secs) AS i(account_id, target_id, weight, max, window_secs)
            WHERE i.account_id = ANY (v_crowded) ORDER BY i.account_id, i.target_id LOOP
    target_id := r.target_id;
    wait_ms := publishing_admit(r.account_id, r.target_id, r.weight, r.max, make_interval(secs => r.window_secs));
    IF wait_ms > 50 THEN
      UPDATE targets t SET error = publishing_quota_wait_reason(r.max, r.window_secs, (SELECT min(l.at) FROM account_admissions l WHERE l.target_id = r.target_id))
       WHERE t.id = r.target_id;
    END IF;
    RETURN NEXT;
  END LOOP;

  RETURN QUERY
  WITH items AS (
    SELECT i.*, least(greatest(i.weight, 1), i.max) AS units, make_interval(secs => i.window_secs) AS win,
           (SELECT min(a.at) FROM account_admissions a WHERE a.target_id = i.target_id) AS known_at
      FROM unnest(p_account, p_target, p_weight, p_max, p_window_secs) AS i(account_id, target_id, weight, max, window_secs)
     WHERE NOT (i.account_id = ANY (v_crowded))
  ), fresh AS (
    SELECT * FROM items WHERE known_at IS NULL
  ), tails AS (
    SELECT f.account_id, coalesce(l.seq, 0) AS last_seq, l.at AS last_at
      FROM (SELECT DISTINCT account_id FROM fresh) AS f
      LEFT JOIN LATERAL (SELECT a.seq, a.at FROM account_admissions a WHERE a.account_id = f.account_id ORDER BY a.seq DESC LIMIT 1) AS l ON true
  ), ranked AS (
    -- `upto`: the account's units in this batch up to and including this item's.
    SELECT f.*, t.last_seq, t.last_at, sum(f.units) OVER (PARTITION BY f.account_id ORDER BY f.target_id) AS upto
      FROM fresh f JOIN tails t USING (account_id)
  ), placed AS (
    -- The unit `max` places before this item's last must have left the window (as in publishing_admit);
    -- with the batch's units within the quota, that unit is an earlier row, never one of the batch.
    SELECT r.*, max(greatest(now(), r.last_at, o.at + r.win)) OVER (PARTITION BY r.account_id ORDER BY r.target_id) AS at
      FROM ranked r
      LEFT JOIN account_admissions o ON o.account_id = r.account_id AND o.seq = r.last_seq + r.upto - r.max
  ), inserted AS (
    INSERT INTO account_admissions (account_id, seq, target_id, at)
    SELECT p.account_id, p.last_seq + p.upto - p.units + n, p.target_id, p.at FROM placed p, generate_series(1, p.units) AS n
  ), admitted AS (
    SELECT i.target_id, i.max, i.window_secs, coalesce(i.known_at, p.at) AS at FROM items i LEFT JOIN placed p USING (target_id)
  ), held AS (
    -- A destination held back says why while it waits (GET /v1/posts/:id shows it pending with this
    -- error; the outcome of its waiting attempt keeps it, its publication clears it).
    UPDATE targets t SET error = publishing_quota_wait_reason(a.max, a.window_secs, a.at)
      FROM admitted a WHERE t.id = a.target_id AND a.at > clock_timestamp() + interval '50 milliseconds'
  )
  SELECT a.target_id, (extract(epoch FROM a.at - clock_timestamp()) * 1000)::float8 FROM admitted a;

  IF p_sweep THEN
    -- As publishing_admit: rows no later admission asks about and no target waits on.
    DELETE FROM account_admissions a
     USING (SELECT i.account_id, min(i.max) AS max, max(i.window_secs) AS window_secs
              FROM unnest(p_account, p_max, p_window_secs) AS i(account_id, max, window_secs) GROUP BY i.account_id) AS b
     WHERE a.account_id = b.account_id
       AND a.seq <= (SELECT max(l.seq) FROM account_admissions l WHERE l.account_id = b.account_id) - b.max
       AND a.at <= now() - make_interval(secs => b.window_secs);
  END IF;
END $$;
