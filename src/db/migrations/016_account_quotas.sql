-- Each network's per-account publishing quota (its `limits.accountQuota`: at most `max` units in any
-- window of `window`, e.g. X's 100 tweets per 15 minutes) applied by the engine before it calls the
-- network, so a burst to one account is spread over the following windows instead of refused.
--
-- One row per admitted unit (a post, or each container where the network counts them), numbered per
-- account (`seq`), at the time it was admitted to go: now when the window has room, else the earliest
-- time it will, reserved in arrival order so N waiting targets wake once each, not N times each.
-- Numbering makes the one question asked — "when did the unit `max` places back go?" — a primary
-- key lookup; rows no later question can reach, and a window old, are dropped as the account is used.
CREATE TABLE account_admissions (
  account_id bigint NOT NULL REFERENCES social_accounts (id) ON DELETE CASCADE,
  seq bigint NOT NULL,
  target_id bigint NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (account_id, seq)
);
CREATE INDEX account_admissions_target ON account_admissions (target_id);

-- Admits target `p_target`, weighing `p_weight` units, to account `p_account`, whose quota is `p_max`
-- per `p_window`; returns the milliseconds until it may go (0 or less: now). A target admitted before
-- (a retry, after its wait, after a crash) keeps its time. Under a per-account advisory lock, each
-- statement with its own snapshot (plpgsql, read committed), so concurrent workers see each other's
-- rows: no window of `p_window` ever holds more than `p_max` units.
CREATE FUNCTION publishing_admit(p_account bigint, p_target bigint, p_weight int, p_max int, p_window interval)
RETURNS float8 LANGUAGE plpgsql AS $$
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

-- Admits a batch of targets at once (a worker's group commit: admission.ts), in account order, so
-- that two batches taking the same accounts' locks take them in the same order and never deadlock.
CREATE FUNCTION publishing_admit_batch(p_account bigint[], p_target bigint[], p_weight int[], p_max int[], p_window_secs float8[])
RETURNS TABLE (target_id bigint, wait_ms float8) LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT * FROM unnest(p_account, p_target, p_weight, p_max, p_window_secs) AS i(account_id, target_id, weight, max, window_secs)
            ORDER BY i.account_id, i.target_id LOOP
    target_id := r.target_id;
    wait_ms := publishing_admit(r.account_id, r.target_id, r.weight, r.max, make_interval(secs => r.window_secs));
    RETURN NEXT;
  END LOOP;
END $$;
