// An organization's media: read, list, delete, and the public lookup of a served file by its token.
import { withTransaction } from '../db/pool.ts';
import { RequestError } from '../core/errors.ts';
import { publicMediaUrl, TOKEN, type MediaContext } from './context.ts';

export interface MediaRow {
  id: number;
  org_id: number;
  filename: string;
  declared_type: string | null;
  content_type: string | null;
  status: 'pending' | 'ready';
  token: string;
  storage_key: string | null;
  size: number | null;
  created_at: Date;
  expires_at: Date;
}

export const MEDIA_COLUMNS = 'id, org_id, filename, declared_type, content_type, status, token, storage_key, size, created_at, expires_at';

export interface MediaJson {
  id: number;
  /** Null until confirmed: nothing is served before. */
  url: string | null;
  filename: string;
  content_type: string | null;
  size: number | null;
  status: 'pending' | 'ready';
  created_at: string;
  /** Pending: end of the upload window. Ready: when retention deletes it. */
  expires_at: string;
}

export function mediaJson(publicBaseUrl: string, row: MediaRow): MediaJson {
  const ready = row.status === 'ready';
  return {
    id: row.id,
    url: ready ? publicMediaUrl(publicBaseUrl, row.token, row.filename) : null,
    filename: row.filename,
    content_type: row.content_type ?? row.declared_type,
    size: row.size,
    status: row.status,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  };
}

export async function getMedia(ctx: MediaContext, orgId: number, id: number): Promise<MediaJson> {
  const { rows } = await ctx.db.query<MediaRow>(`SELECT ${MEDIA_COLUMNS} FROM media WHERE id = $1 AND org_id = $2`, [id, orgId]);
  if (!rows[0]) throw notFound();
  return mediaJson(ctx.publicBaseUrl, rows[0]);
}

export async function listMedia(ctx: MediaContext, orgId: number, page: { limit: number; offset: number }) {
  const { rows } = await ctx.db.query<MediaRow & { total: number }>(
    `SELECT ${MEDIA_COLUMNS}, count(*) OVER ()::int AS total FROM media
      WHERE org_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [orgId, page.limit, page.offset],
  );
  // Past the last page the window count is absent; count again so `count` stays the true total.
  const total = rows[0]?.total ?? (page.offset > 0 ? await countMedia(ctx, orgId) : 0);
  return { data: rows.map((row) => mediaJson(ctx.publicBaseUrl, row)), count: total, limit: page.limit, offset: page.offset };
}

async function countMedia(ctx: MediaContext, orgId: number): Promise<number> {
  const { rows } = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM media WHERE org_id = $1', [orgId]);
  return rows[0]!.n;
}

/** Deletes the media, the renditions made from it, and their files. */
export async function deleteMedia(ctx: MediaContext, orgId: number, id: number): Promise<void> {
  const keys = await withTransaction(ctx.db, async (tx) => {
    const renditions = await tx.query<{ storage_key: string }>('DELETE FROM renditions WHERE media_id = $1 AND org_id = $2 RETURNING storage_key', [id, orgId]);
    const media = await tx.query<{ storage_key: string | null }>('DELETE FROM media WHERE id = $1 AND org_id = $2 RETURNING storage_key', [id, orgId]);
    if (!media.rows[0]) throw notFound();
    return [...media.rows, ...renditions.rows].map((r) => r.storage_key);
  });
  await removeFiles(ctx, keys);
}

/** Rows are deleted first (they are the truth); a file left behind by a crash here is only disk. */
export async function removeFiles(ctx: Pick<MediaContext, 'storage'>, keys: (string | null)[]): Promise<void> {
  for (const key of keys) if (key) await ctx.storage.delete(key);
}

const notFound = () => new RequestError(404, 'Media not found', { code: 'not_found' });

/** A file served at a public URL: confirmed media or a rendition. */
export interface ServedFile {
  filename: string;
  contentType: string;
  size: number;
  sha256: Buffer;
  storageKey: string;
  modifiedAt: Date;
}

export async function findServedFile(ctx: MediaContext, token: string, filename: string): Promise<ServedFile | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const { rows } = await ctx.db.query<{ filename: string; content_type: string; size: number; sha256: Buffer; storage_key: string; modified_at: Date }>(
    `SELECT filename, content_type, size, sha256, storage_key, confirmed_at AS modified_at FROM media
      WHERE token = $1 AND status = 'ready' AND expires_at > now()
     UNION ALL
     SELECT filename, 'video/mp4', size, sha256, storage_key, created_at FROM renditions
      WHERE token = $1 AND expires_at > now()`,
    [token],
  );
  const row = rows[0];
  if (!row || row.filename !== filename) return undefined;
  return { filename: row.filename, contentType: row.content_type, size: row.size, sha256: row.sha256, storageKey: row.storage_key, modifiedAt: row.modified_at };
}
