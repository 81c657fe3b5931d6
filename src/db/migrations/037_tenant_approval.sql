-- Approval per tenant (issue 34: "an organization (or a tenant) can require approval"). A tenant is a
-- name the app gives its accounts (social_accounts.tenant_id), not a table of its own: its settings
-- are a row here, made on first change, for a tenant that may have no account yet. A post waits for
-- approval when its organization requires it or when any account it targets carries a tenant that
-- does (posts/accounts.ts resolves that with the accounts; posts/manage.ts when a draft becomes a post).
CREATE TABLE tenant_settings (
  org_id           bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  tenant_id        text NOT NULL,
  require_approval boolean NOT NULL DEFAULT false,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, tenant_id)
);
