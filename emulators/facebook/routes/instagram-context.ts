// What the Instagram routes share (publishing, engagement): the usage headers every answer carries
// (X-App-Usage, X-Business-Use-Case-Usage, counted per account), and the token check: the token must
// reach the account's Page, and a write must carry the scope Meta asks for it.
import type { Reply } from '../../shared/http.ts';
import { graphError, unsupportedGet } from '../errors/graph.ts';
import type { IgAccount } from '../state/accounts.ts';
import { authenticate, isReply, type FbRequest, type FbWorld } from './context.ts';
import * as ig from '../errors/instagram.ts';

/** Calls per account per hour that make call_count 100% (Instagram's documented 200 calls/hour). */
const CALLS_PER_HOUR = 200;

export type InstagramContext = ReturnType<typeof createContext>;

const contexts = new WeakMap<FbWorld, InstagramContext>();

/** The one context of a world: every route module counts calls in the same place. */
export function instagramContext(world: FbWorld): InstagramContext {
  let ctx = contexts.get(world);
  if (!ctx) contexts.set(world, ctx = createContext(world));
  return ctx;
}

function createContext(world: FbWorld) {
  const store = world.instagram;
  const calls = new Map<string, number[]>();

  /** The usage headers, counting this call against the account. */
  const withUsage = (igUserId: string, reply: Reply): Reply => {
    const now = store.now();
    const recent = (calls.get(igUserId) ?? []).filter((t) => t > now - 3_600_000);
    recent.push(now);
    calls.set(igUserId, recent);
    const pct = Math.min(100, Math.round((100 * recent.length) / CALLS_PER_HOUR));
    const regain = Math.max(0, Math.ceil((store.throttledUntil - now) / 60_000));
    const usage = { type: 'instagram', call_count: regain ? 100 : pct, total_cputime: Math.min(100, Math.ceil(pct / 2)), total_time: Math.min(100, Math.ceil(pct / 2)), estimated_time_to_regain_access: regain };
    return {
      ...reply,
      headers: {
        ...reply.headers,
        'x-app-usage': JSON.stringify({ call_count: pct, total_cputime: usage.total_cputime, total_time: usage.total_time }),
        'x-business-use-case-usage': JSON.stringify({ [igUserId]: [usage] }),
      },
    };
  };

  /** The IG account the token may act on, or the error Graph gives; `scope` (a write: publishing's by default) must be granted. */
  const access = (req: FbRequest, igUserId: string, post: boolean, scope: string | undefined = post ? 'instagram_content_publish' : undefined): IgAccount | Reply => {
    const info = authenticate(world, req);
    if (isReply(info)) return info;
    const found = world.store.instagram(igUserId);
    const user = world.store.users.get(info.userId);
    const reachable = found && (info.kind === 'page' ? info.pageId === found.page.id : user?.pageIds.includes(found.page.id));
    if (!found || !reachable) return post ? ig.unsupportedPost(igUserId) : unsupportedGet(igUserId);
    const check = world.oauth.checkAccess(req.token!);
    if (scope && check.ok && !check.scopes.includes(scope)) {
      return graphError({ message: '(#10) Application does not have permission for this action', code: 10 });
    }
    return found.account;
  };

  return { withUsage, access };
}
