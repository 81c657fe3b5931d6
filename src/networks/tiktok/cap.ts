// TikTok's cap on distinct creators who direct-post through one app in any 24 hours (5 for an
// unaudited app: content-sharing guidelines, "User cap"; audited apps get a figure of their own, set
// with CRIER_TIKTOK_CREATOR_CAP). Crier counts them in the network ledger's pool
// `direct_post_creators`, shared by every worker of every process, one entry per admitted direct post
// (subject: the creator's open_id). A creator already inside the window always posts; a new one beyond
// the cap is refused, saying when the oldest creator leaves the window and a slot frees up.
import { PublishError } from '../errors.ts';
import type { NetworkLedger } from '../types.ts';

export const DIRECT_POST_POOL = 'direct_post_creators';
export const CREATOR_WINDOW_MS = 24 * 3600_000;
/** TikTok's figure for unaudited apps. */
export const DEFAULT_CREATOR_CAP = 5;

/**
 * Admits `openId` to direct-post now, recording it before TikTok is called; throws the refusal
 * (permanent, reached_active_user_cap) when `cap` other creators posted in the last 24 hours.
 */
export async function admitCreator(ledger: NetworkLedger, creator: { openId: string; orgId: number }, cap: number): Promise<void> {
  await ledger.withPool(DIRECT_POST_POOL, async (pool) => {
    const since = new Date(pool.now.getTime() - CREATOR_WINDOW_MS);
    const spent = await pool.spent(since);
    // A creator's latest entry, whatever the organization that recorded it.
    const latest = new Map<string, number>();
    for (const s of spent) latest.set(s.subject, Math.max(latest.get(s.subject) ?? 0, s.last.getTime()));
    if (!latest.has(creator.openId) && latest.size >= cap) throw refusal([...latest.values()], cap);
    await pool.record({ subject: creator.openId, orgId: creator.orgId, units: 1 });
  });
}

/** A slot frees when the creator whose latest direct post is oldest leaves the window. */
function refusal(lastPosts: number[], cap: number): PublishError {
  const oldest = Math.min(...lastPosts);
  const freesAt = new Date(oldest + CREATOR_WINDOW_MS).toISOString();
  return new PublishError('permanent', `tiktok: reached_active_user_cap: ${cap} creators already direct-posted through this app in the last 24 hours, `
    + `TikTok's cap for it; a slot frees up at ${freesAt} (or use postMode MEDIA_UPLOAD, which the cap does not count)`, undefined, 'quota');
}
