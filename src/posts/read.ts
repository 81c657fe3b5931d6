// Reading posts back: one query builds each post with its accounts, containers and media.
import { prepared, type Queryable } from '../db/pool.ts';
import { decodeId } from '../core/ids.ts';
import { toPostJson, type PostJson, type PostRow } from './serialize.ts';

/** SELECT list producing a PostRow for `p` (a posts row alias). */
export const POST_ROW_SQL = `
  p.id, p.org_id, p.published_at, p.scheduled_at, p.is_draft, p.created_at, p.network_options, p.process_media, p.queued,
  p.approval, p.approval_decided_at, p.approval_decided_by, p.approval_reason,
  (SELECT o.recurrence_id FROM recurrence_occurrences o WHERE o.post_id = p.id) AS recurrence_id,
  (SELECT e.collection_id FROM evergreen_posts e WHERE e.post_id = p.id) AS evergreen_collection_id,
  (SELECT coalesce(json_agg(json_build_object(
      'id', a.id, 'network', a.network, 'username', a.username, 'nickname', a.nickname,
      'status', t.status, 'error', t.error, 'platform_post_id', t.platform_post_id,
      'platform_post_url', t.platform_post_url, 'published_at', t.published_at, 'edited_at', t.edited_at,
      'edited_parts', CASE WHEN t.edited_at IS NULL THEN NULL ELSE
         (SELECT json_agg(json_build_object('position', tp.position, 'content', tp.edited_text) ORDER BY tp.position)
            FROM target_parts tp WHERE tp.target_id = t.id AND tp.edited_at IS NOT NULL) END) ORDER BY t.id), '[]')
     FROM targets t JOIN social_accounts a ON a.id = t.account_id WHERE t.post_id = p.id) AS accounts,
  (SELECT coalesce(json_agg(json_build_object('id', c.id, 'content', c.content, 'media',
      (SELECT coalesce(json_agg(json_build_object('id', m.id, 'url', m.url, 'filename', m.filename, 'altText', m.alt_text)
                                ORDER BY m.position), '[]')
         FROM container_media m WHERE m.container_id = c.id)) ORDER BY c.position), '[]')
     FROM containers c WHERE c.post_id = p.id) AS containers`;

/** The post with per-account publishing state, or undefined when it is not this org's. */
export async function getPost(db: Queryable, orgId: number, encodedId: string): Promise<PostJson | undefined> {
  const id = decodeId(encodedId);
  if (id === undefined) return undefined;
  const { rows } = await db.query<PostRow>({ ...prepared(`SELECT ${POST_ROW_SQL} FROM posts p WHERE p.id = $1 AND p.org_id = $2`), values: [id, orgId] });
  return rows[0] && toPostJson(rows[0], true);
}
