// Publishing to TikTok through the Content Posting API as the connected creator: the root container
// is one video (FILE_UPLOAD, streamed chunk by chunk) or 1 to 35 photos (PULL_FROM_URL: TikTok
// downloads Crier's media at PUBLIC_BASE_URL, whose domain the operator verifies for the app in
// TikTok's developer portal). `postMode` MEDIA_UPLOAD (the default) sends it to the creator's inbox
// as a draft they finish in the app; DIRECT_POST publishes it, after creator_info and under the
// 24-hour cap on distinct creators (cap.ts). The steps are in steps.ts.
//
// TikTok takes no replies or comments through its API: later containers are not published; the root
// says so in its note, and they are recorded with the root's ref (nothing of theirs exists on TikTok).
import { PublishError } from '../../core/errors.ts';
import { reconcileErrors } from '../errors.ts';
import { checkFetchableByNetwork, type PublicUrlContext } from '../public-url.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import type { PartRef } from '../../core/post.ts';
import { postModeOf, textOf } from './bodies.ts';
import { TikTokClient, type PublishStatus } from './client.ts';
import type { TiktokBlock } from './options.ts';
import { shapeOf } from './shape.ts';
import { fetchStatus, initPhotos, start, uploadChunk, type StepContext, type StepTiming, type TikTokCheckpoint } from './steps.ts';

const { cannotTell } = reconcileErrors('tiktok', 'the creator\'s TikTok profile and inbox');

/** TikTok takes JPEG and WebP photos only (no PNG). */

export interface TikTokAdapterOptions extends Partial<StepTiming> {
  apiUrl: string;
  creatorCap: number;
  publicUrl: PublicUrlContext;
}

export function createTikTokAdapter(options: TikTokAdapterOptions): NetworkAdapter {
  // A 512 MB video takes TikTok under half a minute, moderation of a public post up to hours.
  const timing: StepTiming = {
    pollMs: options.pollMs ?? 5000,
    maxPollMs: options.maxPollMs ?? 5 * 60_000,
    maxProcessingMs: options.maxProcessingMs ?? 12 * 3600_000,
    ...(options.chunkBytes ? { chunkBytes: options.chunkBytes } : {}),
  };
  return {
    network: 'tiktok',
    async prepare(input) {
      if (!input.account.accessToken) throw new PublishError('auth', 'tiktok: the account has no access token; reconnect it');
      const block = (input.block ?? {}) as TiktokBlock;
      const kind = checkShape(input, options.publicUrl);
      const ctx: StepContext = {
        client: new TikTokClient(options.apiUrl, input.account.accessToken), input, block,
        text: textOf(block, input.containers[0]!.content), creatorCap: options.creatorCap, timing,
      };
      return preparedFor(ctx, kind);
    },
  };
}

function preparedFor(ctx: StepContext, kind: 'video' | 'photo'): PreparedPublish {
  const stored = () => {
    const cp = ctx.input.checkpoint as TikTokCheckpoint | undefined;
    return cp?.position === 0 ? cp : undefined;
  };

  async function publishRoot(): Promise<PartRef> {
    const cp = stored();
    if (!cp) return start(ctx, kind);
    if (cp.stage === 'init') return initPhotos(ctx, cp);
    if (cp.stage === 'upload') return uploadChunk(ctx, cp);
    return rootRef(ctx, cp, await fetchStatus(ctx, cp));
  }

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, root) {
      if (position === 0) return publishRoot();
      return { platformId: root!.platformId, url: root!.url };
    },
    async reconcile(position, _reservation, root) {
      if (position > 0) return { platformId: root!.platformId, url: root!.url };
      const cp = stored();
      // Only a photo init sends the post in one call; every other step resumes from its checkpoint
      // (an upload session publishes nothing until TikTok holds every byte, and then it is polled).
      if (cp?.stage === 'init') throw cannotTell(0, 'the photo post may have reached TikTok, which offers no way to look it up');
      return 'absent';
    },
  };
}

/** The root's ref: the public post when TikTok names it, else the creator's profile, with what happened. */
function rootRef(ctx: StepContext, cp: TikTokCheckpoint, status: PublishStatus): PartRef {
  const profile = `https://www.tiktok.com/@${cp.username}`;
  const notes: string[] = [];
  let ref: PartRef = { platformId: cp.publishId!, url: profile };
  const awaits = cp.kind === 'video' ? 'the video awaits' : 'the photos await';
  if (postModeOf(ctx.block) === 'MEDIA_UPLOAD') {
    notes.push(`${awaits} the creator in their TikTok inbox (publish_id ${cp.publishId}): they finish and post it in the TikTok app, so no public post exists yet`);
  } else if (status.postIds[0]) {
    ref = { platformId: status.postIds[0], url: `${profile}/${cp.kind}/${status.postIds[0]}` };
  } else {
    notes.push(`TikTok published it without a public post id (a SELF_ONLY post, or one still in moderation; publish_id ${cp.publishId}): the URL is the creator's profile`);
  }
  const later = ctx.input.containers.length - 1;
  if (later > 0) notes.push(`TikTok takes no replies through its API: the ${later} later container${later > 1 ? 's were' : ' was'} not published`);
  return notes.length ? { ...ref, note: notes.join('; ') } : ref;
}

/** The shape (shape.ts), and photos TikTok can download from where they are. */
function checkShape(input: PublishInput, publicUrl: PublicUrlContext): 'video' | 'photo' {
  const kind = shapeOf(input);
  if (kind === 'photo') for (const m of input.containers[0]!.media) checkFetchableByNetwork('tiktok', m.url, publicUrl);
  return kind;
}
