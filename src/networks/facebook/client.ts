// The Page calls publishing makes (versioned, the Page's token) through the one network HTTP client:
// photos uploaded as bytes (multipart `source`), feed posts, comments, and the reads reconcile needs,
// on graph.facebook.com; a feed video's upload session on graph-video.facebook.com, and a Reel's or
// Story's bytes on rupload.facebook.com, as Meta's guides send them (README.md). Errors are Graph's
// (graph-errors.ts).
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { NetworkHttp, type NetworkRequest } from '../http.ts';
import { classifyGraph, graphReason } from './graph-errors.ts';

import { GRAPH_VERSION } from '../meta/graph-version.ts';
export { GRAPH_VERSION };

export interface FeedPost {
  id: string;
  message?: string;
  created_time: string;
  permalink_url?: string;
}

/** Where Meta takes video bytes, when not on the Graph API host itself (an emulator serves all three). */
export interface FacebookVideoHosts {
  /** graph-video.facebook.com: a feed video's start, transfer and finish. */
  videoUrl?: string;
  /** rupload.facebook.com: a Reel's or video Story's bytes. */
  ruploadUrl?: string;
}

/** A video's status (GET /{video-id}?fields=status), read phase by phase. */
export interface VideoStatus {
  processing: string;
  /** Meta has the finish call: processing or publishing started, or the video is ready or published. */
  finishReceived: boolean;
  published: boolean;
  error?: string;
}

interface StatusBody {
  video_status?: string;
  processing_phase?: { status?: string; errors?: { message?: string }[] };
  publishing_phase?: { status?: string; publish_status?: string };
}

const STARTED = new Set(['in_progress', 'complete', 'error']);

export class FacebookClient {
  readonly #http: NetworkHttp;
  readonly #page: string;
  readonly #videoBase: string;
  readonly #ruploadBase: string;

  constructor(apiUrl: string, accessToken: string, pageId: string, hosts: FacebookVideoHosts = {}) {
    this.#http = new NetworkHttp({
      network: 'facebook',
      baseUrl: `${apiUrl.replace(/\/+$/, '')}/${GRAPH_VERSION}`,
      headers: () => ({ authorization: `OAuth ${accessToken}` }),
      reasonOf: graphReason,
      classify: classifyGraph,
    });
    this.#page = encodeURIComponent(pageId);
    const origin = (url: string | undefined) => (url ?? apiUrl).replace(/\/+$/, '');
    this.#videoBase = `${origin(hosts.videoUrl)}/${GRAPH_VERSION}`;
    this.#ruploadBase = origin(hosts.ruploadUrl);
  }

  /** POST /{page-id}/photos published=false with the bytes: the photo's id, to attach to a post. */
  async uploadPhoto(bytes: Buffer, filename: string, contentType: string): Promise<string> {
    return idOf(await this.#http.call(this.#multipart(`/${this.#page}/photos`, { published: 'false' }, { name: 'source', filename, type: contentType, bytes })));
  }

  /** POST /{page-id}/videos upload_phase=start: the session and the first range to send. */
  async startVideo(fileSize: number): Promise<{ videoId: string; session: string; start: number; end: number }> {
    const { body } = await this.#http.call(this.#form(this.#feedVideos(), { upload_phase: 'start', file_size: String(fileSize) }));
    const b = body as { video_id: string; upload_session_id: string; start_offset: string; end_offset: string };
    return { videoId: b.video_id, session: b.upload_session_id, start: Number(b.start_offset), end: Number(b.end_offset) };
  }

  /** upload_phase=transfer of the bytes at `start`: the next range Meta wants. */
  async transferVideo(session: string, start: number, chunk: Buffer): Promise<{ start: number; end: number }> {
    const { body } = await this.#http.call(this.#multipart(this.#feedVideos(), { upload_phase: 'transfer', upload_session_id: session, start_offset: String(start) }, { name: 'video_file_chunk', filename: 'chunk', type: 'application/octet-stream', bytes: chunk }));
    const b = body as { start_offset: string; end_offset: string };
    return { start: Number(b.start_offset), end: Number(b.end_offset) };
  }

  /** upload_phase=finish: the call that publishes the feed video (with its description). */
  async finishVideo(session: string, description: string): Promise<void> {
    await this.#http.call(this.#form(this.#feedVideos(), { upload_phase: 'finish', upload_session_id: session, ...(description ? { description } : {}) }));
  }

  /**
   * POST /{page-id}/video_reels|video_stories upload_phase=start: the video, and where its bytes go:
   * rupload's /video-upload/{version}/{video-id}, as Meta's guide and sample build it from the id.
   */
  async startPhased(edge: 'video_reels' | 'video_stories'): Promise<{ videoId: string; uploadUrl: string }> {
    const { body } = await this.#http.call(this.#form(`/${this.#page}/${edge}`, { upload_phase: 'start' }));
    const videoId = String((body as { video_id: string }).video_id);
    return { videoId, uploadUrl: `${this.#ruploadBase}/video-upload/${GRAPH_VERSION}/${encodeURIComponent(videoId)}` };
  }

  /** The whole file to rupload, from offset 0. */
  async rupload(uploadUrl: string, bytes: Readable, size: number): Promise<void> {
    await this.#http.call({ url: uploadUrl, method: 'POST', headers: { offset: '0', file_size: String(size), 'content-type': 'application/octet-stream', 'content-length': String(size) }, body: bytes });
  }

  /** upload_phase=finish, the call that publishes: a Reel with video_state=PUBLISHED; a Story gives its post id. */
  async finishPhased(edge: 'video_reels' | 'video_stories', videoId: string, description: string): Promise<string | undefined> {
    const params = edge === 'video_reels' ? { video_state: 'PUBLISHED', ...(description ? { description } : {}) } : {};
    const { body } = await this.#http.call(this.#form(`/${this.#page}/${edge}`, { upload_phase: 'finish', video_id: videoId, ...params }));
    return (body as { post_id?: string }).post_id;
  }

  async photoStory(photoId: string): Promise<string> {
    const { body } = await this.#http.call(this.#form(`/${this.#page}/photo_stories`, { photo_id: photoId }));
    return String((body as { post_id?: string }).post_id ?? '');
  }

  /** GET /{video-id}?fields=status: the upload, processing and publishing phases. */
  async videoStatus(videoId: string): Promise<VideoStatus> {
    const { body } = await this.#http.call({ url: `/${encodeURIComponent(videoId)}?fields=status` });
    return videoStatusOf((body as { status?: StatusBody }).status ?? {});
  }

  /** A video's preferred thumbnail (the cover). */
  async setThumbnail(videoId: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.#http.call(this.#multipart(`/${encodeURIComponent(videoId)}/thumbnails`, { is_preferred: 'true' }, { name: 'source', filename: 'cover.jpg', type: contentType, bytes }));
  }

  /** POST /{page-id}/feed: the post's id ({page-id}_{post-id}). */
  async createPost(message: string, photoIds: string[], link?: string): Promise<string> {
    const params: Record<string, string> = { ...(message ? { message } : {}), ...(link ? { link } : {}) };
    photoIds.forEach((id, i) => {
      params[`attached_media[${i}]`] = JSON.stringify({ media_fbid: id });
    });
    return idOf(await this.#post(`/${this.#page}/feed`, params));
  }

  async comment(postId: string, message: string): Promise<string> {
    return idOf(await this.#post(`/${encodeURIComponent(postId)}/comments`, { message }));
  }

  /** The object's permalink_url, made absolute (a Video node answers a path: `/reel/…`, `/{page}/videos/…`). */
  async permalink(postId: string): Promise<string | undefined> {
    const { body } = await this.#http.call({ url: `/${encodeURIComponent(postId)}?fields=permalink_url` });
    return absolutePermalink((body as { permalink_url?: string }).permalink_url);
  }

  /** Whether a Page exists (a mention's pageId): Graph answers #100/33 for an id it cannot load. */
  async pageExists(pageId: string): Promise<boolean> {
    try {
      await this.#http.call({ url: `/${encodeURIComponent(pageId)}?fields=id` });
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'not_found') return false;
      throw error;
    }
  }

  async recentPosts(limit: number): Promise<FeedPost[]> {
    const { body } = await this.#http.call({ url: `/${this.#page}/feed?fields=id,message,created_time,permalink_url&limit=${limit}` });
    return ((body as { data?: FeedPost[] }).data ?? []).map((post) => ({ ...post, permalink_url: absolutePermalink(post.permalink_url) }));
  }

  async comments(postId: string): Promise<{ id: string; message: string; from?: { id: string } }[]> {
    const { body } = await this.#http.call({ url: `/${encodeURIComponent(postId)}/comments?fields=id,message,from&limit=100` });
    return (body as { data?: { id: string; message: string; from?: { id: string } }[] }).data ?? [];
  }

  /** A feed video's upload session: /{page-id}/videos on the video host. */
  #feedVideos(): string {
    return `${this.#videoBase}/${this.#page}/videos`;
  }

  async #post(url: string, params: Record<string, string>) {
    return this.#http.call(this.#form(url, params));
  }

  #form(url: string, params: Record<string, string>): NetworkRequest {
    return { url, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() };
  }

  /** A multipart/form-data body with text fields and one file. */
  #multipart(url: string, fields: Record<string, string>, file: { name: string; filename: string; type: string; bytes: Buffer }): NetworkRequest {
    const boundary = `----crier${randomBytes(12).toString('hex')}`;
    const parts = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    const safeName = file.filename.replace(/["\r\n]/g, '_');
    const body = Buffer.concat([
      ...parts,
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${file.name}"; filename="${safeName}"\r\ncontent-type: ${file.type}\r\n\r\n`),
      file.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { url, method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body };
  }
}

/**
 * Meta reports uploading_phase complete as soon as the bytes are in, before finish
 * (fbsamples/reels_publishing_apis#47), so it is not read: only processing or publishing having
 * started shows that the finish call was received (processing starts only after it).
 */
export function videoStatusOf(status: StatusBody): VideoStatus {
  const processing = status.processing_phase?.status ?? 'not_started';
  const publishing = status.publishing_phase?.status ?? 'not_started';
  const published = status.publishing_phase?.publish_status === 'published';
  const error = status.processing_phase?.errors?.[0]?.message;
  return {
    processing,
    finishReceived: published || STARTED.has(processing) || STARTED.has(publishing) || status.video_status === 'ready',
    published,
    ...(error ? { error } : {}),
  };
}

/**
 * Graph's permalink_url as a URL a person can open: Meta gives Video nodes (feed videos, Reels) a
 * path on www.facebook.com (`/reel/{id}/`, `/{page}/videos/{id}/`), posts a full URL.
 */
export function absolutePermalink(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value, 'https://www.facebook.com').toString();
  } catch {
    return undefined;
  }
}

function idOf(answer: { body: unknown; status: number }): string {
  const id = (answer.body as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' || !id) throw new Error(`facebook answered ${answer.status} without an id`);
  return id;
}
