// Publishing to X: media downloaded and uploaded (spec rule 9), then POST /2/tweets; later
// containers reply to the root. X has no client-chosen ids, so a crash between the call and its
// record is reconciled by searching the account's timeline back to the time the container was
// reserved, every page of it: found is published, not found after a complete search is absent, and
// whatever X cannot answer for sure ends `unknown`, never a repost and never `failed`.
import { PublishError, reconcileErrors } from '../errors.ts';
import type { MediaInput, NetworkAdapter, PartRef, PreparedPublish, PublishInput } from '../types.ts';
import { isDuplicateContent, XClient, type XTweet } from './client.ts';
import { checkMediaCounts } from './shape.ts';

const { cannotTell } = reconcileErrors('x', 'the account');

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime']);
/** X lists a user's 3,200 most recent posts and no more: a search that reaches this many cannot be complete. */
const TIMELINE_LIMIT = 3200;
/** Our clock against X's: the search starts this much before the reservation. */
const CLOCK_MARGIN_MS = 5 * 60_000;
/**
 * How far back a duplicate-content refusal is searched for the post it refers to. X does not document
 * how far back it compares; a day covers what is observed.
 */
const DUPLICATE_LOOKBACK_MS = 24 * 60 * 60_000;

export function createXAdapter(options: { apiUrl: string; sleep?: (ms: number) => Promise<void> }): NetworkAdapter {
  return {
    network: 'x',
    async prepare(input) {
      if (!input.account.accessToken) throw new PublishError('auth', 'x: the account has no access token; reconnect it');
      const client = new XClient(options.apiUrl, input.account.accessToken);
      checkMediaCounts(input);
      return preparedFor(client, input, options.sleep);
    },
  };
}

function preparedFor(client: XClient, input: PublishInput, sleep?: (ms: number) => Promise<void>): PreparedPublish {
  const textOf = (position: number) =>
    position === 0 && typeof input.block?.content === 'string' ? input.block.content : input.containers[position]!.content;
  const urlOf = (id: string) => `https://x.com/${input.account.username}/status/${id}`;

  /**
   * Our post among the account's posts since `since`: same text, and a reply to the root when it should
   * be one. Every page is read; undefined only when X listed the whole range and it is not there.
   */
  async function findSince(position: number, root: PartRef | undefined, since: Date): Promise<PartRef | undefined> {
    const text = normalize(textOf(position));
    const isOurs = (t: XTweet) => normalize(t.text) === text && (!root || repliesTo(t, root.platformId));
    let listed = 0;
    let token: string | undefined;
    do {
      let page;
      try {
        page = await client.timelinePage(input.account.networkUniqueId, since, token);
      } catch (error) {
        throw cannotTell(position, (error as Error).message);
      }
      const match = page.tweets.find(isOurs);
      if (match) return { platformId: match.id, url: urlOf(match.id) };
      listed += page.tweets.length;
      token = page.next;
    } while (token);
    if (listed >= TIMELINE_LIMIT) throw cannotTell(position, `the account has posted more than X lists since ${since.toISOString()}`);
    return undefined;
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
        // X says this text is already on the account: it may be ours (an answer lost, a crash), and in
        // any case it is live. Find it and carry on from it; failing it would deny a live post.
        const since = new Date(Math.min(reservedAt(reservation).getTime(), Date.now() - DUPLICATE_LOOKBACK_MS));
        const existing = await findSince(position, root, since);
        if (existing) return existing;
        throw cannotTell(position, 'X refused it as a duplicate of a post already on the account, which Crier could not find');
      }
    },
    async reconcile(position, reservation, root) {
      return (await findSince(position, root, reservedAt(reservation))) ?? 'absent';
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
