// The LinkedIn calls publishing makes, on the versioned REST API (`/rest/…` with LinkedIn-Version and
// the Rest.li 2.0 protocol header), through the one network HTTP client (../http.ts). LinkedIn's
// errors are `{status, serviceErrorCode, code, message}`; its quotas are daily, per member and per
// app, and a 429 says nothing of when it frees: that is midnight UTC.
import type { Readable } from 'node:stream';
import { NetworkHttp, untilUtcMidnight, type Failure, type NetworkAnswer, type NetworkRequest } from '../http.ts';
import { LINKEDIN_VERSION } from './oauth.ts';

export type MediaStatus = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

export interface UploadPart {
  uploadUrl: string;
  firstByte: number;
  lastByte: number;
}

export interface VideoUpload {
  video: string;
  uploadToken: string;
  parts: UploadPart[];
}

export interface LinkedInPost {
  id: string;
  author: string;
  commentary?: string;
  createdAt?: number;
  /** What the post carries besides text: media (one image, video or document), multiImage, article… */
  content?: { media?: unknown; multiImage?: { images?: unknown[] }; article?: unknown; [kind: string]: unknown };
}

export interface LinkedInComment {
  urn: string;
  actor: string;
  text: string;
}

/** "Content is a duplicate of urn:li:share:…": the post already on the account. */
const DUPLICATE = /duplicate of (urn:li:(?:share|ugcPost):\d+)/i;

export class LinkedInClient {
  readonly #http: NetworkHttp;

  constructor(apiUrl: string, accessToken: string) {
    this.#http = new NetworkHttp({
      network: 'linkedin',
      baseUrl: apiUrl,
      headers: () => ({ authorization: `Bearer ${accessToken}`, 'linkedin-version': LINKEDIN_VERSION, 'x-restli-protocol-version': '2.0.0' }),
      reasonOf,
      classify,
    });
  }

  /** Any call, with the versioned headers and LinkedIn's error classification (the engagement modules' calls). */
  async request(request: NetworkRequest): Promise<NetworkAnswer> {
    return this.#http.call(request);
  }

  /** POST /rest/posts: 201 with an empty body, the new post's URN in x-restli-id. */
  async createPost(body: Record<string, unknown>): Promise<string> {
    return createdId(await this.#http.call({ url: '/rest/posts', method: 'POST', json: body }));
  }

  /** The author's posts, newest first, one page. */
  async postsPage(author: string, start: number, count: number): Promise<{ posts: LinkedInPost[]; total: number | undefined }> {
    const query = new URLSearchParams({ q: 'author', author, count: String(count), start: String(start), sortBy: 'CREATED' });
    const { body } = await this.#http.call({ url: `/rest/posts?${query}` });
    const page = body as { elements?: LinkedInPost[]; paging?: { total?: number } };
    return { posts: page.elements ?? [], total: page.paging?.total };
  }

  /** GET /rest/posts/{urn}: one post, when the token may read it. */
  async getPost(urn: string): Promise<LinkedInPost> {
    const { body } = await this.#http.call({ url: `/rest/posts/${encodeURIComponent(urn)}` });
    return body as LinkedInPost;
  }

  async initializeImage(owner: string): Promise<{ image: string; uploadUrl: string }> {
    const { body } = await this.#http.call({ url: '/rest/images?action=initializeUpload', method: 'POST', json: { initializeUploadRequest: { owner } } });
    const value = (body as { value: { image: string; uploadUrl: string } }).value;
    return { image: value.image, uploadUrl: value.uploadUrl };
  }

  async initializeDocument(owner: string): Promise<{ document: string; uploadUrl: string }> {
    const { body } = await this.#http.call({ url: '/rest/documents?action=initializeUpload', method: 'POST', json: { initializeUploadRequest: { owner } } });
    const value = (body as { value: { document: string; uploadUrl: string } }).value;
    return { document: value.document, uploadUrl: value.uploadUrl };
  }

  async initializeVideo(owner: string, fileSizeBytes: number): Promise<VideoUpload> {
    const { body } = await this.#http.call({
      url: '/rest/videos?action=initializeUpload',
      method: 'POST',
      json: { initializeUploadRequest: { owner, fileSizeBytes, uploadCaptions: false, uploadThumbnail: false } },
    });
    const value = (body as { value: { video: string; uploadToken?: string; uploadInstructions: UploadPart[] } }).value;
    const parts = value.uploadInstructions.map(({ uploadUrl, firstByte, lastByte }) => ({ uploadUrl, firstByte, lastByte }));
    return { video: value.video, uploadToken: value.uploadToken ?? '', parts };
  }

  /** PUT of bytes to an upload URL LinkedIn handed out; the ETag that names the part. */
  async upload(uploadUrl: string, bytes: Readable, length: number, contentType: string): Promise<string | undefined> {
    const answer = await this.#http.call({
      url: uploadUrl,
      method: 'PUT',
      headers: { 'content-type': contentType, 'content-length': String(length) },
      body: bytes,
    });
    return answer.header('etag');
  }

  async finalizeVideo(upload: VideoUpload, etags: string[]): Promise<void> {
    await this.#http.call({
      url: '/rest/videos?action=finalizeUpload',
      method: 'POST',
      json: { finalizeUploadRequest: { video: upload.video, uploadToken: upload.uploadToken, uploadedPartIds: etags } },
    });
  }

  /** An image's, video's or document's processing status. */
  async mediaStatus(urn: string): Promise<{ status: MediaStatus; reason?: string }> {
    const kind = /^urn:li:(image|video|document):/.exec(urn)?.[1];
    const { body } = await this.#http.call({ url: `/rest/${kind}s/${encodeURIComponent(urn)}` });
    const media = body as { status: MediaStatus; processingFailureReason?: string };
    return { status: media.status, ...(media.processingFailureReason ? { reason: media.processingFailureReason } : {}) };
  }

  async comment(post: string, actor: string, text: string): Promise<string> {
    return createdId(await this.#http.call({
      url: `/rest/socialActions/${encodeURIComponent(post)}/comments`,
      method: 'POST',
      json: { actor, object: post, message: { text } },
    }));
  }

  async commentsPage(post: string, start: number, count: number): Promise<{ comments: LinkedInComment[]; total: number | undefined }> {
    const query = new URLSearchParams({ start: String(start), count: String(count) });
    const { body } = await this.#http.call({ url: `/rest/socialActions/${encodeURIComponent(post)}/comments?${query}` });
    const page = body as { elements?: { commentUrn?: string; id?: string; actor: string; message?: { text?: string } }[]; paging?: { total?: number } };
    const comments = (page.elements ?? []).map((c) => ({ urn: c.commentUrn ?? c.id ?? '', actor: c.actor, text: c.message?.text ?? '' }));
    return { comments, total: page.paging?.total };
  }
}

/** The URN of a post a duplicate refusal names, if it is one. */
export function duplicateOf(error: { code?: string; message: string }): string | undefined {
  return error.code === 'duplicate' ? DUPLICATE.exec(error.message)?.[1] : undefined;
}

function createdId(answer: NetworkAnswer): string {
  const id = answer.header('x-restli-id') ?? answer.header('x-linkedin-id');
  if (!id) throw new Error(`linkedin answered ${answer.status} without the created entity's id (x-restli-id)`);
  return decodeURIComponent(id);
}

function reasonOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return typeof body === 'string' && body ? body : undefined;
  const { message, code } = body as { message?: string; code?: string };
  if (message && code) return `${message} (${code})`;
  return message ?? code;
}

function classify(answer: NetworkAnswer, reason: string): Failure | undefined {
  if (answer.status === 429) {
    // LinkedIn's quotas are per day and its 429 carries no Retry-After: they free at midnight UTC.
    return { kind: 'retryable', code: 'quota', reason: `daily limit reached (${reason}); LinkedIn frees it at midnight UTC`, retryAfterMs: untilUtcMidnight() };
  }
  if (answer.status === 422 && DUPLICATE.test(reason)) return { kind: 'permanent', code: 'duplicate', reason };
  return undefined;
}
