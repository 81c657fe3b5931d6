-- Crier's first schema. Every table carries org_id and every query is scoped by it.

CREATE TABLE orgs (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name                text NOT NULL,
  subscription_status text NOT NULL DEFAULT 'active'
    CHECK (subscription_status IN ('active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'canceled')),
  billing_url         text,
  created_at          timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id     bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  email      text,
  name       text NOT NULL,
  role       text NOT NULL DEFAULT 'admin',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_org ON users (org_id);

CREATE TABLE api_keys (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id       bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  user_id      bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name         text NOT NULL,
  prefix       text NOT NULL,              -- first characters, shown in listings to recognise a key
  key_hash     bytea NOT NULL UNIQUE,      -- sha256 of the whole key; the key itself is never stored
  fixed_quota  bigint,                     -- null: rate-limited by window; else a fixed request quota
  revoked_at   timestamptz,
  last_used_at timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_org ON api_keys (org_id);

CREATE TABLE social_accounts (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id               bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  network              text NOT NULL,
  username             text NOT NULL,
  nickname             text NOT NULL DEFAULT '',
  tenant_id            text,
  network_unique_id    text NOT NULL,
  account_type         text NOT NULL DEFAULT 'personal',
  is_active            boolean NOT NULL DEFAULT true,
  access_token_enc     bytea,               -- AES-256-GCM (security/crypto.ts), row id as associated data
  refresh_token_enc    bytea,
  token_expires_at     timestamptz,
  profile_picture_url  text,
  sandbox              boolean NOT NULL DEFAULT false,
  created_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, network, network_unique_id)
);
CREATE INDEX social_accounts_org_username ON social_accounts (org_id, username);
CREATE INDEX social_accounts_org_tenant ON social_accounts (org_id, tenant_id);

CREATE TABLE posts (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id          bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  is_draft        boolean NOT NULL DEFAULT false,
  scheduled_at    timestamptz,
  published_at    timestamptz,
  network_options jsonb,                    -- platform blocks as sent (unknown keys dropped), keyed by network
  process_media   boolean NOT NULL DEFAULT false,
  queued          boolean NOT NULL DEFAULT false,  -- a publishing job is queued (the API's `scheduled`)
  generation      integer NOT NULL DEFAULT 1,      -- bumped by reschedule/cancel: older jobs become no-ops
  cancelled_at    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX posts_org_created ON posts (org_id, created_at DESC, id DESC);
CREATE INDEX posts_org_scheduled ON posts (org_id, scheduled_at);

CREATE TABLE containers (
  id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id   bigint NOT NULL,
  post_id  bigint NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
  position integer NOT NULL,
  content  text NOT NULL DEFAULT '',
  UNIQUE (post_id, position)
);

CREATE TABLE container_media (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id       bigint NOT NULL,
  container_id bigint NOT NULL REFERENCES containers(id) ON DELETE CASCADE,
  position     integer NOT NULL,
  url          text NOT NULL,
  filename     text NOT NULL,
  alt_text     text,
  media_id     bigint,
  UNIQUE (container_id, position)
);

CREATE TABLE targets (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id            bigint NOT NULL,
  post_id           bigint NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
  account_id        bigint NOT NULL REFERENCES social_accounts(id) ON DELETE CASCADE,
  status            text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'publishing', 'published', 'failed', 'unknown', 'cancelled')),
  platform_post_id  text,
  platform_post_url text,
  error             text,
  published_at      timestamptz,
  UNIQUE (post_id, account_id)
);
CREATE INDEX targets_account_post ON targets (account_id, post_id);

CREATE TABLE idempotency_keys (
  org_id           bigint NOT NULL,
  endpoint         text NOT NULL,
  key              text NOT NULL,
  fingerprint      bytea NOT NULL,          -- sha256 of the canonical request body
  response_status  integer NOT NULL,
  response_body    jsonb NOT NULL,
  response_headers jsonb NOT NULL DEFAULT '{}',
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, endpoint, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
