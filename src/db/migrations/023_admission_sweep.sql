-- Admitting a batch of destinations (publishing_admit_batch, migration 016) did two more things every
-- batch that most batches need not: it swept the accounts' old admissions, and it read every item's
-- admission back to write the waiting reason of those held back. Over a drain of bench:publish they
-- were a third of the admission's time (892 and 295 of 3,329 ms for 43,072 destinations,
-- pg_stat_statements), while the sweep removes only rows a window old and the reason concerns only
-- the items held back. Now the worker asks for the sweep at most once a second (`p_sweep`), and the
-- reason is written in the statement that places the items, from the times it has just chosen.
DROP FUNCTION publishing_admit_batch(bigint[], bigint[], int[], int[], float8[]);

-- The waiting reason GET /v1/posts/:id shows on a destination held back until `p_at` (as migration
-- 016 wrote it, and a window of a fraction of a second in seconds).
CREATE FUNCTION publishing_quota_wait_reason(p_max int, p_window_secs float8, p_at timestamptz) RETURNS text
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

CREATE FUNCTION publishing_admit_batch(p_account bigint[], p_target bigint[], p_weight int[], p_max int[], p_window_secs float8[], p_sweep boolean DEFAULT true)
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
