// The upload flow: start (a pending media row and a signed PUT URL), receive (the PUT streams the bytes
// to storage), confirm (the bytes exist, have the announced size, and really are what the filename and
// content type say). Only confirmed media gets a public URL.
import { PassThrough, type Readable } from 'node:stream';
import { parseGuardedUrl, ssrfCause, type GuardedClient } from '../security/ssrf.ts';
import { withTransaction, type Queryable } from '../db/pool.ts';
import { RequestError, validationError, type FieldIssue } from '../core/errors.ts';
import { newToken, type MediaContext } from './context.ts';
import { mediaJson, MEDIA_COLUMNS, type MediaJson, type MediaRow } from './library.ts';
import { checkUpload, signUpload, uploadSigningKey } from './signing.ts';
import { normalizeType, sameFamily, sniffType, SNIFF_BYTES, TYPE_NAMES, typeFromFilename, acceptedNames, type MediaType } from './sniff.ts';
import { TooLargeError } from './storage.ts';

export interface StartedUpload {
  id: number;
  upload_url: string;
  expires_in: number;
}

export async function startUpload(ctx: MediaContext, orgId: number, input: { filename: string; content_type?: string }): Promise<StartedUpload> {
  const ttl = ctx.settings.uploadUrlTtlSeconds;
  // Whole seconds in the URL; rounding up keeps a 1-second window from being a 0-second one.
  const expires = Math.ceil(Date.now() / 1000) + ttl;
  const id = await createPendingMedia(ctx, orgId, input, expires);
  const signature = signUpload(await uploadSigningKey(ctx.db, ctx.box), id, expires);
  return { id, upload_url: `${ctx.publicBaseUrl}/media-uploads/${id}?expires=${expires}&signature=${signature}`, expires_in: ttl };
}

/** A pending media row for a file of that name and declared type (checked), open until `expires` (epoch s). */
async function createPendingMedia(ctx: MediaContext, orgId: number, input: { filename: string; content_type?: string }, expires: number): Promise<number> {
  const declared = checkUploadRequest(input);
  const { rows } = await ctx.db.query<{ id: number }>(
    `INSERT INTO media (org_id, filename, declared_type, token, expires_at)
     VALUES ($1, $2, $3, $4, to_timestamp($5)) RETURNING id`,
    [orgId, input.filename, declared ?? null, newToken(), expires],
  );
  return rows[0]!.id;
}

/**
 * POST /v1/media/import: Crier downloads the file at `url` itself (through the SSRF guard, under the
 * upload size cap) and keeps it as confirmed media — the upload flow without the client's PUT, for
 * callers that only have a URL (an agent through MCP, a script). The same type checks as confirm.
 */
export async function importUpload(ctx: MediaContext, client: GuardedClient, allowLoopback: boolean, orgId: number, input: { url: string; filename?: string; content_type?: string }): Promise<MediaJson> {
  let url: URL;
  try {
    url = parseGuardedUrl(input.url, allowLoopback);
  } catch (error) {
    throw validationError([{ field: 'url', message: (error as Error).message }]);
  }
  const filename = input.filename ?? decodeURIComponent(url.pathname.split('/').filter(Boolean).at(-1) ?? '');
  const expires = Math.ceil(Date.now() / 1000) + ctx.settings.uploadUrlTtlSeconds;
  const id = await createPendingMedia(ctx, orgId, { filename, ...(input.content_type ? { content_type: input.content_type } : {}) }, expires);
  const max = ctx.settings.maxUploadBytes;
  const key = `uploads/${orgId}/${id}-${newToken().slice(0, 12).toLowerCase()}`;
  const sink = new PassThrough();
  const writing = ctx.storage.write(key, sink, max);
  let written;
  try {
    const response = await client.fetch(url.toString(), { sink, maxBytes: max, timeoutMs: 10 * 60_000 });
    if (response.status !== 200) sink.end();
    written = await writing;
    if (response.status !== 200) throw validationError([{ field: 'url', message: `answered HTTP ${response.status}, not the file` }]);
  } catch (error) {
    sink.destroy();
    await writing.catch(() => undefined);
    await ctx.storage.delete(key).catch(() => undefined);
    await ctx.db.query('DELETE FROM media WHERE id = $1', [id]);
    if (error instanceof RequestError) throw error;
    if (error instanceof TooLargeError || ssrfCause(error)?.code === 'too_large') throw tooLarge(max);
    throw validationError([{ field: 'url', message: `could not be downloaded: ${ssrfCause(error)?.message ?? (error as Error).message}` }]);
  }
  await adoptUpload(ctx, id, key, written);
  return confirmUpload(ctx, orgId, id, undefined).catch(async (error: unknown) => {
    // Not a file Crier takes (the bytes are not what the name says): nothing is kept.
    await ctx.db.query('DELETE FROM media WHERE id = $1', [id]);
    await ctx.storage.delete(key).catch(() => undefined);
    throw error;
  });
}

const FILENAME_FORBIDDEN = /[\u0000-\u001f\u007f/\\?#]/;

/** The filename's type and the declared one must be types we take, and agree. Returns the declared type. */
function checkUploadRequest(input: { filename: string; content_type?: string }): MediaType | undefined {
  const issues: FieldIssue[] = [];
  const byName = typeFromFilename(input.filename);
  if (FILENAME_FORBIDDEN.test(input.filename) || input.filename.startsWith('.')) {
    issues.push({ field: 'filename', message: 'must be a plain file name: no path separators, query (?), fragment (#), control characters or leading dot' });
  } else if (!byName) {
    issues.push({ field: 'filename', message: 'must end in .jpg, .jpeg, .png, .gif, .webp, .mp4, .m4v, .mov or .webm' });
  }
  const declared = input.content_type === undefined ? undefined : normalizeType(input.content_type);
  if (input.content_type !== undefined && !declared) {
    issues.push({ field: 'content_type', message: `must be the type of a ${acceptedNames()} file (image/jpeg, image/png, image/gif, image/webp, video/mp4, video/quicktime, video/webm)` });
  } else if (declared && byName && !sameFamily(byName, declared)) {
    issues.push({ field: 'content_type', message: `is ${declared}, but "${input.filename}" names a ${TYPE_NAMES[byName]} file` });
  }
  if (issues.length) throw validationError(issues);
  return declared;
}

export interface ReceivedUpload {
  id: number;
  size: number;
}

/**
 * The PUT: checks the signature and expiry, then streams the body into a new storage object, which
 * becomes the media's bytes only if the media is still pending when the write is done.
 */
export async function receiveUpload(
  ctx: MediaContext,
  id: number,
  query: { expires?: string; signature?: string },
  body: Readable,
  declaredLength: number | undefined,
): Promise<ReceivedUpload> {
  const check = checkUpload(await uploadSigningKey(ctx.db, ctx.box), id, query.expires, query.signature);
  if (check === 'bad_signature') throw new RequestError(403, 'The upload URL is not valid (its signature does not match); ask POST /v1/media/upload for a new one', { code: 'invalid_signature' });
  if (check === 'expired') throw new RequestError(403, 'The upload URL has expired; ask POST /v1/media/upload for a new one', { code: 'upload_url_expired' });
  const row = await pendingRow(ctx, id);
  const max = ctx.settings.maxUploadBytes;
  if (declaredLength !== undefined && declaredLength > max) throw tooLarge(max);
  const key = `uploads/${row.org_id}/${id}-${newToken().slice(0, 12).toLowerCase()}`;
  let written;
  try {
    written = await ctx.storage.write(key, body, max);
  } catch (error) {
    if (error instanceof TooLargeError) throw tooLarge(max);
    if (body.errored || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
      throw new RequestError(400, 'The upload was interrupted before the whole body arrived; PUT it again', { code: 'upload_interrupted' });
    }
    throw error;
  }
  return adoptUpload(ctx, id, key, written);
}

async function pendingRow(ctx: MediaContext, id: number): Promise<{ org_id: number }> {
  const { rows } = await ctx.db.query<{ org_id: number; status: string }>('SELECT org_id, status FROM media WHERE id = $1', [id]);
  const row = rows[0];
  if (!row) throw new RequestError(404, 'This media no longer exists', { code: 'not_found' });
  if (row.status !== 'pending') throw alreadyConfirmed();
  return row;
}

/** Points the media at its new bytes, unless it was confirmed or deleted meanwhile (then they go). */
async function adoptUpload(ctx: MediaContext, id: number, key: string, written: { size: number; sha256: Buffer }): Promise<ReceivedUpload> {
  const { rows } = await ctx.db.query<{ previous: string | null }>(
    `UPDATE media m SET storage_key = $2, size = $3, sha256 = $4, uploaded_at = now()
       FROM (SELECT storage_key AS previous FROM media WHERE id = $1 FOR UPDATE) old
      WHERE m.id = $1 AND m.status = 'pending'
      RETURNING old.previous`,
    [id, key, written.size, written.sha256],
  );
  if (!rows[0]) {
    await ctx.storage.delete(key);
    throw alreadyConfirmed();
  }
  if (rows[0].previous) await ctx.storage.delete(rows[0].previous); // an earlier PUT, replaced
  return { id, size: written.size };
}

const tooLarge = (max: number) => new RequestError(413, `The upload is larger than the ${max} byte limit`, { code: 'payload_too_large', headers: { connection: 'close' } });
const alreadyConfirmed = () => new RequestError(409, 'This media was already confirmed; its bytes can no longer change', { code: 'already_confirmed' });

/** Confirm: idempotent for media that is already confirmed (same answer, no change). */
export async function confirmUpload(ctx: MediaContext, orgId: number, id: number, expectedSize: number | undefined): Promise<MediaJson> {
  return withTransaction(ctx.db, async (tx) => {
    // The row lock keeps a PUT that finishes now from swapping the bytes between check and confirm.
    const { rows } = await tx.query<MediaRow>(`SELECT ${MEDIA_COLUMNS} FROM media WHERE id = $1 AND org_id = $2 FOR UPDATE`, [id, orgId]);
    const row = rows[0];
    if (!row) throw new RequestError(404, 'Media not found', { code: 'not_found' });
    const confirmed = row.status === 'ready' ? row : await confirmRow(ctx, tx, row, expectedSize);
    if (expectedSize !== undefined && confirmed.size !== expectedSize) throw sizeMismatch(confirmed.size!, expectedSize);
    return mediaJson(ctx.publicBaseUrl, confirmed);
  });
}

async function confirmRow(ctx: MediaContext, client: Queryable, row: MediaRow, expectedSize: number | undefined): Promise<MediaRow> {
  const stored = row.storage_key ? await ctx.storage.stat(row.storage_key) : undefined;
  if (!row.storage_key || !stored) {
    throw new RequestError(409, 'Nothing was uploaded yet: PUT the file to upload_url first, then confirm', { code: 'upload_missing' });
  }
  if (expectedSize !== undefined && stored.size !== expectedSize) throw sizeMismatch(stored.size, expectedSize);
  const actual = sniffType(await ctx.storage.readHead(row.storage_key, SNIFF_BYTES));
  const issues = typeIssues(row, actual);
  if (issues.length) throw new RequestError(400, 'The uploaded file is not what its filename or content type says', { code: 'media_type_mismatch', details: issues });
  const { rows } = await client.query<MediaRow>(
    `UPDATE media SET status = 'ready', content_type = $2, size = $3, confirmed_at = now(),
                      expires_at = created_at + make_interval(days => $4)
      WHERE id = $1 RETURNING ${MEDIA_COLUMNS}`,
    [row.id, actual, stored.size, ctx.settings.retentionDays],
  );
  return rows[0]!;
}

function typeIssues(row: MediaRow, actual: MediaType | undefined): FieldIssue[] {
  if (!actual) return [{ field: 'file', message: `the uploaded bytes are not a ${acceptedNames()} file` }];
  const issues: FieldIssue[] = [];
  const byName = typeFromFilename(row.filename)!;
  if (!sameFamily(byName, actual)) issues.push({ field: 'filename', message: `"${row.filename}" names a ${TYPE_NAMES[byName]} file, but the uploaded bytes are ${TYPE_NAMES[actual]} (${actual})` });
  const declared = row.declared_type as MediaType | null;
  if (declared && !sameFamily(declared, actual)) issues.push({ field: 'content_type', message: `is ${declared}, but the uploaded bytes are ${TYPE_NAMES[actual]} (${actual})` });
  return issues;
}

function sizeMismatch(actual: number, expected: number): RequestError {
  return validationError([{ field: 'size', message: `the uploaded file has ${actual} bytes, not ${expected}` }], 'The uploaded file does not have the announced size');
}
