// The Reddit calls publishing makes on oauth.reddit.com, through the one network HTTP client
// (../http.ts): submit, comment, and the reads reconcile needs. Reddit refuses a submission or a
// comment with HTTP 200 and `json.errors` ([CODE, message, field] triples), so every posting answer
// is read for them; a 429 waits for X-Ratelimit-Reset (seconds), which http.ts reads; 401 is auth.
import { PublishError, type FailureCode } from '../../core/errors.ts';
import { NetworkHttp } from '../http.ts';

export interface RedditThing {
  /** The fullname: t3_… (a submission), t1_… (a comment). */
  name: string;
  permalink: string;
}

export interface ListedSubmission extends RedditThing {
  subreddit: string;
  title: string;
  author: string;
  createdUtc: number;
  /** Every field Reddit gave (selftext, is_self, url, gallery_data, preview…). */
  data: Record<string, unknown>;
}

/** A thing of a listing as Reddit sends it: kind t1 (comment), t3 (link), more (a stub). */
export interface RawThing {
  kind: string;
  data: Record<string, unknown>;
}

export interface ListedComment extends RedditThing {
  author: string;
  body: string;
  createdUtc: number;
}

type RedditErrorTriple = [string, string, string?];

/** A link flair as Crier lists it: `id` is the `flairId` of the reddit block; `textEditable` allows `flairText`. */
export interface LinkFlairChoice {
  id: string;
  text: string;
  textEditable: boolean;
  modOnly: boolean;
  backgroundColor: string | null;
  textColor: 'dark' | 'light';
}

/** RATELIMIT's wait when Reddit gives neither `ratelimit` nor a readable message. */
const DEFAULT_RATELIMIT_MS = 10 * 60_000;

/**
 * Reddit asks for `<platform>:<app ID>:<version> (by /u/<username>)` on every call and throttles
 * generic agents. The adapter does not know the OAuth app's id, so it names Crier and the account.
 */
export const userAgent = (username: string) => `server:crier:1.0 (by /u/${username})`;

export class RedditClient {
  readonly #http: NetworkHttp;

  constructor(apiUrl: string, accessToken: string, username: string) {
    this.#http = new NetworkHttp({
      network: 'reddit',
      baseUrl: apiUrl,
      headers: () => ({ authorization: `bearer ${accessToken}`, 'user-agent': userAgent(username) }),
      reasonOf,
    });
  }

  /** POST /api/submit: the new submission's fullname and URL. */
  async submit(form: Record<string, string>): Promise<{ name: string; url: string }> {
    const data = await this.#post('/api/submit', form) as { name?: string; id?: string; url?: string };
    const name = data.name ?? (data.id ? `t3_${data.id}` : undefined);
    if (!name) throw new PublishError('unknown', 'reddit: the submission was accepted without its id');
    return { name, url: postUrl(data.url, name) };
  }

  /** POST /api/comment on `parent` (a t3_ fullname): the new comment. */
  async comment(parent: string, text: string): Promise<RedditThing> {
    const data = await this.#post('/api/comment', { thing_id: parent, text }) as { things?: { data?: { name?: string; permalink?: string } }[] };
    const thing = data.things?.[0]?.data;
    if (!thing?.name) throw new PublishError('unknown', 'reddit: the comment was accepted without its id');
    return { name: thing.name, permalink: thing.permalink ?? '' };
  }

  /** The account's submissions, newest first, one page (`after`: the last fullname of the previous one). */
  async submitted(username: string, after: string | undefined, limit: number): Promise<{ items: ListedSubmission[]; after: string | undefined }> {
    const query = new URLSearchParams({ limit: String(limit), raw_json: '1', sort: 'new', ...(after ? { after } : {}) });
    const { body } = await this.#http.call({ url: `/user/${encodeURIComponent(username)}/submitted?${query}` });
    const data = (body as Listing).data;
    const items = (data?.children ?? []).filter((c) => c.kind === 't3').map(({ data: d }) => ({
      name: String(d.name), permalink: String(d.permalink ?? ''), subreddit: String(d.subreddit ?? ''),
      title: String(d.title ?? ''), author: String(d.author ?? ''), createdUtc: Number(d.created_utc ?? 0), data: d,
    }));
    return { items, after: data?.after ?? undefined };
  }

  /** The submission's top-level comments (up to 500, newest first), and whether Reddit left some out. */
  async comments(submissionId: string): Promise<{ items: ListedComment[]; truncated: boolean }> {
    const { body } = await this.#http.call({ url: `/comments/${encodeURIComponent(submissionId)}?sort=new&limit=500&depth=1&raw_json=1` });
    const children = (Array.isArray(body) ? (body[1] as Listing)?.data?.children : undefined) ?? [];
    const items = children.filter((c) => c.kind === 't1').map(({ data: d }) => ({
      name: String(d.name), permalink: String(d.permalink ?? ''), author: String(d.author ?? ''),
      body: String(d.body ?? ''), createdUtc: Number(d.created_utc ?? 0),
    }));
    return { items, truncated: children.some((c) => c.kind === 'more') };
  }

  /**
   * GET /comments/{article}: the comment tree's top-level things (answers nested in `replies`
   * listings, `more` stubs where Reddit left some out). 404 when the submission does not exist.
   */
  async commentTree(article: string, options: { sort: string; depth: number; limit: number }): Promise<RawThing[]> {
    const query = new URLSearchParams({ sort: options.sort, depth: String(options.depth), limit: String(options.limit), threaded: 'true', raw_json: '1' });
    const { body } = await this.#http.call({ url: `/comments/${encodeURIComponent(article)}?${query}` });
    return (Array.isArray(body) ? (body[1] as Listing)?.data?.children : undefined) ?? [];
  }

  /** GET /api/morechildren: the comments a `more` stub named (at most 100), flat, with their parent_id. */
  async moreChildren(linkId: string, ids: string[], sort: string): Promise<RawThing[]> {
    const query = new URLSearchParams({ api_type: 'json', link_id: linkId, children: ids.join(','), sort, limit_children: 'false', raw_json: '1' });
    const { body } = await this.#http.call({ url: `/api/morechildren?${query}` });
    const json = (body as { json?: { errors?: RedditErrorTriple[]; data?: { things?: RawThing[] } } } | undefined)?.json;
    if (json?.errors?.length) throw refusal(json.errors, undefined);
    return json?.data?.things ?? [];
  }

  /** GET /api/info: the things of these fullnames (at most 100) Reddit still knows, in its order. */
  async info(fullnames: string[]): Promise<RawThing[]> {
    const query = new URLSearchParams({ id: fullnames.join(','), raw_json: '1' });
    const { body } = await this.#http.call({ url: `/api/info?${query}` });
    return (body as Listing).data?.children ?? [];
  }

  /** POST /api/del: Reddit answers {} whether it deleted the thing or not (only the author can). */
  async del(fullname: string): Promise<void> {
    await this.#http.call({
      url: '/api/del',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id: fullname }).toString(),
    });
  }

  /** GET /api/v1/me: the account as Reddit shows it to itself (karma, its profile subreddit). */
  async me(): Promise<Record<string, unknown>> {
    const { body } = await this.#http.call({ url: '/api/v1/me?raw_json=1' });
    return body && typeof body === 'object' ? body as Record<string, unknown> : {};
  }

  /** GET /r/{sr}/api/link_flair_v2: the link flairs a user may pick there. */
  async linkFlairs(subreddit: string): Promise<LinkFlairChoice[]> {
    const { body } = await this.#http.call({ url: `/r/${encodeURIComponent(subreddit)}/api/link_flair_v2?raw_json=1` });
    return (Array.isArray(body) ? body as Record<string, unknown>[] : []).map((f) => ({
      id: String(f.id), text: String(f.text ?? ''), textEditable: Boolean(f.text_editable), modOnly: Boolean(f.mod_only),
      backgroundColor: typeof f.background_color === 'string' && f.background_color ? f.background_color : null,
      textColor: f.text_color === 'light' ? 'light' : 'dark',
    }));
  }

  async #post(path: string, form: Record<string, string>): Promise<unknown> {
    const answer = await this.#http.call({
      url: path,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ api_type: 'json', ...form }).toString(),
    });
    const json = (answer.body as { json?: { errors?: RedditErrorTriple[]; data?: unknown; ratelimit?: number } } | undefined)?.json;
    if (json?.errors?.length) throw refusal(json.errors, json.ratelimit);
    if (!json?.data) throw new PublishError('unknown', `reddit: ${path} answered ${answer.status} without data (${answer.text.slice(0, 200)})`);
    return json.data;
  }
}

interface Listing {
  data?: { after?: string | null; children?: RawThing[] };
}

/** `https://www.reddit.com` + the permalink; Reddit's short form when the answer has none. */
export function postUrl(url: string | undefined, name: string): string {
  if (url && /^https:\/\/(?:www\.)?reddit\.com\/.*\/comments\//.test(url)) return url.replace('//reddit.com', '//www.reddit.com');
  return `https://www.reddit.com/comments/${name.replace(/^t3_/, '')}/`;
}

/** What Reddit's json.errors mean: RATELIMIT waits for the time it says; the rest is refused for good. */
export function refusal(errors: RedditErrorTriple[], ratelimitSecs: number | undefined): PublishError {
  const words = errors.map(([code, message, field]) => `${message} (${code}${field ? `, ${field}` : ''})`).join('; ');
  const limited = errors.find(([code]) => code === 'RATELIMIT');
  if (limited) {
    const waitMs = ratelimitSecs !== undefined && Number.isFinite(ratelimitSecs) ? Math.ceil(ratelimitSecs * 1000) : waitInMessage(limited[1]);
    return new PublishError('retryable', `reddit: rate limited (${words})`, waitMs, 'rate_limited');
  }
  const code: FailureCode = errors.some(([c]) => c === 'SUBREDDIT_NOEXIST' || c === 'DELETED_COMMENT' || c === 'DELETED_LINK' || c === 'NO_THING_ID') ? 'not_found'
    : errors.some(([c]) => c === 'SUBREDDIT_NOTALLOWED' || c === 'SUBREDDIT_NOTALLOWED_BANNED') ? 'forbidden'
      : errors.some(([c]) => c === 'ALREADY_SUB') ? 'duplicate' : 'invalid';
  return new PublishError('permanent', `reddit: ${words}`, undefined, code);
}

/** "Take a break for 5 minutes before trying again." → 5 minutes. */
function waitInMessage(message: string): number {
  const match = /(\d+)\s*(second|minute|hour)/i.exec(message);
  if (!match) return DEFAULT_RATELIMIT_MS;
  const unit = { second: 1000, minute: 60_000, hour: 3_600_000 }[match[2]!.toLowerCase() as 'second' | 'minute' | 'hour'];
  return Number(match[1]) * unit;
}

/** Reddit's API errors are `{"message": "Unauthorized", "error": 401}`, sometimes with a `reason`. */
function reasonOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return typeof body === 'string' && body ? body.slice(0, 200) : undefined;
  const { message, reason } = body as { message?: string; reason?: string };
  if (message && reason) return `${message}: ${reason}`;
  return message ?? reason;
}
