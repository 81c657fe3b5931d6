-- Each network's per-account publishing quota (its `limits.accountQuota`: at most `max` posts in any
-- window of `window`, e.g. X's 100 per 15 minutes) applied by the engine before it calls the network,
-- so a burst to one account is spread over the windows instead of refused by the network.
--
-- One row per admitted unit (a post, or a container where the network counts each one), at the time
-- it was admitted to go: now when the account has room, else the earliest time the sliding window
-- will have room, reserved in arrival order so N waiting targets wake once each, not N times each.
CREATE TABLE account_admissions (
  account_id bigint NOT NULL REFERENCES social_accounts (id) ON DELETE CASCADE,
  target_id bigint NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX account_admissions_account_at ON account_admissions (account_id, at);
CREATE INDEX account_admissions_target ON account_admissions (target_id);

-- Admits target `p_target` (weighing `p_weight` units) to account `p_account`, whose quota is `p_max`
-- per `p_window`; returns the milliseconds until it may go (0 or less: now). A target admitted before
-- (a retry, a wait, a crash) keeps its time. Under a per-account advisory lock, and each statement
-- with its own snapshot (plpgsql, read committed), so concurrent workers see each other's rows: no
-- window ever holds more than `p_max`. Rows older than the window are dropped as the account is used.
CREATE FUNCTION publishing_admit(p_account bigint, p_target bigint, p_weight int, p_max int, p_window interval)
RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
  v_at timestamptz;
  v_nth timestamptz;
  v_latest timestamptz;
  v_weight int := least(greatest(p_weight, 1), p_max);
BEGIN
  SELECT at INTO v_at FROM account_admissions WHERE target_id = p_target LIMIT 1;
  IF v_at IS NULL THEN
    PERFORM pg_advisory_xact_lock(1919251317, (p_account % 2147483647)::int);
    DELETE FROM account_admissions WHERE account_id = p_account AND at <= now() - p_window;
    -- The unit that must have left the window for `v_weight` more to fit, and the latest reservation:
    -- going no earlier than it keeps the order of arrival, and every window checked by a later one.
    SELECT at INTO v_nth FROM account_admissions WHERE account_id = p_account ORDER BY at DESC OFFSET p_max - v_weight LIMIT 1;
    SELECT max(at) INTO v_latest FROM account_admissions WHERE account_id = p_account;
    v_at := greatest(now(), v_nth + p_window, v_latest);
    INSERT INTO account_admissions (account_id, target_id, at)
    SELECT p_account, p_target, v_at FROM generate_series(1, v_weight);
  END IF;
  RETURN extract(epoch FROM v_at - clock_timestamp()) * 1000;
END $$;
