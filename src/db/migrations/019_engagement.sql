-- Engagement (issue 18): a destination deleted from its network through Crier, post imports, and
-- looking a published container up by its network id (imports skip what Crier already knows;
-- inbound comments find the post they belong to).

ALTER TABLE targets DROP CONSTRAINT targets_status_check;
ALTER TABLE targets ADD CONSTRAINT targets_status_check
  CHECK (status IN ('pending', 'publishing', 'published', 'failed', 'unknown', 'cancelled', 'deleted'));
ALTER TABLE targets ADD COLUMN deleted_at timestamptz;  -- DELETE /v1/posts/:id/remote removed it from the network

CREATE INDEX targets_account_platform_id ON targets (account_id, platform_post_id) WHERE platform_post_id IS NOT NULL;
CREATE INDEX target_parts_platform_id ON target_parts (platform_id) WHERE platform_id IS NOT NULL;

-- POST /v1/social-accounts/:id/imports: one job pages through the account's own posts on its network
-- and stores each as a published post of the org. A worker holds it by its lease; `cursor` and the
-- counts are written with each page's posts, so a job resumed after a crash neither repeats nor loses one.
CREATE TABLE imports (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id       bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  account_id   bigint NOT NULL REFERENCES social_accounts(id) ON DELETE CASCADE,
  status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'partial', 'failed')),
  since        timestamptz,
  until        timestamptz,
  max_posts    integer NOT NULL CHECK (max_posts BETWEEN 1 AND 1000),
  imported     integer NOT NULL DEFAULT 0,
  skipped      integer NOT NULL DEFAULT 0,
  failed       integer NOT NULL DEFAULT 0,
  error        text,
  cursor       text,               -- the network's cursor of the next page; null before the first
  exhausted    boolean NOT NULL DEFAULT false,
  runner       uuid,               -- the worker run holding it: only it may write the job
  lease_until  timestamptz,        -- a running job's worker renews it; past it, another worker takes the job over
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX imports_account ON imports (account_id, created_at DESC);
CREATE INDEX imports_runnable ON imports (created_at) WHERE status IN ('queued', 'running');

ALTER TABLE posts ADD COLUMN import_id bigint;  -- the import that stored it (not published through Crier)
