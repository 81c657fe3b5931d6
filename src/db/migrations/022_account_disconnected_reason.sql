-- Why and when an account was disconnected (its token refused or not refreshable), shown on the
-- account record and in the dashboard until the account is connected again.
ALTER TABLE social_accounts
  ADD COLUMN disconnected_reason text,
  ADD COLUMN disconnected_at timestamptz;
