// Publishing to X: media downloaded and uploaded (spec rule 9), then POST /2/tweets; later
// containers reply to the root. X has no client-chosen ids, so a crash between the call and its
// record is reconciled by searching the account's timeline back to the time the container was
// reserved, every page of it: found is published, not found after a complete search is absent, and
// whatever X cannot answer for sure ends `unknown`, never a repost and never `failed`. A refusal as
// duplicate content fails the destination with X's reason unless the post X means is provably this
// destination's own (afterDuplicate).
import { PublishError } from '../../core/errors.ts';
import { reconcileErrors } from '../errors.ts';
import type { MediaInput, PartRef } from '../../core/post.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import { isDuplicateContent, XClient, type XTweet } from './client.ts';
import { judge } from './shape.ts';

const { cannotTell } = reconcileErrors('x', 'the account');

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime']);
/** X lists a user's 3,200 most recent posts and no more: a search that reaches this many cannot be complete. */
const TIMELINE_LIMIT = 3200;
/** Our clock against X's: the search starts this much before the reservation. */
const CLOCK_MARGIN_MS = 5 * 60_000;
/**
 * After a duplicate-content refusal, a post is adopted as this attempt's own only if X dates it at
 * most this much before the reservation: X's created_at is in whole seconds, and clocks differ a little.
 */
const ADOPTION_MARGIN_MS = 2000;
/**
 * How far back a duplicate-content refusal is searched for the earlier post it refers to, to name it
 * (two pages at most). X does not document how far back it compares; a day covers what is observed.
 */
const DUPLICATE_LOOKBACK_MS = 24 * 60 * 60_000;

export function createXAdapter(options: { apiUrl: string; sleep?: (ms: number) => Promise<void> }): NetworkAdapter {
  return {
    network: 'x',
    async prepare(input) {
      if (!input.account.accessToken) throw new PublishError('auth', 'x: the account has no access token; reconnect it');
      const client = new XClient(options.apiUrl, input.account.accessToken);
      judge(input);
      return preparedFor(client, input, options.sleep);
    },
  };
}

function preparedFor(client: XClient, input: PublishInput, sleep?: (ms: number) => Promise<void>): PreparedPublish {
  const textOf = (position: number) =>
    position === 0 && typeof input.block?.content === 'string' ? input.block.content : input.containers[position]!.content;
  const urlOf = (id: string) => `https://x.com/${input.account.username}/status/${id}`;

  /** This container's post as X lists it: same text, as many media, and a reply to the root when it should be one. */
  const looksLike = (position: number, root: PartRef | undefined) => {
    const text = normalize(textOf(position));
    const media = input.containers[position]!.media.length;
    return (t: XTweet) => normalize(t.text) === text && (t.attachments?.media_keys?.length ?? 0) === media && (!root || repliesTo(t, root.platformId));
  };

  /**
   * The first of the account's posts since `since` that `accept`s (and that no other destination
   * owns, unless `anyOwner`), reading every page, at most `maxPages`. Undefined when X listed the
   * whole range and none is there.
   */
  async function search(since: Date, accept: (t: XTweet) => boolean, { maxPages = Infinity, anyOwner = false } = {}): Promise<XTweet | undefined | 'incomplete'> {
    let listed = 0;
    let token: string | undefined;
    for (let pages = 0; pages < maxPages; pages++) {
      const page = await client.timelinePage(input.account.networkUniqueId, since, token);
      const candidates = page.tweets.filter(accept);
      const owned = candidates.length && !anyOwner && input.ownedElsewhere ? await input.ownedElsewhere(candidates.map((t) => t.id)) : new Set<string>();
      const match = candidates.find((t) => !owned.has(t.id));
      if (match) return match;
      listed += page.tweets.length;
      token = page.next;
      if (!token) return listed >= TIMELINE_LIMIT ? 'incomplete' : undefined;
    }
    return 'incomplete';
  }

  /** After a crash: our post among the account's posts since the reservation; whatever X cannot answer for sure is unknown. */
  async function findOurs(position: number, root: PartRef | undefined, since: Date): Promise<PartRef | undefined> {
    let found;
    try {
      found = await search(since, looksLike(position, root));
    } catch (error) {
      throw cannotTell(position, (error as Error).message);
    }
    if (found === 'incomplete') throw cannotTell(position, `the account has posted more than X lists since ${since.toISOString()}`);
    return found && { platformId: found.id, url: urlOf(found.id) };
  }

  /**
   * X refused the container as duplicate content. The post X means is this destination's only if it
   * can be shown to come from this destination's own attempt (an answer lost, then the call sent
   * again): created since the reservation, the same text and media, owned by no other destination.
   * Anything else is X's refusal, and the destination fails with it, naming the earlier post when
   * one of the account's recent posts has the text.
   */
  async function afterDuplicate(position: number, reservation: Record<string, unknown>, root: PartRef | undefined): Promise<PartRef> {
    const since = new Date(Date.parse(String(reservation.startedAt)) - ADOPTION_MARGIN_MS);
    const ours = await search(since, looksLike(position, root)).catch(() => undefined);
    if (ours && ours !== 'incomplete') return { platformId: ours.id, url: urlOf(ours.id), adopted: true };
    const text = normalize(textOf(position));
    const lookback = new Date(Date.now() - DUPLICATE_LOOKBACK_MS);
    const earlier = await search(lookback, (t) => normalize(t.text) === text, { maxPages: 2, anyOwner: true }).catch(() => undefined);
    const named = earlier && earlier !== 'incomplete' ? `: ${urlOf(earlier.id)}` : ' on the account';
    throw new PublishError('permanent', `x: X refused it as a duplicate of an earlier post${named} (container ${position + 1})`, undefined, 'duplicate');
  }

  const reservedAt = (reservation: Record<string, unknown>) => new Date(Date.parse(String(reservation.startedAt)) - CLOCK_MARGIN_MS);

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, reservation, root) {
      const container = input.containers[position]!;
      const mediaIds: string[] = [];
      for (const media of container.media) mediaIds.push(await upload(client, input, media, sleep));
      try {
        const tweet = await client.createTweet({
          text: textOf(position),
          ...(mediaIds.length ? { media: { media_ids: mediaIds } } : {}),
          ...(root ? { reply: { in_reply_to_tweet_id: root.platformId } } : {}),
        });
        return { platformId: tweet.id, url: urlOf(tweet.id) };
      } catch (error) {
        if (!isDuplicateContent(error)) throw inContainer(error, position);
        return afterDuplicate(position, reservation, root);
      }
    },
    async reconcile(position, reservation, root) {
      return (await findOurs(position, root, reservedAt(reservation))) ?? 'absent';
    },
  };
}

/** A refusal of one container of a thread says which. */
function inContainer(error: unknown, position: number): unknown {
  if (!(error instanceof PublishError) || error.kind !== 'permanent') return error;
  return new PublishError('permanent', `${error.message} (container ${position + 1})`);
}

async function upload(client: XClient, input: PublishInput, media: MediaInput, sleep?: (ms: number) => Promise<void>): Promise<string> {
  const { bytes, contentType } = await input.fetchMedia(media.url);
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (IMAGE_TYPES.has(type)) return client.uploadImage(bytes, type);
  if (VIDEO_TYPES.has(type)) return client.uploadVideo(bytes, type, sleep);
  throw new PublishError('permanent', `x: ${media.filename} is ${type || 'of an unknown type'}; X accepts JPEG, PNG, GIF, WEBP images and MP4 or MOV video`);
}

function repliesTo(tweet: XTweet, rootId: string): boolean {
  return tweet.in_reply_to_tweet_id === rootId || (tweet.referenced_tweets ?? []).some((r) => r.type === 'replied_to' && r.id === rootId);
}

/** X returns text HTML-escaped and with links shortened; compare on what survives that. */
function normalize(text: string): string {
  return text
    .replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>')
    .replace(/https?:\/\/\S+/g, 'URL')
    .replace(/\s+/g, ' ')
    .trim();
}
