// The posting forms held to Reddit's documented shapes (https://www.reddit.com/dev/api#POST_api_submit,
// #POST_api_comment, generated from reddit-archive/reddit's validators: POST_submit's VTitle, "title
// of the submission. up to 300 characters long", and VOneOf('kind', …)) and to reddit's own checks
// (r2/controllers/api.py, r2/lib/errors.py): each problem as the [CODE, message, field] triple Reddit
// puts in `json.errors`. The other limits are the emulator's (README, "invents").
import type { Comment, NewSubmission, RedditError, RedditState, Submission } from './state.ts';

/** "title of the submission. up to 300 characters long" (POST_api_submit, VTitle). */
const TITLE_MAX = 300;
const FLAIR_TEXT_MAX = 64;
const SELFTEXT_MAX = 40_000;
const COMMENT_MAX = 10_000;
/** The kinds served: link and self (the archived source's VOneOf); image, video and videogif need an upload lease the emulator does not serve (README). */
const SERVED_KINDS = ['self', 'link'];

const yes = (value: string | null, fallback: boolean) => (value === null ? fallback : value === 'true' || value === '1' || value === 'on');

/** RATELIMIT, as Reddit words it, with the wait in seconds (also `json.ratelimit`); undefined when not throttled. */
export function rateLimitError(state: RedditState, author: string): { errors: RedditError[]; ratelimit: number } | undefined {
  const waitMs = state.throttledFor(author);
  if (waitMs <= 0) return undefined;
  const seconds = waitMs / 1000;
  const words = seconds >= 60 ? `${Math.ceil(seconds / 60)} minutes` : `${Math.ceil(seconds)} seconds`;
  return { ratelimit: seconds, errors: [['RATELIMIT', `Looks like you've been doing that a lot. Take a break for ${words} before trying again.`, 'ratelimit']] };
}

/** POST /api/submit's form, validated as Reddit does: the errors, or the submission to make. */
export function checkSubmit(state: RedditState, author: string, form: URLSearchParams): RedditError[] | NewSubmission {
  const srName = (form.get('sr') ?? '').trim();
  const kind = form.get('kind') ?? 'link';
  const title = form.get('title') ?? '';
  const errors: RedditError[] = [];
  const sr = srName ? state.subredditFor(srName, author) : undefined;
  if (!srName) errors.push(['SUBREDDIT_REQUIRED', 'you must specify a subreddit', 'sr']);
  else if (!sr) errors.push(['SUBREDDIT_NOEXIST', 'that subreddit doesn\'t exist', 'sr']);
  if (!SERVED_KINDS.includes(kind)) errors.push(['INVALID_OPTION', 'that option is not valid', 'kind']);
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
    else if (sr && !yes(form.get('resubmit'), false) && state.submissions.some((s) => s.subreddit === sr.name && s.url === url)) {
      errors.push(['ALREADY_SUB', 'that link has already been submitted', 'url']);
    }
  }
  const flairId = form.get('flair_id') || undefined;
  const flairText = form.get('flair_text') || undefined;
  if (flairText && flairText.length > FLAIR_TEXT_MAX) errors.push(['TOO_LONG', `this is too long (max: ${FLAIR_TEXT_MAX})`, 'flair_text']);
  if (sr?.flairRequired && !flairId) errors.push(['SUBMIT_VALIDATION_FLAIR_REQUIRED', 'Your post must contain post flair.', 'flair']);
  if (errors.length || !sr) return errors;
  return {
    subreddit: sr, author, kind: kind as 'self' | 'link', title, text, url, flairId, flairText,
    nsfw: yes(form.get('nsfw'), false), spoiler: yes(form.get('spoiler'), false), sendReplies: yes(form.get('sendreplies'), true),
  };
}

/** POST /api/comment's form: the errors, or where the comment goes (a submission, or a comment under it). */
export function checkComment(state: RedditState, form: URLSearchParams): RedditError[] | { parentId: string; body: string; submission: Submission } {
  const parentId = form.get('thing_id') ?? '';
  const body = form.get('text') ?? '';
  const link = parentId.startsWith('t3_') ? state.submission(parentId.slice(3)) : undefined;
  const parent: Comment | undefined = parentId.startsWith('t1_') ? state.comment(parentId) : undefined;
  const submission = link ?? (parent ? state.submission(parent.linkId.slice(3)) : undefined);
  const errors: RedditError[] = [];
  if (!submission) errors.push(['NO_THING_ID', 'id not specified', 'parent']);
  if (!body.trim()) errors.push(['NO_TEXT', 'we need something here', 'text']);
  else if (body.length > COMMENT_MAX) errors.push(['TOO_LONG', `this is too long (max: ${COMMENT_MAX})`, 'text']);
  if (errors.length || !submission) return errors;
  if (submission.deleted || parent?.deleted) return [['DELETED_COMMENT', 'that comment has been deleted', 'parent']];
  return { parentId, body, submission };
}
