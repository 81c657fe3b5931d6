// POST /v1/social-accounts/:id/imports and reading import jobs back. The job itself runs in the
// worker (import-worker.ts); this file creates it and shows it as the API's record.
import type { Queryable } from '../db/pool.ts';
import { RequestError, validationError, type FieldIssue } from '../core/errors.ts';
import { decodeId, encodeId } from '../core/ids.ts';
import type { NetworkRegistry } from '../networks/registry.ts';
import { DATE_OR_DATE_TIME_BODY_MESSAGE, parseDateOrDateTime } from '../validation/date-time.ts';

/** LISTEN/NOTIFY channel: "an import job was created", sent at its commit; wakes the import runner. */
export const IMPORTS_CHANNEL = 'crier_imports';

/** The most posts one import stores, and what it stores when the request names no limit. */
export const MAX_IMPORT = 1000;

export interface ImportRow {
  id: number;
  org_id: number;
  account_id: number;
  status: 'queued' | 'running' | 'completed' | 'partial' | 'failed';
  since: Date | null;
  until: Date | null;
  max_posts: number;
  imported: number;
  skipped: number;
  failed: number;
  error: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

export interface ImportJson {
  id: string;
  socialAccountId: string;
  status: ImportRow['status'];
  since: string | null;
  until: string | null;
  limit: number;
  imported: number;
  skipped: number;
  failed: number;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

export function toImportJson(row: ImportRow): ImportJson {
  return {
    id: encodeId(row.id),
    socialAccountId: encodeId(row.account_id),
    status: row.status,
    since: row.since?.toISOString() ?? null,
    until: row.until?.toISOString() ?? null,
    limit: row.max_posts,
    imported: row.imported,
    skipped: row.skipped,
    failed: row.failed,
    error: row.error,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

export interface ImportRequest { since?: string; until?: string; limit?: number }

/** Queues an import of the account's posts; 400 when its network cannot list them, or the body is wrong. */
export async function createImport(db: Queryable, networks: NetworkRegistry, orgId: number, accountId: number, body: ImportRequest): Promise<ImportJson> {
  const { rows: accounts } = await db.query<{ network: string }>('SELECT network FROM social_accounts WHERE id = $1 AND org_id = $2', [accountId, orgId]);
  if (!accounts[0]) throw new RequestError(404, 'Social account not found', { code: 'not_found' });
  const network = networks.get(accounts[0].network as never);
  if (!networks.capabilities(network.id).ownPosts) {
    throw new RequestError(400, `${network.label}'s API does not list an account's posts to apps: nothing can be imported`, { code: 'import_not_supported' });
  }
  const request = parseImportRequest(body);
  const { rows } = await db.query<ImportRow>(
    `WITH created AS (INSERT INTO imports (org_id, account_id, since, until, max_posts) VALUES ($1, $2, $3, $4, $5) RETURNING *)
     SELECT created.*, pg_notify('${IMPORTS_CHANNEL}', '') AS notified FROM created`,
    [orgId, accountId, request.since, request.until, request.limit],
  );
  return toImportJson(rows[0]!);
}

const FIELDS = new Set(['since', 'until', 'limit']);

function parseImportRequest(body: ImportRequest): { since: Date | null; until: Date | null; limit: number } {
  const details: FieldIssue[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw validationError([{ field: '(body)', message: 'must be a JSON object' }]);
  for (const key of Object.keys(body)) if (!FIELDS.has(key)) details.push({ field: key, message: 'is not a field of an import (since, until, limit)' });
  const since = instant(body.since, 'since', details);
  const until = instant(body.until, 'until', details);
  if (since && until && since >= until) details.push({ field: 'until', message: 'must be after since' });
  const limit = body.limit ?? MAX_IMPORT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_IMPORT) details.push({ field: 'limit', message: `must be a whole number from 1 to ${MAX_IMPORT}` });
  if (details.length) throw validationError(details);
  return { since, until, limit };
}

/** A bound parsed by the one date-time parser (validation/date-time.ts): Feb 30 or year 0000 is refused, not rolled over. */
function instant(value: string | undefined, field: string, details: FieldIssue[]): Date | null {
  if (value === undefined) return null;
  const date = typeof value === 'string' ? parseDateOrDateTime(value) : undefined;
  if (!date) {
    details.push({ field, message: DATE_OR_DATE_TIME_BODY_MESSAGE });
    return null;
  }
  return date;
}

export async function listImports(db: Queryable, orgId: number, accountId: number): Promise<ImportJson[]> {
  const { rows: accounts } = await db.query('SELECT 1 FROM social_accounts WHERE id = $1 AND org_id = $2', [accountId, orgId]);
  if (!accounts[0]) throw new RequestError(404, 'Social account not found', { code: 'not_found' });
  const { rows } = await db.query<ImportRow>('SELECT * FROM imports WHERE account_id = $1 AND org_id = $2 ORDER BY created_at DESC, id DESC LIMIT 100', [accountId, orgId]);
  return rows.map(toImportJson);
}

export async function getImport(db: Queryable, orgId: number, accountId: number, encodedImportId: string): Promise<ImportJson> {
  const importId = decodeId(encodedImportId);
  const { rows } = importId === undefined ? { rows: [] } : await db.query<ImportRow>('SELECT * FROM imports WHERE id = $1 AND account_id = $2 AND org_id = $3', [importId, accountId, orgId]);
  if (!rows[0]) throw new RequestError(404, 'Import not found', { code: 'not_found' });
  return toImportJson(rows[0]);
}
