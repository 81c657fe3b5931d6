// Publishing to Reddit as the connected account: the root container is a submission to the block's
// subreddit — a text post (`kind=self`, the container's text or reddit.content) or, with reddit.url,
// a link post (`kind=link`, the text ignored) — and every later container a top-level comment on it
// (the spec: replies to the root). Reddit has no client-chosen ids, so after a crash a submission is
// looked for among the account's newest submissions (same subreddit and title, made since the
// reservation) and a comment among the submission's comments (same author and text, since then).
import { PublishError } from '../../core/errors.ts';
import { reconcileErrors } from '../errors.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import type { PartRef } from '../../core/post.ts';
import { postUrl, RedditClient } from './client.ts';
import type { RedditBlock } from './options.ts';
import { judge } from './shape.ts';

const { cannotTell, orUnknown } = reconcileErrors('reddit', 'the account\'s submissions and the post\'s comments on Reddit');

/** Our clock against Reddit's: a search starts this much before its reservation. */
const CLOCK_MARGIN_MS = 5 * 60_000;
/** How many of the account's newest submissions a search reads at most before saying it cannot tell. */
const SEARCH_LIMIT = 300;
const PAGE = 100;

export function createRedditAdapter(options: { apiUrl: string }): NetworkAdapter {
  return {
    network: 'reddit',
    async prepare(input) {
      if (!input.account.accessToken) throw new PublishError('auth', 'reddit: the account has no access token; reconnect it');
      const block = judge(input);
      return preparedFor(new RedditClient(options.apiUrl, input.account.accessToken, input.account.username), input, block);
    },
  };
}

function preparedFor(client: RedditClient, input: PublishInput, block: RedditBlock): PreparedPublish {
  const username = input.account.username;
  const since = (reservation: Record<string, unknown>) => (Date.parse(String(reservation.startedAt)) - CLOCK_MARGIN_MS) / 1000;
  const commentRef = (name: string, permalink: string, root: PartRef): PartRef => ({
    platformId: name,
    url: permalink ? `https://www.reddit.com${permalink}` : `${root.url}${name.replace(/^t1_/, '')}/`,
  });

  async function findSubmission(from: number): Promise<PartRef | undefined> {
    let after: string | undefined;
    for (let read = 0; read < SEARCH_LIMIT; read += PAGE) {
      const page = await orUnknown(0, () => client.submitted(username, after, PAGE));
      const match = page.items.find((s) => s.subreddit.toLowerCase() === block.subreddit.toLowerCase() && s.title === block.title && s.createdUtc >= from);
      if (match) return { platformId: match.name, url: postUrl(`https://www.reddit.com${match.permalink}`, match.name) };
      if (!page.after || page.items.some((s) => s.createdUtc < from)) return undefined;
      after = page.after;
    }
    throw cannotTell(0, `the account has submitted more than ${SEARCH_LIMIT} posts since`);
  }

  async function findComment(position: number, root: PartRef, from: number): Promise<PartRef | undefined> {
    const text = input.containers[position]!.content;
    const { items, truncated } = await orUnknown(position, () => client.comments(root.platformId.replace(/^t3_/, '')));
    const match = items.find((c) => c.author.toLowerCase() === username.toLowerCase() && c.body === text && c.createdUtc >= from);
    if (match) return commentRef(match.name, match.permalink, root);
    if (truncated) throw cannotTell(position, 'Reddit listed only part of the post\'s comments');
    return undefined;
  }

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, root) {
      if (position === 0) {
        const { name, url } = await client.submit(submitForm(input, block));
        return { platformId: name, url };
      }
      const comment = await client.comment(root!.platformId, input.containers[position]!.content);
      return commentRef(comment.name, comment.permalink, root!);
    },
    async reconcile(position, reservation, root) {
      const found = position === 0 ? await findSubmission(since(reservation)) : await findComment(position, root!, since(reservation));
      return found ?? 'absent';
    },
  };
}

/** /api/submit's form: Reddit's own parameter names (sr, kind, sendreplies, flair_id...). */
function submitForm(input: PublishInput, block: RedditBlock): Record<string, string> {
  const form: Record<string, string> = { sr: block.subreddit, title: block.title };
  if (block.url) Object.assign(form, { kind: 'link', url: block.url });
  else Object.assign(form, { kind: 'self', text: block.content ?? input.containers[0]!.content });
  if (block.flairId) form.flair_id = block.flairId;
  if (block.flairText) form.flair_text = block.flairText;
  form.nsfw = String(block.nsfw ?? false);
  form.spoiler = String(block.spoiler ?? false);
  form.sendreplies = String(block.sendReplies ?? true);
  return form;
}

