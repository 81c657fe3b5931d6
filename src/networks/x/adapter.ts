// Publishing to X: media downloaded and uploaded (spec rule 9), then POST /2/tweets; later
// containers reply to the root. X has no client-chosen ids, so a crash between the call and its
// record is reconciled by looking for the post in the account's recent timeline.
import { PublishError } from '../../publishing/errors.ts';
import { mediaKind } from '../media-kind.ts';
import type { MediaInput, NetworkAdapter, PartRef, PreparedPublish, PublishInput } from '../types.ts';
import { isDuplicateContent, XClient, type XTweet } from './client.ts';

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime']);

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

  /** Our post among the account's recent ones: same text, and a reply to the root when it should be. */
  async function findExisting(position: number, root: PartRef | undefined): Promise<PartRef | undefined> {
    let recent: XTweet[];
    try {
      recent = await client.recentTweets(input.account.networkUniqueId);
    } catch (error) {
      throw new PublishError('unknown', `x: could not check whether container ${position + 1} was already posted (${(error as Error).message}); check the account before posting it again`);
    }
    const text = normalize(textOf(position));
    const match = recent.find((t) => normalize(t.text) === text && (!root || repliesTo(t, root.platformId)));
    return match && { platformId: match.id, url: urlOf(match.id) };
  }

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, root) {
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
        // X refuses identical text as a duplicate: if it is ours (a lost response), adopt it.
        if (!isDuplicateContent(error)) throw error;
        const existing = await findExisting(position, root);
        if (existing) return existing;
        throw error;
      }
    },
    async reconcile(position, _reservation, root) {
      return (await findExisting(position, root)) ?? 'absent';
    },
  };
}

async function upload(client: XClient, input: PublishInput, media: MediaInput, sleep?: (ms: number) => Promise<void>): Promise<string> {
  const { bytes, contentType } = await input.fetchMedia(media.url);
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (IMAGE_TYPES.has(type)) return client.uploadImage(bytes, type);
  if (VIDEO_TYPES.has(type)) return client.uploadVideo(bytes, type, sleep);
  throw new PublishError('permanent', `x: ${media.filename} is ${type || 'of an unknown type'}; X accepts JPEG, PNG, GIF, WEBP images and MP4 or MOV video`);
}

function checkMediaCounts(input: PublishInput): void {
  input.containers.forEach((container, i) => {
    const videos = container.media.filter((m) => mediaKind(m.filename) === 'video').length;
    if (container.media.length > 4 || (videos > 0 && container.media.length > 1)) {
      throw new PublishError('permanent', `x: container ${i + 1} has ${container.media.length} media; X allows up to 4 images or 1 video per post`);
    }
  });
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
