-- POST /v1/posts/bulk/:id/cancel (issue 34): a queued or running bulk import can be cancelled. The
-- job ends `cancelled`, and each row not yet done ends `cancelled` with it (posts/bulk-cancel.ts);
-- the rows already created keep their posts. `cancelled` counts those rows, `cancelled_at` is when.
ALTER TABLE bulk_imports DROP CONSTRAINT bulk_imports_status_check;
ALTER TABLE bulk_imports ADD CONSTRAINT bulk_imports_status_check CHECK (status IN ('queued', 'running', 'completed', 'cancelled'));
ALTER TABLE bulk_imports ADD COLUMN cancelled integer NOT NULL DEFAULT 0;
ALTER TABLE bulk_imports ADD COLUMN cancelled_at timestamptz;

ALTER TABLE bulk_import_rows DROP CONSTRAINT bulk_import_rows_status_check;
ALTER TABLE bulk_import_rows ADD CONSTRAINT bulk_import_rows_status_check CHECK (status IN ('pending', 'created', 'failed', 'cancelled'));
