// A post's destinations as the engagement routes address them: which account received it, on which
// network, and the containers as the network knows them (target_parts), so a capability can read
// comments under, count or delete exactly what Crier published.
import type { Queryable } from '../db/pool.ts';
import { RequestError } from '../core/errors.ts';
import { decodeId } from '../core/ids.ts';
import type { PublishedPost } from '../core/post.ts';
import type { NetworkId } from '../core/network-id.ts';

export interface Destination {
  targetId: number;
  accountId: number;
  network: NetworkId;
  username: string;
  nickname: string | null;
  status: string;
  publishedAt: string | null;
  post: PublishedPost;
}

export interface PostDestinations {
  postId: number;
  createdAt: string;
  publishedAt: string | null;
  destinations: Destination[];
}

interface Row {
  post_id: number;
  post_created_at: Date;
  post_published_at: Date | null;
  network_options: Record<string, Record<string, unknown>> | null;
  target_id: number | null;
  account_id: number;
  network: NetworkId;
  username: string;
  nickname: string | null;
  status: string;
  published_at: Date | null;
  platform_post_id: string | null;
  platform_post_url: string | null;
  parts: { platformId: string; url: string | null; ref: Record<string, unknown> | null }[] | null;
}

/** The org's post and each destination with its published containers; 404 when the post is not the org's. */
export async function loadDestinations(db: Queryable, orgId: number, encodedPostId: string): Promise<PostDestinations> {
  const postId = decodeId(encodedPostId);
  if (postId === undefined) throw new RequestError(404, 'Post not found', { code: 'not_found' });
  const { rows } = await db.query<Row>(
    `SELECT p.id AS post_id, p.created_at AS post_created_at, p.published_at AS post_published_at, p.network_options,
            t.id AS target_id, t.account_id, a.network, a.username, a.nickname, t.status, t.published_at,
            t.platform_post_id, t.platform_post_url,
            (SELECT json_agg(json_build_object('platformId', tp.platform_id, 'url', tp.platform_url, 'ref', tp.ref) ORDER BY tp.position)
               FROM target_parts tp WHERE tp.target_id = t.id AND tp.status = 'published') AS parts
       FROM posts p
       LEFT JOIN targets t ON t.post_id = p.id
       LEFT JOIN social_accounts a ON a.id = t.account_id
      WHERE p.id = $1 AND p.org_id = $2
      ORDER BY t.id`,
    [postId, orgId],
  );
  if (!rows[0]) throw new RequestError(404, 'Post not found', { code: 'not_found' });
  const first = rows[0];
  return {
    postId,
    createdAt: first.post_created_at.toISOString(),
    publishedAt: first.post_published_at?.toISOString() ?? null,
    destinations: rows.filter((r) => r.target_id !== null).map((r) => destinationOf(r)),
  };
}

function destinationOf(row: Row): Destination {
  const parts = (row.parts ?? []).map((p) => ({ platformId: p.platformId, url: p.url ?? '', ...(p.ref ? { ref: p.ref } : {}) }));
  // A destination published before parts were recorded (or imported) is known by its post id alone.
  if (!parts.length && row.platform_post_id) parts.push({ platformId: row.platform_post_id, url: row.platform_post_url ?? '' });
  return {
    targetId: row.target_id!,
    accountId: row.account_id,
    network: row.network,
    username: row.username,
    nickname: row.nickname,
    status: row.status,
    publishedAt: row.published_at?.toISOString() ?? null,
    post: { root: parts[0]!, parts, block: row.network_options?.[row.network] ?? {} },
  };
}

/** Destinations that exist on their network: published (a deleted one is gone). */
export function onNetwork(destinations: Destination[]): Destination[] {
  return destinations.filter((d) => d.status === 'published' && d.post.parts.length > 0);
}

/**
 * The one destination a request means: on `network` (when given) and of account `username` (when
 * given). None: 404; several: 400 naming the choices, so the client can say which.
 */
export function chooseDestination(destinations: Destination[], wanted: { network?: string; username?: string }, what: string): Destination {
  const username = wanted.username?.replace(/^@/, '').toLowerCase();
  const matching = destinations.filter((d) => (!wanted.network || d.network === wanted.network) && (!username || d.username.toLowerCase() === username));
  if (matching.length === 1) return matching[0]!;
  const choices = matching.map((d) => `${d.network}:@${d.username}`);
  if (!matching.length) {
    const published = destinations.map((d) => `${d.network}:@${d.username}`);
    throw new RequestError(404, `The post is not published on ${describe(wanted)}${published.length ? ` (published on ${published.join(', ')})` : ' (it is published nowhere)'}`, { code: 'destination_not_found' });
  }
  throw new RequestError(400, `The post is published on several accounts: say which with ${wanted.network ? 'username' : 'network and username'} (${choices.join(', ')}) to ${what}`, {
    code: 'destination_ambiguous',
    details: [{ field: wanted.network ? 'username' : 'network', message: `one of ${choices.join(', ')}` }],
  });
}

function describe(wanted: { network?: string; username?: string }): string {
  if (wanted.network && wanted.username) return `${wanted.network} as @${wanted.username.replace(/^@/, '')}`;
  if (wanted.network) return wanted.network;
  if (wanted.username) return `an account @${wanted.username.replace(/^@/, '')}`;
  return 'any account';
}
