// Everything the reddit emulator remembers beyond the shared OAuthServer's apps and tokens: users,
// every request and posting form received, the rate-limit windows, subreddits, submissions (self and
// link), comments, and who is throttled. What a form must hold to be accepted is validate.ts's.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';

export interface Subreddit {
  name: string;
  /** SUBMIT_VALIDATION_FLAIR_REQUIRED without a flair_id. */
  flairRequired: boolean;
  /** link_type "self": NO_LINKS for link posts. */
  linksAllowed: boolean;
  /** link_type "link": NO_SELFS for text posts. */
  selfsAllowed: boolean;
  /** Link flair templates; none: the subreddit has no link flair. */
  flairs: LinkFlair[];
  /** Whether users may pick a link flair ("Allow users to assign their own"): GET link_flair_v2 is 403 otherwise. */
  flairSelectable: boolean;
}

/** A link flair template as GET /r/{sr}/api/link_flair_v2 lists it. */
export interface LinkFlair {
  id: string;
  text: string;
  text_editable: boolean;
  type: 'text' | 'richtext';
  background_color: string;
  text_color: 'dark' | 'light';
  mod_only: boolean;
  css_class: string;
  allowable_content: 'all' | 'text' | 'emoji';
  max_emojis: number;
  richtext: unknown[];
}

export interface Submission {
  id: string;
  name: string;
  subreddit: string;
  author: string;
  /** The author's fullname (t2_…). */
  authorFullname: string;
  kind: 'self' | 'link';
  title: string;
  selftext: string;
  url: string;
  permalink: string;
  flairId: string | undefined;
  flairText: string | undefined;
  nsfw: boolean;
  spoiler: boolean;
  sendReplies: boolean;
  createdUtc: number;
  /** Deleted by its author (/api/del): shown with author and selftext "[deleted]", gone from the author's listings. */
  deleted: boolean;
  /** Net votes (Reddit's `score`, fuzzed there), `upvote_ratio`, and `view_count` (null for API clients). */
  score: number;
  upvoteRatio: number;
  viewCount: number | null;
  numCrossposts: number;
}

export interface Comment {
  id: string;
  name: string;
  author: string;
  /** The author's fullname (t2_…). */
  authorFullname: string;
  body: string;
  parentId: string;
  linkId: string;
  permalink: string;
  createdUtc: number;
  score: number;
  deleted: boolean;
}

export type RedditError = [code: string, message: string, field: string];

export interface RedditUser {
  /** Base-36 account id; the fullname is "t2_" + id. */
  id: string;
  name: string;
  /** The profile's display name (subreddit.title); may be empty. */
  displayName: string;
  /** As Reddit stores it (unescaped); /api/v1/me HTML-escapes it unless raw_json=1. */
  iconImg: string;
  /** The avatar builder image, or "" when the user has none. */
  snoovatarImg: string;
  /** /api/v1/me's karma figures. */
  linkKarma: number;
  commentKarma: number;
  /** Followers: the subscribers of the user's profile subreddit (u_<name>). */
  subscribers: number;
}

export interface RedditRequestLog {
  method: string;
  path: string;
  /** The query string as sent (without "?"), "" when none. */
  query: string;
  userAgent: string;
  /** Scheme of the Authorization header. */
  auth: 'basic' | 'bearer' | 'none' | 'other';
  contentType: string | undefined;
}

/** A posting form as received (/api/submit, /api/comment, /api/del), refused ones too. */
export interface ReceivedForm {
  path: string;
  user: string;
  userAgent: string;
  form: Record<string, string>;
}

const id36 = () => randomBytes(5).readUIntBE(0, 5).toString(36).slice(0, 7);
const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 50) || 'post';

/** A submission's fields once validate.ts accepted its form. */
export interface NewSubmission {
  subreddit: Subreddit;
  author: string;
  kind: 'self' | 'link';
  title: string;
  text: string;
  url: string;
  flairId: string | undefined;
  flairText: string | undefined;
  nsfw: boolean;
  spoiler: boolean;
  sendReplies: boolean;
}

export class RedditState {
  readonly users = new Map<string, RedditUser>();
  /** Every request received (the authorize page included), oldest first. */
  readonly log: RedditRequestLog[] = [];
  /** Every posting form received, refused ones too. */
  readonly received: ReceivedForm[] = [];
  /** Answers held back after handling: the network did it, the answer is late (a crash test kills the caller meanwhile). */
  readonly delays: { method: string; path: string; ms: number }[] = [];
  /** Each OAuth client's rate-limit window on oauth.reddit.com. */
  readonly windows = new Map<string, { startSecs: number; used: number }>();
  readonly subreddits = new Map<string, Subreddit>();
  readonly submissions: Submission[] = [];
  readonly comments: Comment[] = [];
  /** Accounts by lower-case name → fullname (t2_…); authors the emulator does not know get one on first sight. */
  readonly accounts = new Map<string, string>();
  /** Per author: posting refused with RATELIMIT until this time (ms, emulator clock). */
  readonly #throttledUntil = new Map<string, number>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  userNamed(name: string): RedditUser | undefined {
    return [...this.users.values()].find((u) => u.name.toLowerCase() === name.toLowerCase());
  }

  addSubreddit(input: Partial<Subreddit> & { name: string }): Subreddit {
    const sr: Subreddit = { flairRequired: false, linksAllowed: true, selfsAllowed: true, flairs: [], flairSelectable: true, ...input };
    this.subreddits.set(sr.name.toLowerCase(), sr);
    return sr;
  }

  throttle(author: string, ms: number): void {
    this.#throttledUntil.set(author.toLowerCase(), this.#clock.now() + ms);
  }

  /** How long `author` must still wait before posting, in ms (0: not throttled). */
  throttledFor(author: string): number {
    return Math.max(0, (this.#throttledUntil.get(author.toLowerCase()) ?? 0) - this.#clock.now());
  }

  /** A submission validate.ts accepted. */
  addSubmission(input: NewSubmission): Submission {
    const id = id36();
    const sr = input.subreddit;
    const permalink = `/r/${sr.name}/comments/${id}/${slug(input.title)}/`;
    const submission: Submission = {
      id, name: `t3_${id}`, subreddit: sr.name, author: input.author, authorFullname: this.fullnameOf(input.author), kind: input.kind, title: input.title,
      selftext: input.kind === 'self' ? input.text : '',
      url: input.kind === 'self' ? `https://www.reddit.com${permalink}` : input.url,
      permalink, flairId: input.flairId, flairText: input.flairText,
      nsfw: input.nsfw, spoiler: input.spoiler, sendReplies: input.sendReplies,
      createdUtc: this.#clock.now() / 1000,
      deleted: false, score: 1, upvoteRatio: 1, viewCount: null, numCrossposts: 0,
    };
    this.submissions.push(submission);
    return submission;
  }

  /** A comment as stored, by anyone (POST /api/comment, or a test's other redditor). */
  addComment(input: { author: string; body: string; parentId: string; submission: Submission; score?: number; createdUtc?: number }): Comment {
    const id = id36();
    const comment: Comment = {
      id, name: `t1_${id}`, author: input.author, authorFullname: this.fullnameOf(input.author), body: input.body,
      parentId: input.parentId, linkId: input.submission.name,
      permalink: `${input.submission.permalink}${id}/`,
      createdUtc: input.createdUtc ?? this.#clock.now() / 1000,
      score: input.score ?? 1,
      deleted: false,
    };
    this.comments.push(comment);
    return comment;
  }

  /** An account's fullname; an author never seen gets a new one. */
  fullnameOf(name: string): string {
    const key = name.toLowerCase();
    if (!this.accounts.has(key)) this.accounts.set(key, `t2_${id36()}`);
    return this.accounts.get(key)!;
  }

  /**
   * POST /api/del: the author's own link or comment is marked deleted; anyone else's, or an unknown
   * id, is left as is without an error (reddit's POST_del returns early).
   */
  del(author: string, fullname: string): void {
    const thing = fullname.startsWith('t3_') ? this.submission(fullname.slice(3)) : this.comment(fullname);
    if (thing && thing.author.toLowerCase() === author.toLowerCase()) thing.deleted = true;
  }

  submission(id: string): Submission | undefined {
    return this.submissions.find((s) => s.id === id);
  }

  /** A comment by its fullname (t1_…). */
  comment(fullname: string): Comment | undefined {
    return this.comments.find((c) => c.name === fullname);
  }

  /** A subreddit `author` may post to: one added, or their own profile (u_<name>), which exists for every user. */
  subredditFor(name: string, author: string): Subreddit | undefined {
    const known = this.subreddits.get(name.toLowerCase());
    if (known) return known;
    if (name.toLowerCase() === `u_${author.toLowerCase()}`) return this.addSubreddit({ name: `u_${author}` });
    return undefined;
  }
}
