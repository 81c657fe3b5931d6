// Publishing to YouTube as the connected channel: the root container is one video, uploaded with the
// resumable protocol and processed (uploads.ts), its metadata from the `youtube` block and the text
// (metadata.ts), its custom thumbnail set once it is processed (thumbnail.ts); every later container
// a top-level comment on it (commentThreads.insert), in order. After a crash, the video is never
// created again: the session in the checkpoint is asked what it has; a comment is looked for among
// the video's comment threads (our channel, the same text, since the reservation).
import { PublishError } from '../../core/errors.ts';
import { reconcileErrors } from '../errors.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import type { PartRef } from '../../core/post.ts';
import { isProjectQuota, YoutubeClient } from './client.ts';
import { metadataFor } from './video-resource.ts';
import type { YoutubeBlock } from './options.ts';
import { markExhausted } from './pool.ts';
import { checked } from './shape.ts';
import type { YoutubeSettings } from './settings.ts';
import { setThumbnail } from './thumbnail.ts';
import { processedVideo, type ProcessingTiming, type UploadContext, type VideoCheckpoint } from './uploads.ts';

const { cannotTell, orUnknown } = reconcileErrors('youtube', 'the video\'s comments on YouTube');

/** Our clock against Google's: a search for a comment starts this much before its reservation. */
const CLOCK_MARGIN_MS = 5 * 60_000;
/** How many of the video's newest comment threads a search reads before saying it cannot tell. */
const SEARCH_LIMIT = 1000;

export interface YoutubeAdapterOptions extends Partial<ProcessingTiming> {
  apiUrl: string;
  settings: YoutubeSettings;
}

export function createYoutubeAdapter(options: YoutubeAdapterOptions): NetworkAdapter {
  // Processing takes YouTube seconds to hours: asked again after 1 s, 2 s, 4 s... then every 2 minutes.
  const timing: ProcessingTiming = { pollMs: options.pollMs ?? 1000, maxPollMs: options.maxPollMs ?? 120_000, maxProcessingMs: options.maxProcessingMs ?? 6 * 3600_000 };
  return {
    network: 'youtube',
    async prepare(input) {
      if (!input.account.accessToken) throw new PublishError('auth', 'youtube: the account has no access token; reconnect it');
      const block = checked(input);
      return preparedFor(new YoutubeClient(options.apiUrl, input.account.accessToken), input, block, options.settings, timing);
    },
  };
}

function preparedFor(client: YoutubeClient, input: PublishInput, block: YoutubeBlock, settings: YoutubeSettings, timing: ProcessingTiming): PreparedPublish {
  const text = block.content ?? input.containers[0]!.content;
  const { costs } = settings.pool;
  const ctx: UploadContext = {
    client, input, settings, timing,
    metadata: metadataFor(block, text, input.containers[0]!.media[0]!.filename),
    thumbnailUrl: block.thumbnailUrl,
    admissionUnits: costs.upload + (block.thumbnailUrl ? costs.thumbnail : 0) + (input.containers.length - 1) * costs.comment,
    verifySession: false,
  };
  const videoUrl = (id: string) => (block.isShort ? `https://www.youtube.com/shorts/${id}` : `https://www.youtube.com/watch?v=${id}`);
  const commentRef = (root: PartRef, threadId: string, commentId: string): PartRef => ({
    platformId: threadId,
    url: `https://www.youtube.com/watch?v=${root.platformId}&lc=${commentId}`,
  });

  async function publishRoot(): Promise<PartRef> {
    const stored = input.checkpoint as VideoCheckpoint | undefined;
    const cp: VideoCheckpoint = stored?.position === 0 ? { ...stored } : { position: 0 };
    const { videoId, privacyStatus } = await processedVideo(ctx, cp);
    const asked = ctx.metadata.status.privacyStatus;
    const notes = [
      privacyStatus && privacyStatus !== asked
        ? `YouTube reports the video ${privacyStatus} (asked: ${asked})`
        : undefined,
      block.thumbnailUrl ? await setThumbnail(client, input, videoId, block.thumbnailUrl) : undefined,
    ].filter(Boolean);
    return { platformId: videoId, url: videoUrl(videoId), ...(notes.length ? { note: notes.join('; ') } : {}) };
  }

  async function findComment(position: number, root: PartRef, from: number): Promise<PartRef | undefined> {
    const text = input.containers[position]!.content;
    let pageToken: string | undefined;
    for (let read = 0; read < SEARCH_LIMIT;) {
      const page = await orUnknown(position, () => client.comments(root.platformId, pageToken));
      const match = page.threads.find((t) => t.authorChannelId === input.account.networkUniqueId && t.text === text && t.publishedAt >= from);
      if (match) return commentRef(root, match.threadId, match.commentId);
      // Newest first: once a page reaches before the reservation, ours is not further on.
      if (!page.next || page.threads.some((t) => t.publishedAt < from)) return undefined;
      read += page.threads.length;
      pageToken = page.next;
    }
    throw cannotTell(position, `the video has more than ${SEARCH_LIMIT} comment threads since`);
  }

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, root) {
      try {
        if (position === 0) return await publishRoot();
        const thread = await client.comment(root!.platformId, input.containers[position]!.content);
        return commentRef(root!, thread.threadId, thread.commentId);
      } catch (error) {
        // A poll, a thumbnail or a comment refused for the project's quota: the video (if any) is
        // live and the call is retried at the reset, but no further upload should be admitted today.
        if (input.account.managedApp === true && isProjectQuota(error)) await markExhausted(input.ledger, settings.pool, input.account.orgId, 'units').catch(() => undefined);
        throw error;
      }
    },
    async reconcile(position, reservation, root) {
      if (position === 0) {
        // Only the stored session can have made the video: the next step asks it what it holds.
        ctx.verifySession = true;
        return 'absent';
      }
      return (await findComment(position, root!, Date.parse(String(reservation.startedAt)) - CLOCK_MARGIN_MS)) ?? 'absent';
    },
  };
}
