-- Inbound webhooks from networks (src/inbound/) and direct messages (src/conversations/).

-- The verify token Meta's console asks for with the callback URL, one per registered app: shown on
-- the app's record (GET /v1/social-networks), answered in the subscription handshake.
ALTER TABLE social_networks ADD COLUMN inbound_verify_token text NOT NULL
  DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
CREATE INDEX social_networks_inbound_verify_token ON social_networks (network, inbound_verify_token);

-- An account receives and sends direct messages only when its connect asked for the messaging scope.
ALTER TABLE social_accounts ADD COLUMN messaging boolean NOT NULL DEFAULT false;
ALTER TABLE oauth_states ADD COLUMN messaging boolean NOT NULL DEFAULT false;
ALTER TABLE pending_connections ADD COLUMN messaging boolean NOT NULL DEFAULT false;
CREATE INDEX social_accounts_network_unique_id ON social_accounts (network, network_unique_id);

-- A verified delivery, stored before it is acknowledged; processed by the worker until it succeeds.
-- account_ids: the accounts whose app secret signed it (only their items are processed).
CREATE TABLE inbound_deliveries (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  network         text NOT NULL,
  account_ids     bigint[] NOT NULL,
  headers         jsonb NOT NULL,
  query           jsonb NOT NULL,
  body            bytea NOT NULL,
  received_at     timestamptz NOT NULL DEFAULT now(),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  processed_at    timestamptz
);
CREATE INDEX inbound_deliveries_due ON inbound_deliveries (next_attempt_at) WHERE processed_at IS NULL;

-- Items already turned into events (comments, echoes from the network's app): a redelivery emits nothing.
CREATE TABLE inbound_seen (
  social_account_id bigint NOT NULL REFERENCES social_accounts(id) ON DELETE CASCADE,
  kind              text NOT NULL,
  item_id           text NOT NULL,
  seen_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (social_account_id, kind, item_id)
);

CREATE TABLE conversations (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id            bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  social_account_id bigint NOT NULL REFERENCES social_accounts(id) ON DELETE CASCADE,
  network           text NOT NULL,
  participant_id    text NOT NULL,
  -- The contact's last message: the network's 24-hour messaging window runs from it.
  last_inbound_at   timestamptz,
  -- conversation.started was emitted (alongside its first received or sent message).
  started           boolean NOT NULL DEFAULT false,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (social_account_id, participant_id)
);
CREATE INDEX conversations_org_account ON conversations (org_id, social_account_id, updated_at DESC);

CREATE TABLE messages (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id              bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  conversation_id     bigint NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  social_account_id   bigint NOT NULL REFERENCES social_accounts(id) ON DELETE CASCADE,
  direction           text NOT NULL CHECK (direction IN ('in', 'out')),
  status              text NOT NULL CHECK (status IN ('received', 'sending', 'sent', 'failed')),
  text                text NOT NULL,
  quick_replies       jsonb,
  -- in: the quick-reply button pressed; out: the comment this private reply answers.
  interaction_id      text,
  comment_id          text,
  platform_message_id text,
  error               text,
  sent_at             timestamptz NOT NULL DEFAULT now(),
  created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX messages_platform_id ON messages (social_account_id, platform_message_id) WHERE platform_message_id IS NOT NULL;
-- One private reply per comment (a failed one may be tried again).
CREATE UNIQUE INDEX messages_private_reply ON messages (social_account_id, comment_id) WHERE comment_id IS NOT NULL AND status <> 'failed';
CREATE INDEX messages_conversation ON messages (conversation_id, id);
