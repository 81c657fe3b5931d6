// Publishing (posts doc, publishing reference, overview's limits): POST /{user-id}/threads creates a
// container (TEXT, IMAGE, VIDEO, CAROUSEL item or parent; replies by reply_to_id), POST
// /{user-id}/threads_publish?creation_id publishes a FINISHED one, GET
// /{user-id}/threads_publishing_limit reports the moving 24 h usage.
import { randomBytes } from 'node:crypto';
import type { Reply } from '../../shared/http.ts';
import { linksIn, statusOf, threadsLength } from '../containers.ts';
import { metaError, serverError } from '../errors.ts';
import { downloadMedia, MAX_IMAGE_BYTES, MAX_VIDEO_BYTES } from '../media-fetch.ts';
import type { MediaFetchOptions } from '../../shared/media-fetch.ts';
import type { ContainerType, ThreadsContainer, ThreadsMedia, ThreadsWorld } from '../world.ts';
import { notifyReply } from '../webhooks.ts';
import { deletesUsed } from './delete.ts';
import { callerOf, isReply, missingPermission, objectNotFound, paramsOf, type Caller } from './params.ts';
import type { ThreadsRoute } from './route.ts';

const TYPES: ContainerType[] = ['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'];
const REPLY_CONTROLS = ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only'];
const MAX_TEXT = 500;
const MAX_LINKS = 5;
const MAX_CHILDREN = 20;
/** Publishing reference: alt_text is at most 1,000 characters. */
const MAX_ALT_TEXT = 1000;

// Ids are numeric strings of 17 digits like Meta's media ids (always sent as JSON strings), built as
// text: numbers that large lose digits in a double.
let sequence = 0;
export const graphId = () => `17${String(Date.now() % 1e11).padStart(11, '0')}${String(++sequence % 10_000).padStart(4, '0')}`;

const invalid = (message: string, subcode?: number): Reply => metaError(message, 100, subcode, 400, 'THApiException');
export const mediaNotFound = (id: string): Reply => ({
  status: 400,
  body: { error: { message: 'The requested resource does not exist', type: 'OAuthException', code: 24, error_subcode: 4279009, is_transient: false, error_user_title: 'Media Not Found', error_user_msg: `The media with id ${id} cannot be found.`, fbtrace_id: randomBytes(8).toString('base64url') } },
});

export function publishingRoutes(world: ThreadsWorld): ThreadsRoute[] {
  const publisher = (req: Parameters<ThreadsRoute['handler']>[0], params: Record<string, string | undefined>): Caller | Reply => {
    if (!/^v\d+\.\d+$/.test(req.params.version ?? '')) return objectNotFound(req.params.version ?? '');
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
  if (!TYPES.includes(mediaType)) return invalid(`(#100) Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}`);
  const isItem = params.is_carousel_item === 'true';
  const problem = checkParams(world, caller, mediaType, isItem, params);
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
    if (fetched.mime !== 'image/jpeg' && fetched.mime !== 'image/png') return invalid(`(#100) The image format ${fetched.mime} is not supported; use JPEG or PNG`);
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

/** What Threads refuses at container creation, before anything is fetched. */
function checkParams(world: ThreadsWorld, caller: Caller, mediaType: ContainerType, isItem: boolean, params: Record<string, string | undefined>): Reply | undefined {
  const text = params.text;
  if (mediaType === 'TEXT' && !text) return invalid('(#100) The parameter text is required for TEXT posts');
  if (mediaType === 'IMAGE' && !params.image_url) return invalid('(#100) The parameter image_url is required for IMAGE posts');
  if (mediaType === 'VIDEO' && !params.video_url) return invalid('(#100) The parameter video_url is required for VIDEO posts');
  if (isItem && (mediaType === 'TEXT' || mediaType === 'CAROUSEL')) return invalid('(#100) Only IMAGE and VIDEO containers can be carousel items');
  if (isItem && (text || params.reply_to_id)) return invalid('(#100) A carousel item takes no text and no reply_to_id');
  if (text && threadsLength(text) > MAX_TEXT) return invalid(`(#100) Param text must be at most ${MAX_TEXT} characters long.`);
  if (text && linksIn(text).length > MAX_LINKS) {
    return invalid(`(#100) THREADS_API__LINK_LIMIT_EXCEEDED: a post can contain at most ${MAX_LINKS} links; this one has ${linksIn(text).length}.`);
  }
  if (params.alt_text && params.alt_text.length > MAX_ALT_TEXT) return invalid(`(#100) Param alt_text must be at most ${MAX_ALT_TEXT} characters long.`);
  if (params.reply_control && !REPLY_CONTROLS.includes(params.reply_control)) return invalid(`(#100) Param reply_control must be one of {${REPLY_CONTROLS.join(', ')}}`);
  if (params.allowlisted_country_codes !== undefined && !params.allowlisted_country_codes.split(',').every((c) => /^[A-Z]{2}$/.test(c.trim()))) {
    return invalid('(#100) Param allowlisted_country_codes must be a list of ISO 3166-1 alpha-2 country codes');
  }
  if (params.reply_to_id && !world.publishing.media.some((m) => m.id === params.reply_to_id)) return objectNotFound(params.reply_to_id);
  if (mediaType === 'CAROUSEL') return checkChildren(world, caller, params.children);
  return undefined;
}

function checkChildren(world: ThreadsWorld, caller: Caller, children: string | undefined): Reply | undefined {
  const ids = (children ?? '').split(',').map((c) => c.trim()).filter(Boolean);
  if (ids.length < 2 || ids.length > MAX_CHILDREN) return invalid(`(#100) A carousel takes 2 to ${MAX_CHILDREN} children; got ${ids.length}`);
  for (const id of ids) {
    const child = world.publishing.containers.get(id);
    if (!child || child.userId !== caller.userId || !child.isCarouselItem) return invalid(`(#100) The child ${id} is not a carousel item container of this user`);
  }
  return undefined;
}

function publish(world: ThreadsWorld, caller: Caller, params: Record<string, string | undefined>): Reply {
  const creationId = params.creation_id;
  if (!creationId) return invalid('(#100) The parameter creation_id is required.');
  const container = world.publishing.containers.get(creationId);
  // Threads answers a container it does not know, or still processing, with "Media Not Found".
  if (!container || container.userId !== caller.userId) return mediaNotFound(creationId);
  if (container.isCarouselItem) return invalid('(#100) A carousel item cannot be published on its own; publish its carousel');
  const { status } = statusOf(world, container);
  if (status === 'IN_PROGRESS') return mediaNotFound(creationId);
  if (status !== 'FINISHED') return invalid(`(#100) The container ${creationId} cannot be published: its status is ${status}`);
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
    if (!(field in values)) return invalid(`(#100) Tried accessing nonexisting field (${field}) on node type (ThreadsPublishingLimit)`);
    out[field] = values[field];
  }
  return { status: 200, body: { data: [out] } };
}

/** How the emulator downloads: the fetch it was given, else its own trusting the test's certificate authorities. */
function mediaFetchOf(world: ThreadsWorld): MediaFetchOptions {
  const { fetchCa, fetchMedia } = world.publishing;
  return { ca: fetchCa, ...(fetchMedia ? { fetchMedia } : {}) };
}
