// Publishing (posts doc, publishing reference, overview's limits): POST /{user-id}/threads creates a
// container (TEXT, IMAGE, VIDEO, CAROUSEL item or parent; replies by reply_to_id), POST
// /{user-id}/threads_publish?creation_id publishes a FINISHED one, GET
// /{user-id}/threads_publishing_limit reports the moving 24 h usage.
import { randomBytes } from 'node:crypto';
import type { Reply } from '../../shared/http.ts';
import type { MediaFetchOptions } from '../../shared/media-fetch.ts';
import { statusOf } from '../containers.ts';
import { invalidThreadsParameter, isReply, mediaNotFound, metaError, missingPermission, serverError } from '../errors.ts';
import { downloadMedia, MAX_IMAGE_BYTES, MAX_VIDEO_BYTES } from '../media-fetch.ts';
import type { ContainerType, ThreadsContainer, ThreadsMedia, ThreadsWorld } from '../state.ts';
import { notifyReply } from '../webhooks.ts';
import { CONTAINER_TYPES, containerProblem, paramsOf, versionProblem } from '../validate.ts';
import { callerOf, type Caller } from './caller.ts';
import { deletesUsed } from './delete.ts';
import type { ThreadsRoute } from './route.ts';

// Ids are numeric strings of 17 digits like Meta's media ids (always sent as JSON strings), built as
// text: numbers that large lose digits in a double.
let sequence = 0;
export const graphId = () => `17${String(Date.now() % 1e11).padStart(11, '0')}${String(++sequence % 10_000).padStart(4, '0')}`;

export function publishingRoutes(world: ThreadsWorld): ThreadsRoute[] {
  const publisher = (req: Parameters<ThreadsRoute['handler']>[0], params: Record<string, string | undefined>): Caller | Reply => {
    const badVersion = versionProblem(req.params.version);
  if (badVersion) return badVersion;
    const caller = callerOf(world, req, params, req.params.id);
    if (isReply(caller)) return caller;
    return caller.scopes.includes('threads_content_publish') ? caller : missingPermission('threads_content_publish');
  };
  return [
    {
      method: 'POST',
      url: '/:version/:id/threads',
      handler: async (req) => {
        const params = paramsOf(req);
        const caller = publisher(req, params);
        return isReply(caller) ? caller : createContainer(world, caller, params);
      },
    },
    {
      method: 'POST',
      url: '/:version/:id/threads_publish',
      handler: async (req) => {
        const params = paramsOf(req);
        const caller = publisher(req, params);
        if (isReply(caller)) return caller;
        const answer = publish(world, caller, params);
        if (answer.status !== 200) return answer;
        const { faults } = world.publishing;
        if (faults.delayPublishAnswerMs) {
          const delayMs = faults.delayPublishAnswerMs;
          faults.delayPublishAnswerMs = undefined;
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
        const lose = faults.losePublishAnswer;
        if (lose && (lose.text === undefined || lose.text === world.publishing.containers.get(params.creation_id!)?.text)) {
          faults.losePublishAnswer = undefined;
          return serverError();
        }
        return answer;
      },
    },
    {
      method: 'GET',
      url: '/:version/:id/threads_publishing_limit',
      handler: (req) => {
        const params = paramsOf(req);
        const caller = publisher(req, params);
        return isReply(caller) ? caller : limits(world, caller, params.fields);
      },
    },
  ];
}

async function createContainer(world: ThreadsWorld, caller: Caller, params: Record<string, string | undefined>): Promise<Reply> {
  const mediaType = (params.media_type ?? '').toUpperCase() as ContainerType;
  if (!CONTAINER_TYPES.includes(mediaType)) return invalidThreadsParameter(`(#100) Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}`);
  const isItem = params.is_carousel_item === 'true';
  const problem = containerProblem(world, caller.userId, mediaType, isItem, params);
  if (problem) return problem;
  const { settings, faults } = world.publishing;
  const now = world.clock.now();
  const container: ThreadsContainer = {
    id: graphId(), userId: caller.userId, mediaType, text: params.text, imageUrl: params.image_url, videoUrl: params.video_url,
    altText: params.alt_text, isCarouselItem: isItem,
    children: mediaType === 'CAROUSEL' ? params.children!.split(',').map((c) => c.trim()) : [],
    replyToId: params.reply_to_id, replyControl: params.reply_control,
    allowlistedCountryCodes: params.allowlisted_country_codes?.split(',').map((c) => c.trim()),
    createdAt: now, readyAt: now + settings.processingMs[mediaType], errorMessage: undefined,
    fetching: false, stuck: false, fetched: undefined, publishedAs: undefined,
  };
  if (mediaType === 'IMAGE') {
    // An image is downloaded while the container is created: a URL Threads cannot fetch is refused here.
    const fetched = await downloadMedia(params.image_url!, mediaFetchOf(world), MAX_IMAGE_BYTES);
    if (!fetched.ok) return metaError('Media download has failed. The media URI doesn\'t meet our requirements.', 1, 2207052, 400, 'OAuthException');
    if (fetched.mime !== 'image/jpeg' && fetched.mime !== 'image/png') return invalidThreadsParameter(`(#100) The image format ${fetched.mime} is not supported; use JPEG or PNG`);
    container.fetched = { mime: fetched.mime, bytes: fetched.bytes };
  }
  if (mediaType === 'VIDEO') startVideoFetch(world, container);
  if (faults.failNextContainer) {
    container.errorMessage = faults.failNextContainer;
    faults.failNextContainer = undefined;
  }
  if (faults.expireNextContainer) {
    container.createdAt = now - settings.expiryMs - 1;
    faults.expireNextContainer = false;
  }
  const stick = faults.stickNextContainer;
  if (stick && (stick.text === undefined || stick.text === container.text)) {
    container.stuck = true;
    faults.stickNextContainer = undefined;
  }
  world.publishing.containers.set(container.id, container);
  return { status: 200, body: { id: container.id } };
}

/** A video is fetched in the background: the container stays IN_PROGRESS, then FINISHED or ERROR. */
function startVideoFetch(world: ThreadsWorld, container: ThreadsContainer): void {
  container.fetching = true;
  void downloadMedia(container.videoUrl!, mediaFetchOf(world), MAX_VIDEO_BYTES).then((fetched) => {
    container.fetching = false;
    if (!fetched.ok) container.errorMessage ??= 'FAILED_DOWNLOADING_VIDEO';
    else if (!fetched.mime.startsWith('video/')) container.errorMessage ??= 'FAILED_PROCESSING_VIDEO';
    else container.fetched = { mime: fetched.mime, bytes: fetched.bytes };
  });
}

function publish(world: ThreadsWorld, caller: Caller, params: Record<string, string | undefined>): Reply {
  const creationId = params.creation_id;
  if (!creationId) return invalidThreadsParameter('(#100) The parameter creation_id is required.');
  const container = world.publishing.containers.get(creationId);
  // Threads answers a container it does not know, or still processing, with "Media Not Found".
  if (!container || container.userId !== caller.userId) return mediaNotFound(creationId);
  if (container.isCarouselItem) return invalidThreadsParameter('(#100) A carousel item cannot be published on its own; publish its carousel');
  const { status } = statusOf(world, container);
  if (status === 'IN_PROGRESS') return mediaNotFound(creationId);
  if (status !== 'FINISHED') return invalidThreadsParameter(`(#100) The container ${creationId} cannot be published: its status is ${status}`);
  const { faults } = world.publishing;
  if (faults.notFoundPublishes > 0) {
    faults.notFoundPublishes -= 1;
    return mediaNotFound(creationId);
  }
  const isReply = container.replyToId !== undefined;
  const usage = usageOf(world, caller.userId);
  const { settings } = world.publishing;
  if ((isReply ? usage.replies : usage.posts) >= (isReply ? settings.replyQuotaTotal : settings.quotaTotal)) {
    return metaError(`The user has reached the limit of ${isReply ? settings.replyQuotaTotal : settings.quotaTotal} ${isReply ? 'replies' : 'posts'} published through the API in 24 hours.`, 9, 2207042, 400, 'OAuthException');
  }
  const media = published(world, caller, container);
  world.publishing.media.push(media);
  container.publishedAs = media.id;
  notifyReply(world, media);
  return { status: 200, body: { id: media.id } };
}

function published(world: ThreadsWorld, caller: Caller, container: ThreadsContainer): ThreadsMedia {
  const user = world.users.get(caller.userId);
  const username = user?.username ?? caller.userId;
  const shortcode = randomBytes(8).toString('base64url').slice(0, 11);
  const parent = world.publishing.media.find((m) => m.id === container.replyToId);
  const id = graphId();
  const items = container.mediaType === 'CAROUSEL' ? container.children.map((c) => world.publishing.containers.get(c)!) : [container];
  return {
    id, containerId: container.id, userId: caller.userId, username,
    mediaType: ({ TEXT: 'TEXT_POST', IMAGE: 'IMAGE', VIDEO: 'VIDEO', CAROUSEL: 'CAROUSEL_ALBUM' } as const)[container.mediaType],
    text: container.text, replyToId: container.replyToId, rootId: parent?.rootId ?? id,
    replyControl: container.replyControl ?? 'everyone', allowlistedCountryCodes: container.allowlistedCountryCodes,
    media: items.filter((c) => c.mediaType !== 'TEXT').map((c) => ({ mediaType: c.mediaType, url: (c.imageUrl ?? c.videoUrl)!, altText: c.altText, mime: c.fetched?.mime })),
    shortcode, permalink: `https://www.threads.com/@${username}/post/${shortcode}`, publishedAt: world.clock.now(),
  };
}

/** Posts and replies published in the moving window (a carousel is one post). */
export function usageOf(world: ThreadsWorld, userId: string): { posts: number; replies: number } {
  const since = world.clock.now() - world.publishing.settings.quotaDurationSecs * 1000;
  const recent = world.publishing.media.filter((m) => m.userId === userId && m.publishedAt > since);
  return { posts: recent.filter((m) => !m.replyToId).length, replies: recent.filter((m) => m.replyToId).length };
}

function limits(world: ThreadsWorld, caller: Caller, fields = 'quota_usage,config'): Reply {
  const usage = usageOf(world, caller.userId);
  const { settings } = world.publishing;
  const values: Record<string, unknown> = {
    quota_usage: usage.posts,
    config: { quota_total: settings.quotaTotal, quota_duration: settings.quotaDurationSecs },
    reply_quota_usage: usage.replies,
    reply_config: { quota_total: settings.replyQuotaTotal, quota_duration: settings.quotaDurationSecs },
    delete_quota_usage: deletesUsed(world, caller.userId),
    delete_config: { quota_total: world.engagement.deleteQuotaTotal, quota_duration: settings.quotaDurationSecs },
  };
  const out: Record<string, unknown> = {};
  for (const field of fields.split(',').map((f) => f.trim()).filter(Boolean)) {
    if (!(field in values)) return invalidThreadsParameter(`(#100) Tried accessing nonexisting field (${field}) on node type (ThreadsPublishingLimit)`);
    out[field] = values[field];
  }
  return { status: 200, body: { data: [out] } };
}

/** How the emulator downloads: the fetch it was given, else its own trusting the test's certificate authorities. */
function mediaFetchOf(world: ThreadsWorld): MediaFetchOptions {
  const { fetchCa, fetchMedia } = world.publishing;
  return { ca: fetchCa, ...(fetchMedia ? { fetchMedia } : {}) };
}
