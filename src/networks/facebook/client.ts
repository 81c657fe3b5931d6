// The Page calls publishing makes (graph.facebook.com, versioned, the Page's token) through the one
// network HTTP client: photos uploaded as bytes (multipart `source`), feed posts, comments, and the
// reads reconcile needs. Errors are Graph's (graph-errors.ts).
import { randomBytes } from 'node:crypto';
import { NetworkHttp } from '../http.ts';
import { classifyGraph, graphReason } from './graph-errors.ts';

export const GRAPH_VERSION = 'v23.0';

export interface FeedPost {
  id: string;
  message?: string;
  created_time: string;
  permalink_url?: string;
}

export class FacebookClient {
  readonly #http: NetworkHttp;
  readonly #page: string;

  constructor(apiUrl: string, accessToken: string, pageId: string) {
    this.#http = new NetworkHttp({
      network: 'facebook',
      baseUrl: `${apiUrl.replace(/\/+$/, '')}/${GRAPH_VERSION}`,
      headers: () => ({ authorization: `OAuth ${accessToken}` }),
      reasonOf: graphReason,
      classify: classifyGraph,
    });
    this.#page = encodeURIComponent(pageId);
  }

  /** POST /{page-id}/photos published=false with the bytes: the photo's id, to attach to a post. */
  async uploadPhoto(bytes: Buffer, filename: string, contentType: string): Promise<string> {
    const boundary = `----crier${randomBytes(12).toString('hex')}`;
    const field = (name: string, value: string) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const safeName = filename.replace(/["\r\n]/g, '_');
    const body = Buffer.concat([
      Buffer.from(field('published', 'false')),
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="source"; filename="${safeName}"\r\ncontent-type: ${contentType}\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return idOf(await this.#http.call({ url: `/${this.#page}/photos`, method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body }));
  }

  /** POST /{page-id}/feed: the post's id ({page-id}_{post-id}). */
  async createPost(message: string, photoIds: string[]): Promise<string> {
    const params: Record<string, string> = { ...(message ? { message } : {}) };
    photoIds.forEach((id, i) => {
      params[`attached_media[${i}]`] = JSON.stringify({ media_fbid: id });
    });
    return idOf(await this.#post(`/${this.#page}/feed`, params));
  }

  async comment(postId: string, message: string): Promise<string> {
    return idOf(await this.#post(`/${encodeURIComponent(postId)}/comments`, { message }));
  }

  async permalink(postId: string): Promise<string | undefined> {
    const { body } = await this.#http.call({ url: `/${encodeURIComponent(postId)}?fields=permalink_url` });
    return (body as { permalink_url?: string }).permalink_url;
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
    return (body as { data?: FeedPost[] }).data ?? [];
  }

  async comments(postId: string): Promise<{ id: string; message: string; from?: { id: string } }[]> {
    const { body } = await this.#http.call({ url: `/${encodeURIComponent(postId)}/comments?fields=id,message,from&limit=100` });
    return (body as { data?: { id: string; message: string; from?: { id: string } }[] }).data ?? [];
  }

  async #post(url: string, params: Record<string, string>) {
    return this.#http.call({ url, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
  }
}

function idOf(answer: { body: unknown; status: number }): string {
  const id = (answer.body as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' || !id) throw new Error(`facebook answered ${answer.status} without an id`);
  return id;
}
