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

-- Its functions (publishing_admit…): src/db/functions/publishing-admission.sql, applied by migrate.ts before these files.
