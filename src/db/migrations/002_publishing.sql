-- Publishing: attempts fence each run of a target, parts remember each published container (so a
-- retried thread resumes instead of reposting its root), events are the outbox for webhooks.

ALTER TABLE social_accounts
  ADD COLUMN credential_enc bytea,   -- a long-lived credential used instead of OAuth (bluesky app password)
  ADD COLUMN service_url text;       -- where the account lives (bluesky PDS); null = the network's default

ALTER TABLE posts
  ADD COLUMN completed_at timestamptz;  -- every target terminal and its event emitted

ALTER TABLE targets
  ADD COLUMN current_attempt_id bigint,
  ADD COLUMN attempt_count integer NOT NULL DEFAULT 0;

CREATE TABLE attempts (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id      bigint NOT NULL,
  target_id   bigint NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  job_id      text,
  started_at  timestamptz NOT NULL DEFAULT now(),
  alive_at    timestamptz NOT NULL DEFAULT now(),  -- renewed while the attempt runs: a lease
  finished_at timestamptz,
  outcome     text CHECK (outcome IN ('published', 'failed', 'retry', 'unknown', 'superseded', 'skipped')),
  error       text
);
CREATE INDEX attempts_target ON attempts (target_id);

CREATE TABLE target_parts (
  target_id     bigint NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  position      integer NOT NULL,
  org_id        bigint NOT NULL,
  status        text NOT NULL CHECK (status IN ('reserved', 'published')),
  reservation   jsonb NOT NULL DEFAULT '{}',   -- what was chosen before the call (bluesky: the record key)
  platform_id   text,
  platform_url  text,
  ref           jsonb,                          -- what later parts need (bluesky: uri and cid)
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (target_id, position)
);

CREATE TABLE events (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id     bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  type       text NOT NULL,
  data       jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_org_created ON events (org_id, created_at);
