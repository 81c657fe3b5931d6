// GET and POST /v1/posts/:id/replies: a published post's comments as the spec's Reply records, read
// from its network with the account's token, and answering the post or one of its comments.
//
// A list is read through the network's pages up to MAX_COMMENTS top-level comments (a client polling
// a post with more reads the newest the network gives first), and kept REPLIES_CACHE_MS: a client
// polling every few seconds costs the network one read per window, not one per poll. Answering
// through Crier forgets the cached list, so the answer shows up on the next read.
import { RequestError } from '../core/errors.ts';
import type { CommentListOptions, Reply } from '../networks/capabilities.ts';
import type { SandboxControls } from '../sandbox/contract.ts';
import { callAsAccount, orgAccount, requireActive, type AccountCallDeps } from '../accounts/session.ts';
import { chooseDestination, loadDestinations, onNetwork, type Destination } from './destinations.ts';

/** The most top-level comments a list gathers from the network's pages. */
export const MAX_COMMENTS = 500;
/** The most network pages one list reads. */
const MAX_PAGES = 20;
/** How long a read list is served again without asking the network. */
export const REPLIES_CACHE_MS = 30_000;

export interface ReplyListQuery {
  network?: string;
  username?: string;
  include_replies?: boolean;
  resolve_author_names?: boolean;
  /** The deprecated network-specific shape (spec: Reply › deprecated shapes). */
  legacy?: boolean;
}

interface CacheEntry { at: number; data: unknown[] }

/** The lists read recently, by destination and what was asked; bounded. */
export class ReplyCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(ttlMs = REPLIES_CACHE_MS, maxEntries = 5_000) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  get(key: string): unknown[] | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() - entry.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.data;
  }

  set(key: string, data: unknown[]): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { at: Date.now(), data });
  }

  /** Forgets every list of a destination (after an answer was posted through Crier). */
  forget(targetId: number): void {
    for (const key of this.entries.keys()) if (key.startsWith(`${targetId}:`)) this.entries.delete(key);
  }
}

export interface RepliesDeps extends AccountCallDeps {
  cache: ReplyCache;
}

/** The comments of the post's destination the query names, as Reply records (or the legacy shape). */
export async function listReplies(deps: RepliesDeps, orgId: number, postId: string, query: ReplyListQuery): Promise<unknown[]> {
  const destination = await destinationFor(deps, orgId, postId, { network: query.network, username: query.username }, 'read its replies');
  const comments = commentsOf(deps, destination);
  if (query.legacy && !comments.legacy) {
    throw new RequestError(400, `${deps.networks.get(destination.network).label} has no deprecated reply shape: read the normalized one without legacy`, { code: 'legacy_not_available' });
  }
  const options: CommentListOptions = { includeReplies: query.include_replies === true, resolveAuthorNames: query.resolve_author_names === true };
  const key = `${destination.targetId}:${options.includeReplies}:${options.resolveAuthorNames}:${query.legacy === true}`;
  const cached = deps.cache.get(key);
  if (cached) return cached;
  const account = requireActive(deps.networks.get(destination.network).label, await orgAccount(deps, orgId, destination.accountId));
  const data = await callAsAccount(deps, account, async (session) => {
    const read = query.legacy
      ? (cursor?: string) => comments.legacy!(session, destination.post, { cursor })
      : (cursor?: string) => comments.list(session, destination.post, { ...options, cursor });
    return gatherPages(read);
  });
  const shaped = query.legacy ? data : (data as Reply[]).map((reply) => withoutNested(reply, options.includeReplies));
  deps.cache.set(key, shaped);
  return shaped;
}

/** Posts a comment on the destination (or an answer to `parentCommentId`); the network's id of it. */
export async function postReply(
  deps: RepliesDeps, orgId: number, postId: string,
  body: { content: string; account_username?: string; parent_comment_id?: string; network?: string },
): Promise<string> {
  const destination = await destinationFor(deps, orgId, postId, { network: body.network, username: body.account_username }, 'answer on');
  const comments = commentsOf(deps, destination);
  const account = requireActive(deps.networks.get(destination.network).label, await orgAccount(deps, orgId, destination.accountId));
  const { replyId } = await callAsAccount(deps, account, (session) => comments.reply(session, destination.post, body.content, body.parent_comment_id));
  deps.cache.forget(destination.targetId);
  return replyId;
}

/**
 * The sandbox only: someone else comments on the destination (or answers `parentCommentId`) on its
 * emulator, so that the replies routes, comment.received and the dashboard can be tried. The cached
 * list of the destination is forgotten, as after an answer through Crier.
 */
export async function addSandboxComment(
  deps: RepliesDeps, sandbox: SandboxControls, orgId: number, postId: string,
  body: { text: string; network?: string; username?: string; parent_comment_id?: string; author: string },
): Promise<{ destination: Destination; commentId: string }> {
  const destination = await destinationFor(deps, orgId, postId, { network: body.network, username: body.username }, 'comment on');
  commentsOf(deps, destination); // a network without comments is refused, as the replies routes refuse it
  const { credentials } = await orgAccount(deps, orgId, destination.accountId);
  const added = sandbox.addComment({
    network: destination.network, networkUniqueId: credentials.networkUniqueId, username: credentials.username,
    post: destination.post, text: body.text, author: body.author, ...(body.parent_comment_id ? { parentCommentId: body.parent_comment_id } : {}),
  });
  if (!added) {
    throw new RequestError(400, `The sandbox's ${deps.networks.get(destination.network).label} emulator cannot add comments`, { code: 'replies_not_supported' });
  }
  const { commentId } = await added.catch((error: unknown) => {
    throw new RequestError(400, `The sandbox's ${deps.networks.get(destination.network).label} emulator refused the comment: ${(error as Error).message}`, { code: 'comment_refused' });
  });
  deps.cache.forget(destination.targetId);
  return { destination, commentId };
}

async function destinationFor(deps: RepliesDeps, orgId: number, postId: string, wanted: { network?: string; username?: string }, what: string): Promise<Destination> {
  const { destinations } = await loadDestinations(deps.db, orgId, postId);
  const published = onNetwork(destinations);
  // Asked for no destination in particular: one without comments is never what is meant, so a post
  // on X and Google Business answers X's replies rather than asking to choose between the two.
  const withComments = published.filter((d) => deps.networks.capabilities(d.network).comments);
  const among = !wanted.network && !wanted.username && withComments.length ? withComments : published;
  return chooseDestination(among, wanted, what);
}

function commentsOf(deps: RepliesDeps, destination: Destination) {
  const comments = deps.networks.capabilities(destination.network).comments;
  if (!comments) {
    const label = deps.networks.get(destination.network).label;
    throw new RequestError(400, `${label} posts have no comments an app can read or write through ${label}'s API`, { code: 'replies_not_supported' });
  }
  return comments;
}

async function gatherPages<T>(read: (cursor?: string) => Promise<{ items: T[]; next?: string }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await read(cursor);
    items.push(...result.items);
    if (!result.next || items.length >= MAX_COMMENTS || result.next === cursor) break;
    cursor = result.next;
  }
  return items.slice(0, MAX_COMMENTS);
}

/** `replies` only when asked (spec: present only with include_replies=true), at every level. */
function withoutNested(reply: Reply, includeReplies: boolean): Reply {
  if (!includeReplies) {
    const { replies: _dropped, ...rest } = reply;
    return rest;
  }
  return { ...reply, replies: (reply.replies ?? []).map((r) => withoutNested(r, true)) };
}
