-- Connects where one login grants several accounts (facebook pages, instagram business accounts,
-- linkedin organizations, google business locations): the callback keeps what the login granted
-- here, the user picks, finalize connects the picks. The session token is shown once (only its
-- SHA-256 is stored), expires, and works until finalize consumes the row.
CREATE TABLE pending_connections (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  token_hash     bytea NOT NULL UNIQUE,
  org_id         bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  network        text NOT NULL,
  tenant_id      text,
  redirect_uri   text,
  sandbox        boolean NOT NULL DEFAULT false,  -- connected through `crier start --sandbox` (emulators)
  candidates_enc bytea NOT NULL,           -- the granted accounts with their tokens, AES-256-GCM, 'pending_connections:<id>:candidates'
  expires_at     timestamptz NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pending_connections_expires ON pending_connections (expires_at);

-- The PKCE verifier is a secret of the connect in flight: sealed like every other secret.
DELETE FROM oauth_states;
ALTER TABLE oauth_states DROP COLUMN code_verifier;
ALTER TABLE oauth_states ADD COLUMN code_verifier_enc bytea;  -- 'oauth_states:<state hash hex>:verifier'

-- Accounts whose token expires are found by the maintenance pass whether or not they can refresh:
-- those that cannot are marked inactive at expiry.
DROP INDEX social_accounts_token_expiry;
CREATE INDEX social_accounts_token_expiry ON social_accounts (token_expires_at) WHERE is_active;

-- A refresh that failed without a verdict (network down, app credentials refused) waits before the
-- next try instead of calling the network every minute.
ALTER TABLE social_accounts ADD COLUMN token_refresh_retry_at timestamptz;

-- An app registered with its own scopes asks for those instead of the network's defaults (a LinkedIn
-- app without Community Management approval, a TikTok app without user.info.profile).
ALTER TABLE social_networks ADD COLUMN scopes text[];
