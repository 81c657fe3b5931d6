// The reddit emulator's posting side: subreddits, submissions (self and link), comments, and the
// reads that show them (/api/info, /comments/{id}, /user/{name}/submitted). Reddit answers a refused
// submission or comment with HTTP 200 and `json.errors` as [CODE, message, field] triples; the codes
// and messages below are those of reddit-archive/reddit r2/lib/errors.py as far as recorded.
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

const TITLE_MAX = 300;
const SELFTEXT_MAX = 40_000;
const FLAIR_TEXT_MAX = 64;
const COMMENT_MAX = 10_000;

const id36 = () => randomBytes(5).readUIntBE(0, 5).toString(36).slice(0, 7);
const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 50) || 'post';
const yes = (value: string | null, fallback: boolean) => (value === null ? fallback : value === 'true' || value === '1' || value === 'on');

export class SubmissionStore {
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

  addSubreddit(input: Partial<Subreddit> & { name: string }): Subreddit {
    const sr: Subreddit = { flairRequired: false, linksAllowed: true, selfsAllowed: true, flairs: [], flairSelectable: true, ...input };
    this.subreddits.set(sr.name.toLowerCase(), sr);
    return sr;
  }

  throttle(author: string, ms: number): void {
    this.#throttledUntil.set(author.toLowerCase(), this.#clock.now() + ms);
  }

  /** RATELIMIT, as Reddit words it, with the wait in seconds (also `json.ratelimit`). */
  rateLimited(author: string): { errors: RedditError[]; ratelimit: number } | undefined {
    const until = this.#throttledUntil.get(author.toLowerCase()) ?? 0;
    const waitMs = until - this.#clock.now();
    if (waitMs <= 0) return undefined;
    const seconds = waitMs / 1000;
    const words = seconds >= 60 ? `${Math.ceil(seconds / 60)} minutes` : `${Math.ceil(seconds)} seconds`;
    return { ratelimit: seconds, errors: [['RATELIMIT', `Looks like you've been doing that a lot. Take a break for ${words} before trying again.`, 'ratelimit']] };
  }

  /** POST /api/submit's form, validated as Reddit does: the errors, or the new submission. */
  submit(author: string, form: URLSearchParams): RedditError[] | Submission {
    const srName = (form.get('sr') ?? '').trim();
    const kind = form.get('kind') ?? 'link';
    const title = form.get('title') ?? '';
    const errors: RedditError[] = [];
    const sr = this.#subreddit(srName, author);
    if (!srName) errors.push(['SUBREDDIT_REQUIRED', 'you must specify a subreddit', 'sr']);
    else if (!sr) errors.push(['SUBREDDIT_NOEXIST', 'that subreddit doesn\'t exist', 'sr']);
    if (kind !== 'self' && kind !== 'link') errors.push(['INVALID_OPTION', 'that option is not valid', 'kind']);
    if (!title.trim()) errors.push(['NO_TEXT', 'we need something here', 'title']);
    else if (title.length > TITLE_MAX) errors.push(['TOO_LONG', `this is too long (max: ${TITLE_MAX})`, 'title']);
    const text = form.get('text') ?? '';
    const url = form.get('url') ?? '';
    if (kind === 'self') {
      if (sr && !sr.selfsAllowed) errors.push(['NO_SELFS', 'that subreddit doesn\'t allow text posts', 'sr']);
      if (text.length > SELFTEXT_MAX) errors.push(['TOO_LONG', `this is too long (max: ${SELFTEXT_MAX})`, 'text']);
    }
    if (kind === 'link') {
      if (sr && !sr.linksAllowed) errors.push(['NO_LINKS', 'that subreddit only allows text posts', 'sr']);
      if (!url) errors.push(['NO_URL', 'a url is required', 'url']);
      else if (!/^https?:\/\/[^\s/]+\.[^\s/]+/.test(url)) errors.push(['BAD_URL', 'you should check that url', 'url']);
      else if (sr && !yes(form.get('resubmit'), false) && this.submissions.some((s) => s.subreddit === sr.name && s.url === url)) {
        errors.push(['ALREADY_SUB', 'that link has already been submitted', 'url']);
      }
    }
    const flairId = form.get('flair_id') || undefined;
    const flairText = form.get('flair_text') || undefined;
    if (flairText && flairText.length > FLAIR_TEXT_MAX) errors.push(['TOO_LONG', `this is too long (max: ${FLAIR_TEXT_MAX})`, 'flair_text']);
    if (sr?.flairRequired && !flairId) errors.push(['SUBMIT_VALIDATION_FLAIR_REQUIRED', 'Your post must contain post flair.', 'flair']);
    if (errors.length || !sr) return errors;

    const id = id36();
    const permalink = `/r/${sr.name}/comments/${id}/${slug(title)}/`;
    const submission: Submission = {
      id, name: `t3_${id}`, subreddit: sr.name, author, authorFullname: this.fullnameOf(author), kind: kind as 'self' | 'link', title,
      selftext: kind === 'self' ? text : '',
      url: kind === 'self' ? `https://www.reddit.com${permalink}` : url,
      permalink, flairId, flairText,
      nsfw: yes(form.get('nsfw'), false),
      spoiler: yes(form.get('spoiler'), false),
      sendReplies: yes(form.get('sendreplies'), true),
      createdUtc: this.#clock.now() / 1000,
      deleted: false, score: 1, upvoteRatio: 1, viewCount: null, numCrossposts: 0,
    };
    this.submissions.push(submission);
    return submission;
  }

  /** POST /api/comment's form: a top-level comment on a submission (or a reply to a comment). */
  comment(author: string, form: URLSearchParams): RedditError[] | Comment {
    const parentId = form.get('thing_id') ?? '';
    const body = form.get('text') ?? '';
    const link = parentId.startsWith('t3_') ? this.submission(parentId.slice(3)) : undefined;
    const parent = parentId.startsWith('t1_') ? this.comments.find((c) => c.name === parentId) : undefined;
    const submission = link ?? (parent ? this.submission(parent.linkId.slice(3)) : undefined);
    const errors: RedditError[] = [];
    if (!submission) errors.push(['NO_THING_ID', 'id not specified', 'parent']);
    if (!body.trim()) errors.push(['NO_TEXT', 'we need something here', 'text']);
    else if (body.length > COMMENT_MAX) errors.push(['TOO_LONG', `this is too long (max: ${COMMENT_MAX})`, 'text']);
    if (errors.length || !submission) return errors;
    if (submission.deleted || parent?.deleted) return [['DELETED_COMMENT', 'that comment has been deleted', 'parent']];
    return this.addComment({ author, body, parentId, submission });
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
    const thing = fullname.startsWith('t3_') ? this.submission(fullname.slice(3)) : this.comments.find((c) => c.name === fullname);
    if (thing && thing.author.toLowerCase() === author.toLowerCase()) thing.deleted = true;
  }

  submission(id: string): Submission | undefined {
    return this.submissions.find((s) => s.id === id);
  }

  /** A user's profile subreddit (u_<name>) exists for every user; others must be added. */
  #subreddit(name: string, author: string): Subreddit | undefined {
    const known = this.subreddits.get(name.toLowerCase());
    if (known) return known;
    if (name.toLowerCase() === `u_${author.toLowerCase()}`) return this.addSubreddit({ name: `u_${author}` });
    return undefined;
  }
}

/** A submission as Reddit's listings show it (kind t3); `numComments`: its comments not deleted. */
export function linkThing(s: Submission, numComments = 0) {
  return {
    kind: 't3',
    data: {
      id: s.id, name: s.name, subreddit: s.subreddit, subreddit_name_prefixed: s.subreddit.startsWith('u_') ? `u/${s.subreddit.slice(2)}` : `r/${s.subreddit}`,
      author: s.deleted ? '[deleted]' : s.author, ...(s.deleted ? {} : { author_fullname: s.authorFullname }),
      title: s.title, selftext: s.deleted ? '[deleted]' : s.selftext, is_self: s.kind === 'self', url: s.url, permalink: s.permalink,
      link_flair_template_id: s.flairId ?? null, link_flair_text: s.flairText ?? null, over_18: s.nsfw, spoiler: s.spoiler,
      send_replies: s.sendReplies, created_utc: Math.floor(s.createdUtc), removed_by_category: s.deleted ? 'deleted' : null, is_robot_indexable: !s.deleted,
      score: s.score, ups: s.score, upvote_ratio: s.upvoteRatio, num_comments: numComments, view_count: s.viewCount, num_crossposts: s.numCrossposts,
    },
  };
}

/** A comment as Reddit's listings show it (kind t1): `replies` is "" or a Listing of its answers. */
export function commentThing(c: Comment, depth = 0, replies: unknown = '') {
  return {
    kind: 't1',
    data: {
      id: c.id, name: c.name, author: c.deleted ? '[deleted]' : c.author, ...(c.deleted ? {} : { author_fullname: c.authorFullname }),
      body: c.deleted ? '[deleted]' : c.body, parent_id: c.parentId, link_id: c.linkId,
      permalink: c.permalink, created_utc: Math.floor(c.createdUtc), score: c.score, ups: c.score, depth, replies,
    },
  };
}

export function listing(children: unknown[], after: string | null = null) {
  return { kind: 'Listing', data: { after, before: null, dist: children.length, children } };
}
