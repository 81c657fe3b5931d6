-- Limits and billing: per-key rate-limit overrides and fixed-quota counters, and the link between an
-- organization and its Stripe customer and subscription.

ALTER TABLE api_keys
  -- Requests counted against fixed_quota; incremented atomically, never past fixed_quota.
  ADD COLUMN quota_used bigint NOT NULL DEFAULT 0 CHECK (quota_used >= 0),
  -- An operator's override of the computed per-window limit; null = the organization's formula.
  ADD COLUMN rate_limit integer CHECK (rate_limit > 0),
  ADD CONSTRAINT api_keys_fixed_quota_positive CHECK (fixed_quota IS NULL OR fixed_quota > 0);

ALTER TABLE orgs
  ADD COLUMN stripe_customer_id text UNIQUE,
  -- The subscription whose status the org carries: an event about another subscription of the same
  -- customer (e.g. the old plan being deleted after an upgrade) must not lock the org out.
  ADD COLUMN stripe_subscription_id text,
  -- `created` of the last Stripe event applied: Stripe does not deliver events in order.
  ADD COLUMN stripe_event_at timestamptz;
