// A Reddit comment tree as the spec's Reply records (engagement.md §1.1): id = the comment's base-36
// id (the fullname t1_… in platform_specific), author = author_fullname (t2_…), author_name and
// author_username = the username, like_count = score (net votes, fuzzed), any depth under `replies`.
// `more` stubs are collected for the caller to expand (comments.ts); the avatar needs one
// /user/{name}/about per author and is left out.
import type { Reply } from '../capabilities.ts';
import type { RawThing } from './client.ts';

/** A `more` stub: the comments Reddit left out under `parent` (none listed: "continue this thread"). */
export interface MoreStub {
  parent: string;
  ids: string[];
  count: number;
}

export class ReplyTree {
  /** Top-level comments, in Reddit's order. */
  readonly top: Reply[] = [];
  /** Stubs under comments (to expand) and at the top (the next page). */
  readonly nested: MoreStub[] = [];
  readonly topStubs: MoreStub[] = [];
  readonly #byName = new Map<string, Reply>();
  readonly #withReplies: boolean;
  readonly #root: string;

  constructor(root: string, withReplies: boolean) {
    this.#root = root;
    this.#withReplies = withReplies;
  }

  /** Adds things of a nested listing (GET /comments) or a flat one (morechildren), each under its parent_id. */
  add(things: RawThing[]): void {
    for (const thing of things) {
      const parent = String(thing.data.parent_id ?? this.#root);
      if (thing.kind === 'more') this.#stub(parent, thing.data);
      if (thing.kind !== 't1') continue;
      if (parent !== this.#root && !this.#withReplies) continue;
      const reply = replyOf(thing.data, this.#withReplies);
      this.#byName.set(String(thing.data.name), reply);
      if (parent === this.#root) this.top.push(reply);
      else this.#byName.get(parent)?.replies?.push(reply);
      const nested = thing.data.replies as { data?: { children?: RawThing[] } } | '' | undefined;
      if (this.#withReplies && nested && typeof nested === 'object') this.add(nested.data?.children ?? []);
    }
  }

  /** Says on a comment that Reddit holds more answers under it than shown (stubs not expanded). */
  markUnexpanded(stub: MoreStub): void {
    const parent = this.#byName.get(stub.parent);
    if (!parent) return;
    const ps = (parent.platform_specific ??= {});
    ps.more_replies = Number(ps.more_replies ?? 0) + Math.max(stub.count, stub.ids.length, 1);
  }

  #stub(parent: string, data: Record<string, unknown>): void {
    const ids = Array.isArray(data.children) ? data.children.map(String) : [];
    const stub = { parent, ids, count: Number(data.count ?? 0) };
    if (parent === this.#root) this.topStubs.push(stub);
    else if (this.#withReplies) this.nested.push(stub);
  }
}

function replyOf(d: Record<string, unknown>, withReplies: boolean): Reply {
  const username = typeof d.author === 'string' && d.author !== '[deleted]' ? d.author : undefined;
  const created = Number(d.created_utc);
  return {
    id: String(d.id),
    author: String(d.author_fullname ?? d.author ?? '[deleted]'),
    author_name: username ?? null,
    ...(username ? { author_username: username, author_profile_url: `https://www.reddit.com/user/${username}` } : {}),
    text: String(d.body ?? ''),
    created_at: Number.isFinite(created) && created > 0 ? new Date(created * 1000).toISOString() : null,
    ...(typeof d.score === 'number' ? { like_count: d.score } : {}),
    platform_specific: {
      name: d.name,
      parent_id: d.parent_id,
      ...(typeof d.permalink === 'string' ? { permalink: `https://www.reddit.com${d.permalink}` } : {}),
      ...(typeof d.depth === 'number' ? { depth: d.depth } : {}),
      ...(username ? {} : { deleted: true }),
    },
    ...(withReplies ? { replies: [] } : {}),
  };
}
