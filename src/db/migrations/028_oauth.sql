-- MCP over OAuth (src/oauth/): Crier is the authorization server of its own POST /mcp.
--
-- A client registers itself (RFC 7591) before anyone signs in, so oauth_clients belongs to no
-- organization: it holds only what the client said about itself. What an organization grants is an
-- API key record (api_keys, named "MCP: <client name>"): it shows on the keys page, counts requests
-- and limits like any key, and revoking it ends the grant, every token of it included. No key of
-- that record exists to present: its hash is of random bytes nobody keeps.

CREATE TABLE oauth_clients (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client_id     text NOT NULL UNIQUE,       -- public: the client holds no secret (token_endpoint_auth_method none)
  client_name   text NOT NULL,
  redirect_uris text[] NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- An authorization code: single use, short-lived, bound to the client, its redirect URI, its PKCE
-- challenge and the consenting user's organization. Only its SHA-256 is stored.
CREATE TABLE oauth_codes (
  code_hash      bytea PRIMARY KEY,
  client_id      bigint NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  org_id         bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  user_id        bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  redirect_uri   text NOT NULL,
  code_challenge text NOT NULL,              -- S256 only
  resource       text NOT NULL,              -- RFC 8707: the MCP endpoint the tokens are for
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz,
  api_key_id     bigint REFERENCES api_keys(id) ON DELETE CASCADE  -- the grant, once the code was exchanged
);
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);

-- Access and refresh tokens of a grant (only their SHA-256). A refresh token is used once: `used_at`
-- is kept until it expires, so that presenting it again is recognised and revokes the grant.
CREATE TABLE oauth_tokens (
  token_hash bytea PRIMARY KEY,
  org_id     bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  api_key_id bigint NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  client_id  bigint NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  kind       text NOT NULL CHECK (kind IN ('access', 'refresh')),
  resource   text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens (api_key_id, expires_at);
