-- POST /v1/posts/bulk (issue 34): a CSV or JSON-lines file of posts, stored as a job with one row per
-- post. A worker holds the job by its lease and creates the rows' posts through the create writer,
-- each under an Idempotency-Key made of the job's `row_key` and the row number, so a job resumed after
-- a crash replays a row's stored response instead of creating its post again.
CREATE TABLE bulk_imports (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id           bigint NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  status           text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed')),
  format           text NOT NULL CHECK (format IN ('csv', 'ndjson')),
  row_key          uuid NOT NULL,      -- secret prefix of the rows' Idempotency-Keys: a client cannot collide with them
  require_approval boolean NOT NULL,   -- the organization's setting when the request was authenticated
  total            integer NOT NULL CHECK (total BETWEEN 1 AND 10000),
  created          integer NOT NULL DEFAULT 0,
  failed           integer NOT NULL DEFAULT 0,
  runner           uuid,               -- the worker run holding it: only it may write the job
  lease_until      timestamptz,        -- renewed after each chunk of rows; past it, another worker takes the job over
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  completed_at     timestamptz
);
CREATE INDEX bulk_imports_org ON bulk_imports (org_id, created_at DESC);
CREATE INDEX bulk_imports_runnable ON bulk_imports (created_at) WHERE status IN ('queued', 'running');

CREATE TABLE bulk_import_rows (
  import_id  bigint NOT NULL REFERENCES bulk_imports(id) ON DELETE CASCADE,
  row_number integer NOT NULL,
  body       jsonb,                    -- the create body the row became; null when the row could not become one
  problem    jsonb,                    -- why the row is no create body ({error, code, details})
  status     text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'created', 'failed')),
  post_id    bigint,                   -- the created post (no foreign key: deleting the post keeps the import's record)
  error      jsonb,                    -- a failed row's create error ({error, code, details})
  PRIMARY KEY (import_id, row_number)
);
CREATE INDEX bulk_import_rows_pending ON bulk_import_rows (import_id, row_number) WHERE status = 'pending';
