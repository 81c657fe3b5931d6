// TikTok's cap on distinct creators who direct-post through one app in any 24 hours (5 for an
// unaudited app: content-sharing guidelines, "User cap"; audited apps get a figure of their own, set
// with CRIER_TIKTOK_CREATOR_CAP). Crier counts them in the network ledger's pool
// `direct_post_creators`, shared by every worker of every process, one entry per admitted direct post
// (subject: the creator's open_id). A creator already inside the window always posts; a new one beyond
// the cap is refused, saying when the oldest creator leaves the window and a slot frees up.
import { PublishError } from '../../core/errors.ts';
import type { LedgerSpend, NetworkLedger } from '../../core/ledger.ts';

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
    const latest = latestPosts(await pool.spent(since));
    if (!latest.has(creator.openId) && latest.size >= cap) throw refusal(freesAt(latest), cap);
    await pool.record({ subject: creator.openId, orgId: creator.orgId, units: 1 });
  });
}

/**
 * GET /v1/usage's `networks.tiktok`: the cap, the creators inside the window (app-wide: the cap is the
 * app's, and this organization's), and when a slot frees while the cap is reached.
 */
export async function creatorCapUsage(ledger: NetworkLedger, cap: number, orgId: number): Promise<Record<string, unknown>> {
  return ledger.read(DIRECT_POST_POOL, async (pool) => {
    const spent = await pool.spent(new Date(pool.now.getTime() - CREATOR_WINDOW_MS));
    const latest = latestPosts(spent);
    return {
      directPostCreators: {
        cap,
        windowHours: CREATOR_WINDOW_MS / 3600_000,
        active: latest.size,
        activeInOrganization: new Set(spent.filter((s) => s.orgId === orgId).map((s) => s.subject)).size,
        slotFreesAt: latest.size >= cap ? freesAt(latest) : null,
      },
    };
  });
}

/** Each creator's latest direct post (ms), whatever the organization that recorded it. */
function latestPosts(spent: LedgerSpend[]): Map<string, number> {
  const latest = new Map<string, number>();
  for (const s of spent) latest.set(s.subject, Math.max(latest.get(s.subject) ?? 0, s.last.getTime()));
  return latest;
}

/** A slot frees when the creator whose latest direct post is oldest leaves the window. */
function freesAt(latest: Map<string, number>): string {
  return new Date(Math.min(...latest.values()) + CREATOR_WINDOW_MS).toISOString();
}

function refusal(freesAt: string, cap: number): PublishError {
  return new PublishError('permanent', `tiktok: reached_active_user_cap: ${cap} creators already direct-posted through this app in the last 24 hours, `
    + `TikTok's cap for it; a slot frees up at ${freesAt} (or use postMode MEDIA_UPLOAD, which the cap does not count)`, undefined, 'quota');
}
