-- Bring-your-own OAuth apps (one per org and network) and the short-lived state of OAuth connects.

CREATE TABLE social_networks (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id            bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  network           text NOT NULL,
  client_key        text NOT NULL,
  client_secret_enc bytea,                 -- AES-256-GCM, associated data social_networks:<id>:secret; set in the inserting transaction
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, network)
);

-- One row per authorize URL handed out: consumed (deleted) by the callback, valid 10 minutes.
-- Only the SHA-256 of the state is stored, so a database reader cannot complete someone's connect.
CREATE TABLE oauth_states (
  state_hash    bytea PRIMARY KEY,
  org_id        bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  network       text NOT NULL,
  code_verifier text NOT NULL,             -- PKCE verifier; useless without the code X sends to the callback
  redirect_uri  text,
  tenant_id     text,
  expires_at    timestamptz NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_states_expires ON oauth_states (expires_at);

-- The refresh pass looks for tokens about to expire.
CREATE INDEX social_accounts_token_expiry ON social_accounts (token_expires_at) WHERE refresh_token_enc IS NOT NULL AND is_active;
