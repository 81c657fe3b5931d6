// POST /v1/posts in one transaction: validate, resolve accounts, and insert the post with its
// containers, media and targets in one statement. The targets are the publishing queue: they are
// written due (at scheduledAt, or now), so a stored post is always queued — there is no separate job
// that could fail to be queued after the post was stored. Drafts are written with nothing due.
import { prepared, type Tx } from '../db/pool.ts';
import { RequestError, validationError } from '../errors.ts';
import type { FieldIssue, NetworkId } from '../networks/types.ts';
import type { FetchPolicy } from '../validation/fetched-url.ts';
import { resolveAccounts, type ResolvedAccount } from './accounts.ts';
import { toPostJson, type PostJson } from './serialize.ts';
import { checkPlatformRules, parseCreateBody, type CreateRequest } from './validate.ts';

export interface CreatePostResult {
  status: 200;
  body: { success: true; warnings?: string[]; post: PostJson };
  /** When the targets are due (null: now); undefined for a draft. Wake the workers once committed. */
  dueAt: Date | null | undefined;
}

export async function createPost(tx: Tx, orgId: number, body: unknown, fetch: FetchPolicy, now = new Date()): Promise<CreatePostResult> {
  const parsed = parseCreateBody(body, now, fetch);
  if (!parsed.ok) throw validationError(parsed.details);
  const request = parsed.request;

  const accounts = await resolveAccounts(tx, orgId, request.accounts);
  if (accounts.length === 0) {
    throw new RequestError(400, 'No account in "accounts" matches a connected social account', {
      code: 'no_account_resolved',
      details: [{ field: 'accounts', message: 'no entry matches an account id or exact username of this organization' }],
    });
  }
  const issues: FieldIssue[] = checkPlatformRules(request, new Set(accounts.map((a) => a.network as NetworkId)));
  if (issues.length) throw validationError(issues);

  const queued = !request.isDraft;
  const stored = await insertPost(tx, orgId, request, accounts, queued);

  const post = toPostJson({
    id: stored.postId,
    org_id: orgId,
    published_at: null,
    scheduled_at: request.scheduledAt,
    is_draft: request.isDraft,
    created_at: stored.createdAt,
    network_options: Object.keys(request.blocks).length ? request.blocks : null,
    process_media: request.processMedia,
    queued,
    accounts: accounts.map((a) => ({ ...a })),
    containers: stored.containers,
  });
  const responseBody: CreatePostResult['body'] = { success: true, post };
  if (request.warnings.length) responseBody.warnings = request.warnings;
  const dueAt = !queued ? undefined : request.scheduledAt && request.scheduledAt > now ? request.scheduledAt : null;
  return { status: 200, body: responseBody, dueAt };
}

interface StoredPost {
  postId: number;
  createdAt: Date;
  containers: { id: number; content: string; media: { id: number; url: string; filename: string; altText: string | null }[] }[];
}

/**
 * One statement writes the post, its containers, media and targets: one round trip. A queued post's
 * targets are due at scheduledAt, or now (a past scheduledAt publishes now).
 */
async function insertPost(tx: Tx, orgId: number, request: CreateRequest, accounts: ResolvedAccount[], queued: boolean): Promise<StoredPost> {
  const containers = request.containers.map((c, position) => ({ position, content: c.content }));
  const media = request.containers.flatMap((c, containerPosition) =>
    c.media.map((m, position) => ({ container: containerPosition, position, url: m.url, filename: m.filename, alt: m.altText ?? null })),
  );
  const networkOptions = Object.keys(request.blocks).length ? JSON.stringify(request.blocks) : null;
  const { rows } = await tx.query<{ id: number; created_at: Date; containers: StoredPost['containers'] }>({
    ...prepared(`WITH p AS (
       INSERT INTO posts (org_id, is_draft, scheduled_at, network_options, process_media, queued)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, created_at
     ), c AS (
       INSERT INTO containers (org_id, post_id, position, content)
       SELECT $1, p.id, x.position, x.content FROM p, jsonb_to_recordset($7::jsonb) AS x(position int, content text)
       RETURNING id, position, content
     ), m AS (
       INSERT INTO container_media (org_id, container_id, position, url, filename, alt_text)
       SELECT $1, c.id, x.position, x.url, x.filename, x.alt
         FROM jsonb_to_recordset($8::jsonb) AS x(container int, position int, url text, filename text, alt text)
         JOIN c ON c.position = x.container
       RETURNING id, container_id, position, url, filename, alt_text
     ), t AS (
       INSERT INTO targets (org_id, post_id, account_id, due_at)
       SELECT $1, p.id, a.account_id, CASE WHEN $6 THEN coalesce($3, now()) END
         FROM p, unnest($9::bigint[]) WITH ORDINALITY AS a(account_id, ord) ORDER BY a.ord
     )
     SELECT p.id, p.created_at,
       (SELECT json_agg(json_build_object(
           'id', c.id, 'content', c.content,
           'media', (SELECT coalesce(json_agg(json_build_object('id', m.id, 'url', m.url, 'filename', m.filename, 'altText', m.alt_text) ORDER BY m.position), '[]')
                       FROM m WHERE m.container_id = c.id)) ORDER BY c.position) FROM c) AS containers
     FROM p`),
    values: [orgId, request.isDraft, request.scheduledAt, networkOptions, request.processMedia, queued, JSON.stringify(containers), JSON.stringify(media), accounts.map((a) => a.id)],
  });
  const row = rows[0]!;
  return { postId: row.id, createdAt: row.created_at, containers: row.containers };
}
