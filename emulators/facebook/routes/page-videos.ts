// Page video publishing: a feed video by the chunked protocol on POST /{page-id}/videos
// (upload_phase=start with file_size → session and offsets; transfer with video_file_chunk at
// start_offset; finish with title and description), a Reel (POST /{page-id}/video_reels start →
// upload_url; the bytes to rupload's POST /video-upload/{v}/{video-id} with offset and file_size
// headers; finish with video_state=PUBLISHED and description), a video Story (video_stories, same
// phases; finish gives post_id), a photo Story (photo_stories photo_id), a video's preferred thumbnail
// (POST /{video-id}/thumbnails source), and GET /{video-id}?fields=status with processing on the
// emulator's clock. A video that finished processing is a post of the Page. As on Meta, the status
// shows the upload phase complete once every byte is in, before finish; only finish (the call that
// publishes) starts processing, then publishing. The emulator answers on every host Meta uses for
// these (graph.facebook.com, graph-video.facebook.com, rupload.facebook.com): each call's Host header
// is in calls().
import { createHash } from 'node:crypto';
import { multipartBody, type Reply } from '../../shared/http.ts';
import { graphError } from '../errors/graph.ts';
import { pick } from '../validate/fields.ts';
import { paramsOf, refused, type PageContext } from './page-context.ts';
import type { PagesStore } from '../state/pages.ts';
import type { PageVideo, VideoKind } from '../state/page-videos.ts';
import type { FbPage } from '../state/accounts.ts';
import type { FbRequest, FbRoute, FbWorld } from './context.ts';

/** The chunk size the emulator hands out for feed videos (Meta chooses it per upload). */
export const CHUNK_BYTES = 1024 * 1024;

const hostOf = (req: FbRequest) => (req.headers?.host ? { host: req.headers.host } : {});

const uploadError = (message: string) => graphError({ message: `(#6000) There was a problem uploading your video file: ${message}`, code: 6000, subcode: 1363019 });

export function pageVideoRoutes(world: FbWorld, pages: PagesStore, ctx: PageContext): FbRoute[] {
  const { now, onPage, asPage, withUsage, addPost, render, settle } = ctx;
  const received = (video: PageVideo) => video.chunks.reduce((n, c) => n + c.length, 0);
  const bytesIn = (video: PageVideo) => video.chunks.length > 0 && received(video) === video.declaredSize;

  const newVideo = (page: FbPage, kind: VideoKind, declaredSize: number): PageVideo => {
    const video: PageVideo = { id: pages.nextId(), pageId: page.id, kind, declaredSize, chunks: [], transfers: [], finished: false, params: {}, thumbnails: [] };
    pages.videos.set(video.id, video);
    return video;
  };

  /** Marks the upload finished: processing starts on the emulator's clock. */
  const finish = (video: PageVideo, params: Record<string, string>): Reply | undefined => {
    if (video.finished) return uploadError('the upload session is already finished');
    if (!video.chunks.length || received(video) !== video.declaredSize) return uploadError(`received ${received(video)} of ${video.declaredSize} bytes`);
    video.finished = true;
    video.params = params;
    video.readyAt = now() + pages.processingMs;
    if (pages.failNextVideo) {
      video.failed = pages.failNextVideo;
      pages.failNextVideo = undefined;
    }
    return undefined;
  };

  const form = async (req: FbRequest): Promise<{ fields: Record<string, string>; file?: Buffer } | undefined> => {
    if (!/^multipart\/form-data/i.test(req.contentType ?? '')) return { fields: paramsOf(req) };
    const parsed = await multipartBody(req.raw, req.contentType!);
    if (!parsed) return undefined;
    const fields: Record<string, string> = {};
    let file: Buffer | undefined;
    for (const [name, value] of parsed) {
      if (typeof value === 'string') fields[name] = value;
      else file = Buffer.from(await value.arrayBuffer());
    }
    return { fields, file };
  };

  const videosEdge = async (req: FbRequest, page: FbPage): Promise<Reply> => {
    const parsed = await form(req);
    if (!parsed) return uploadError('the multipart body could not be read');
    const { fields, file } = parsed;
    // onPage recorded the call before the multipart body was read: record its fields.
    const call = pages.calls.at(-1);
    if (call) call.params = fields;
    const session = (id: string | undefined) => {
      const video = pages.videos.get((id ?? '').replace(/_s$/, ''));
      return video && video.pageId === page.id && video.kind === 'video' ? video : undefined;
    };
    if (fields.upload_phase === 'start') {
      const size = Number(fields.file_size);
      if (!Number.isInteger(size) || size <= 0) return graphError({ message: '(#100) file_size must be a positive integer', code: 100 });
      const video = newVideo(page, 'video', size);
      return { status: 200, body: { upload_session_id: `${video.id}_s`, video_id: video.id, start_offset: '0', end_offset: String(Math.min(size, CHUNK_BYTES)) } };
    }
    const video = session(fields.upload_session_id);
    if (!video) return graphError({ message: '(#100) Invalid upload_session_id', code: 100 });
    if (fields.upload_phase === 'transfer') {
      const offset = Number(fields.start_offset);
      if (!file) return uploadError('video_file_chunk is missing');
      video.transfers.push(offset);
      // A chunk already received (sent again after a lost answer) is not appended twice.
      if (offset === received(video) && !video.finished) video.chunks.push(file);
      else if (offset > received(video)) return uploadError(`start_offset ${offset} is past the ${received(video)} bytes received`);
      const at = received(video);
      return { status: 200, body: { start_offset: String(at), end_offset: String(Math.min(video.declaredSize, at + CHUNK_BYTES)) } };
    }
    if (fields.upload_phase === 'finish') return finish(video, fields) ?? { status: 200, body: { success: true } };
    return graphError({ message: '(#100) upload_phase must be start, transfer or finish', code: 100 });
  };

  /** /video_reels and /video_stories: start gives an upload URL on rupload; finish publishes. */
  const phasedEdge = (kind: 'reel' | 'story') => (req: FbRequest, page: FbPage): Reply => {
    const q = paramsOf(req);
    if (q.upload_phase === 'start') {
      const video = newVideo(page, kind, 0);
      return { status: 200, body: { video_id: video.id, upload_url: `${req.origin}/video-upload/${req.params.version}/${video.id}` } };
    }
    const video = pages.videos.get(q.video_id ?? '');
    if (!video || video.pageId !== page.id || video.kind !== kind) return graphError({ message: `(#100) Invalid video_id: ${q.video_id}`, code: 100 });
    if (q.upload_phase !== 'finish') return graphError({ message: '(#100) upload_phase must be start or finish', code: 100 });
    if (kind === 'reel' && q.video_state !== 'PUBLISHED' && q.video_state !== 'DRAFT' && q.video_state !== 'SCHEDULED') {
      return graphError({ message: '(#100) video_state must be PUBLISHED, DRAFT or SCHEDULED', code: 100 });
    }
    const refusal = finish(video, q);
    if (refusal) return refusal;
    if (kind === 'reel') return { status: 200, body: { success: true } };
    video.postId = addPost(page, {}, [], q, { id: video.id, kind: 'story' }).id;
    return { status: 200, body: { success: true, post_id: video.postId } };
  };

  const photoStory = (req: FbRequest, page: FbPage): Reply => {
    const photo = pages.photos.get(req.query.photo_id ?? '');
    if (!photo || photo.pageId !== page.id || photo.published || photo.postId) return graphError({ message: `(#100) Invalid photo_id: ${req.query.photo_id}`, code: 100 });
    const post = addPost(page, {}, [photo.id], paramsOf(req), { kind: 'story' });
    return { status: 200, body: { success: true, post_id: post.id } };
  };

  /** rupload: the whole file (or the rest of it from `offset`), authorised with the Page token. */
  const rupload = async (req: FbRequest): Promise<Reply> => {
    const video = pages.videos.get(req.params.videoId ?? '');
    if (!video || video.kind === 'video') return { status: 404, body: { debug_info: { type: 'NotFoundError', message: 'Video not found' } } };
    const page = asPage(req, video.pageId, true);
    if (refused(page)) return page;
    const offset = Number(req.headers?.offset ?? 0);
    const size = Number(req.headers?.file_size ?? NaN);
    if (!Number.isInteger(size) || size <= 0) return { status: 400, body: { debug_info: { type: 'ProcessingFailedError', message: 'file_size header is required' } } };
    if (offset !== 0 && offset !== received(video)) return { status: 400, body: { debug_info: { type: 'ProcessingFailedError', message: `offset ${offset} does not match the ${received(video)} bytes received` } } };
    if (offset === 0) video.chunks = [];
    video.declaredSize = size;
    video.transfers.push(offset);
    pages.calls.push({ method: req.method, path: `/video-upload/${req.params.version}/${video.id}`, params: { offset: String(offset), file_size: String(size) }, ...hostOf(req) });
    video.chunks.push(req.raw ?? Buffer.alloc(0));
    return withUsage(page.id, { status: 200, body: { success: true } });
  };

  const thumbnails = async (req: FbRequest): Promise<Reply> => {
    const video = pages.videos.get(req.params.id!);
    if (!video) return graphError({ message: `(#100) Unsupported post request. Object with ID '${req.params.id}' does not exist`, code: 100, subcode: 33 });
    return onPage(video.pageId, req, `/${video.id}/thumbnails`, true, async () => {
      const parsed = await form(req);
      if (!parsed?.file) return graphError({ message: '(#100) source is required', code: 100 });
      video.thumbnails.push({ sha256: createHash('sha256').update(parsed.file).digest('hex'), preferred: parsed.fields.is_preferred === 'true' });
      return { status: 200, body: { success: true } };
    })();
  };

  /** GET /{video-id}?fields=status: the three phases, as the Video API reports them. */
  world.nodes.push((req) => {
    const video = pages.videos.get(req.params.id!);
    if (!video) return undefined;
    settle();
    const page = asPage(req, video.pageId, false);
    if (refused(page)) return page;
    const status = statusOf(video);
    return withUsage(page.id, render(req, (fields) => pick(fields, {
      id: () => video.id,
      status: () => status,
      // A Video node's permalink_url is a path on www.facebook.com (`/reel/{id}/`, `/{page}/videos/{id}/`),
      // not a full URL as a post's is (issue 28's audit; not in Meta's Video reference).
      permalink_url: () => (video.postId ? relativePath(ctx.renderPost(pages.posts.get(video.postId)!, new Map([['permalink_url', null]])).permalink_url) : undefined),
      description: () => video.params.description,
      // The counters a published video shares with its post (a Video node has no `shares`).
      reactions: (sub) => (video.postId ? ctx.renderPost(pages.posts.get(video.postId)!, new Map([['reactions', sub]])).reactions : undefined),
      comments: (sub) => (video.postId ? ctx.renderPost(pages.posts.get(video.postId)!, new Map([['comments', sub]])).comments : undefined),
    }, 'Video')));
  });

  /**
   * The three phases as Meta reports them: uploading complete once every byte is in (before finish);
   * processing from finish on; publishing complete (published) once the video is a post.
   */
  const statusOf = (video: PageVideo) => {
    const processing = !video.finished ? 'not_started' : video.failed ? 'error' : now() < (video.readyAt ?? 0) ? 'in_progress' : 'complete';
    const post = video.postId ? pages.posts.get(video.postId) : undefined;
    const videoStatus = video.failed ? 'error' : processing === 'complete' ? 'ready' : video.finished ? 'processing' : bytesIn(video) ? 'upload_complete' : 'upload_incomplete';
    return {
      video_status: videoStatus,
      uploading_phase: { status: bytesIn(video) ? 'complete' : 'in_progress', bytes_transferred: received(video) },
      processing_phase: { status: processing, ...(video.failed ? { errors: [{ code: 1363008, message: video.failed }] } : {}) },
      publishing_phase: post ? { status: 'complete', publish_status: 'published', publish_time: Math.floor(post.createdAt / 1000) } : { status: 'not_started' },
    };
  };

  const edge = (name: string, handler: (req: FbRequest, page: FbPage) => Reply | Promise<Reply>): FbRoute => ({
    method: 'POST', url: `/:id/${name}`, versioned: true,
    handler: (req) => onPage(req.params.id!, req, `/${req.params.id}/${name}`, true, (page) => handler(req, page))(),
  });

  return [
    edge('videos', videosEdge),
    edge('video_reels', phasedEdge('reel')),
    edge('video_stories', phasedEdge('story')),
    edge('photo_stories', photoStory),
    { method: 'POST', url: '/:id/thumbnails', versioned: true, handler: thumbnails },
    { method: 'POST', url: '/video-upload/:version/:videoId', versioned: false, handler: rupload },
  ];
}

/** The path of a www.facebook.com URL. */
function relativePath(url: unknown): string | undefined {
  return typeof url === 'string' ? new URL(url).pathname : undefined;
}
