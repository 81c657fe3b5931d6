// Publishing to a Facebook Page with its Page token: the root container becomes a feed post — text,
// or photos uploaded as bytes (unpublished, one per checkpointed step) then attached to the post —
// or a video, Reel or Story (videos.ts: chunked or rupload upload, processing as waits), and every
// later container a comment by the Page, with `mentions` tagging Pages in the comments
// that quote them. After a crash, a post is looked for among the Page's recent posts (same message,
// created since the reservation; a photo post only if its `ready` checkpoint was stored), a comment
// among the post's comments.
import { PublishError, PublishWait } from '../../core/errors.ts';
import { reconcileErrors } from '../errors.ts';
import { isVideo } from '../media-kind.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import type { PartRef } from '../../core/post.ts';
import { FacebookClient, type FacebookVideoHosts } from './client.ts';
import { publishedVideo, type VideoCheckpoint, type VideoKind, type VideoTiming } from './videos.ts';
import type { FacebookBlock } from './options.ts';
import { checkShape } from './shape.ts';

const { cannotTell, orUnknown } = reconcileErrors('facebook', 'the Page');

const CLOCK_MARGIN_MS = 5 * 60_000;
const SEARCH_LIMIT = 50;
/** Photos Facebook takes as bytes (spec rule 9: JPEG, PNG, GIF). */
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif']);
/** Meta's cap on a photo. */
const MAX_PHOTO_BYTES = 10_000_000;

export interface FacebookAdapterOptions extends Partial<VideoTiming>, FacebookVideoHosts {
  apiUrl: string;
}

/** A cover (videoCoverUrl): a JPEG of at most 10,000,000 bytes (spec). */
const MAX_COVER_BYTES = 10_000_000;

/** The photos uploaded so far, in order; `ready` once all are and the post may be created. */
type PhotoCheckpoint = VideoCheckpoint & { ready?: boolean };

export function createFacebookAdapter(options: FacebookAdapterOptions): NetworkAdapter {
  return {
    network: 'facebook',
    async prepare(input) {
      if (!input.account.accessToken) throw new PublishError('auth', 'facebook: the account has no access token; reconnect it');
      checkShape(input);
      // Meta processes a video in seconds to minutes: asked after 1 s, 2 s, 4 s... then every minute.
      const timing: VideoTiming = { pollMs: options.pollMs ?? 1000, maxPollMs: options.maxPollMs ?? 60_000, maxProcessingMs: options.maxProcessingMs ?? 2 * 3_600_000 };
      return preparedFor(new FacebookClient(options.apiUrl, input.account.accessToken, input.account.networkUniqueId, options), input, timing);
    },
  };
}

function preparedFor(client: FacebookClient, input: PublishInput, timing: VideoTiming): PreparedPublish {
  const block = (input.block ?? {}) as FacebookBlock;
  const message = block.content ?? input.containers[0]!.content;
  const media = input.containers[0]!.media;
  const stored = input.checkpoint as PhotoCheckpoint | undefined;
  const checkpoint = (): PhotoCheckpoint => (stored?.position === 0 ? { ...stored, photos: [...stored.photos] } : { position: 0, photos: [] });
  const postRef = async (id: string): Promise<PartRef> => ({ platformId: id, url: (await client.permalink(id).catch(() => undefined)) ?? `https://www.facebook.com/${id}` });

  const video: VideoKind | undefined = block.publishAsReel ? 'reel' : media.length === 1 && isVideo(media[0]!) ? (block.publishAsStory ? 'story' : 'video') : undefined;

  async function publishRoot(): Promise<PartRef> {
    const cp = checkpoint();
    if (video) return publishVideoRoot(cp, video);
    if (!cp.ready) {
      if (cp.photos.length === 0) await checkMentions(client, block);
      if (cp.photos.length < media.length) {
        cp.photos.push(await uploadPhoto(client, input, cp.photos.length));
        // Each photo is on record before the next is sent: a crash sends again at most the one in flight.
        throw new PublishWait(0, cp, `uploading photos to facebook (${cp.photos.length} of ${media.length})`);
      }
      if (media.length) throw new PublishWait(0, { ...cp, ready: true }, 'facebook: the photos are uploaded');
    }
    if (block.publishAsStory) return postRef(await client.photoStory(cp.photos[0]!));
    const id = await client.createPost(message, cp.photos, cp.photos.length ? undefined : linkIn(message));
    // Published: the permalink is a nicety, and no failure past this point may have it sent again.
    return postRef(id);
  }

  async function publishVideoRoot(cp: PhotoCheckpoint, kind: VideoKind): Promise<PartRef> {
    if (!cp.video) {
      await checkMentions(client, block);
      if (block.videoCoverUrl) await coverOf(input, block.videoCoverUrl);
    }
    const id = await publishedVideo(client, input, kind, kind === 'story' ? '' : message, cp, timing);
    const note = block.videoCoverUrl ? await coverApplied(id, block.videoCoverUrl) : undefined;
    const ref = kind === 'reel' ? { platformId: id, url: `https://www.facebook.com/reel/${id}` } : await postRef(id);
    return note ? { ...ref, note } : ref;
  }

  /**
   * The cover, applied once the video is published, best effort (spec): a refusal leaves it published
   * with Facebook's own thumbnail, and the destination says so.
   */
  async function coverApplied(videoId: string, url: string): Promise<string | undefined> {
    try {
      const cover = await coverOf(input, url);
      await client.setThumbnail(videoId, cover.bytes, cover.contentType);
      return undefined;
    } catch (error) {
      return `published without its cover: ${(error as Error).message.replace(/^facebook: /, '')}; Facebook shows its own thumbnail`;
    }
  }

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, root) {
      if (position === 0) return publishRoot();
      const id = await client.comment(root!.platformId, withMentions(input.containers[position]!.content, block));
      return { platformId: id, url: `${root!.url}${root!.url.includes('?') ? '&' : '?'}comment_id=${encodeURIComponent(id)}` };
    },
    async reconcile(position, reservation, root) {
      if (position > 0) {
        const text = withMentions(input.containers[position]!.content, block);
        const comments = await orUnknown(position, () => client.comments(root!.platformId));
        const match = comments.find((c) => c.message === text || c.message === input.containers[position]!.content);
        return match ? { platformId: match.id, url: `${root!.url}?comment_id=${encodeURIComponent(match.id)}` } : 'absent';
      }
      if (video) {
        if (!stored?.video?.finishing) return 'absent';
        if (video === 'story') throw cannotTell(0, 'a Story cannot be looked up once its upload was finished');
        // Published only once Meta says so. Short of that the stored steps resume: they ask whether
        // finish was received before making it, then wait for processing.
        const status = await orUnknown(0, () => client.videoStatus(stored.video!.id));
        if (!status.published) return 'absent';
        return video === 'reel' ? { platformId: stored.video.id, url: `https://www.facebook.com/reel/${stored.video.id}` } : postRef(stored.video.id);
      }
      if (media.length && !stored?.ready) return 'absent';
      if (block.publishAsStory) throw cannotTell(0, 'a photo Story cannot be looked up once its photo was uploaded');
      const since = Date.parse(String(reservation.startedAt)) - CLOCK_MARGIN_MS;
      const posts = await orUnknown(0, () => client.recentPosts(SEARCH_LIMIT));
      const match = posts.find((p) => (p.message ?? '') === message && Date.parse(p.created_time.replace(/\+0000$/, 'Z')) >= since);
      if (match) return { platformId: match.id, url: match.permalink_url ?? `https://www.facebook.com/${match.id}` };
      if (posts.length >= SEARCH_LIMIT) throw cannotTell(0, `the Page has posted more than ${SEARCH_LIMIT} times since`);
      return 'absent';
    },
  };
}

async function uploadPhoto(client: FacebookClient, input: PublishInput, index: number): Promise<string> {
  const media = input.containers[0]!.media[index]!;
  const source = await input.openMedia(media.url);
  if (!PHOTO_TYPES.has(source.contentType)) {
    throw new PublishError('permanent', `facebook: ${media.filename} is ${source.contentType}; Facebook photos are JPEG, PNG or GIF`, undefined, 'media_rejected');
  }
  if (source.size > MAX_PHOTO_BYTES) throw new PublishError('permanent', `facebook: ${media.filename} is ${source.size} bytes; Facebook takes photos up to 10 MB`, undefined, 'media_rejected');
  return client.uploadPhoto(await source.bytes(), media.filename, source.contentType);
}

/**
 * A text post's first http(s) URL, sent as `link` so that Facebook shows its card (Graph does not
 * make one from the message alone); the message keeps the URL as written.
 */
function linkIn(text: string): string | undefined {
  return /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]]/i.exec(text)?.[0];
}

/** Every mentioned Page must exist before anything is posted (spec). */
async function checkMentions(client: FacebookClient, block: FacebookBlock): Promise<void> {
  for (const mention of block.mentions ?? []) {
    if (!(await client.pageExists(mention.pageId))) {
      throw new PublishError('permanent', `facebook: the mentioned Page ${mention.pageId} ("${mention.text}") does not exist or cannot be seen`, undefined, 'invalid');
    }
  }
}

/** A comment's text with each mention's first occurrence replaced by Graph's Page tag, @[page-id]. */
function withMentions(text: string, block: FacebookBlock): string {
  let out = text;
  for (const mention of block.mentions ?? []) {
    const at = out.indexOf(mention.text);
    if (at >= 0) out = `${out.slice(0, at)}@[${mention.pageId}]${out.slice(at + mention.text.length)}`;
  }
  return out;
}

/** The cover's bytes, checked as the spec asks: a JPEG of at most 10,000,000 bytes. */
async function coverOf(input: PublishInput, url: string): Promise<{ bytes: Buffer; contentType: string }> {
  const cover = await input.fetchMedia(url);
  if (cover.contentType !== 'image/jpeg') throw new PublishError('permanent', `facebook: the video cover ${url} is ${cover.contentType}; Facebook takes a JPEG`, undefined, 'media_rejected');
  if (cover.bytes.length > MAX_COVER_BYTES) throw new PublishError('permanent', `facebook: the video cover ${url} is ${cover.bytes.length} bytes; Facebook takes up to 10,000,000`, undefined, 'media_rejected');
  return cover;
}



