-- Approvals (issue 34) and API key roles.
--
-- A key's role says what it may do (src/orgs/roles.ts holds the table of routes): `admin` everything,
-- `editor` posts, media and queues but no keys, webhooks, settings or account connections, `approver`
-- reads and approves or rejects posts. Every key that existed keeps full rights (`admin`), and so do
-- the keys made without a role (the CLI, the first start, OAuth grants).
ALTER TABLE api_keys ADD COLUMN role text NOT NULL DEFAULT 'admin'
  CONSTRAINT api_keys_role_check CHECK (role IN ('admin', 'editor', 'approver'));

-- The organization's setting: a post created (not a draft) waits for an approver's decision.
ALTER TABLE orgs ADD COLUMN require_approval boolean NOT NULL DEFAULT false;

-- A post's approval: null when none was asked (the org did not require it when the post was created or
-- made a non-draft); `pending` while it waits (its destinations `pending_approval`, nothing due);
-- `approved` once queued by an approver; `rejected` for good (its destinations `rejected`, never due).
-- The decision names the key that made it, kept when the key is deleted.
ALTER TABLE posts
  ADD COLUMN approval text CONSTRAINT posts_approval_check CHECK (approval IN ('pending', 'approved', 'rejected')),
  ADD COLUMN approval_decided_at timestamptz,
  ADD COLUMN approval_decided_by bigint REFERENCES api_keys(id) ON DELETE SET NULL,
  ADD COLUMN approval_reason text;

ALTER TABLE targets DROP CONSTRAINT targets_status_check;
ALTER TABLE targets ADD CONSTRAINT targets_status_check
  CHECK (status IN ('pending', 'pending_approval', 'rejected', 'publishing', 'published', 'failed', 'unknown', 'cancelled', 'deleted'));
