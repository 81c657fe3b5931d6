// The Threads calls publishing makes (graph.threads.net/v1.0), through the one network HTTP client
// (../http.ts). Parameters travel as a form body, the token as a bearer header. Meta puts an error's
// meaning in the body's `code`/`error_subcode`, mostly under HTTP 400 (meta-x-linkedin-bluesky.md §0):
// 190 is a dead token, 4/17/32/613/80000+ throttling, 24/4279009 "Media Not Found", 9 the publishing
// limit; anything else is judged by its status.
import { NetworkHttp, type Failure, type NetworkAnswer } from '../http.ts';

export const THREADS_VERSION = 'v1.0';

export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

export interface ThreadsPost {
  id: string;
  text?: string;
  timestamp?: string;
  permalink?: string;
  replied_to?: { id: string };
}

interface MetaError {
  message?: string;
  code?: number;
  error_subcode?: number;
  error_user_msg?: string;
}

/** Meta throttling codes: app (4), user (17), page (32), API-specific (613), business use cases (80000–80014). */
const THROTTLED = new Set([4, 17, 32, 613]);
/** When Meta throttles without saying for how long (its usage windows are rolling hours). */
const THROTTLE_WAIT_MS = 5 * 60_000;
/** The publishing limit refused at publish: the quota check before it (adapter) says when it frees. */
const LIMIT_WAIT_MS = 60 * 60_000;

export class ThreadsClient {
  readonly #http: NetworkHttp;
  readonly #user: string;

  constructor(apiUrl: string, accessToken: string, userId: string) {
    this.#user = userId;
    this.#http = new NetworkHttp({
      network: 'threads',
      baseUrl: `${apiUrl.replace(/\/+$/, '')}/${THREADS_VERSION}`,
      headers: () => ({ authorization: `Bearer ${accessToken}` }),
      reasonOf,
      classify,
    });
  }

  /** POST /{user-id}/threads: a container's id. */
  async createContainer(params: Record<string, string | undefined>): Promise<string> {
    return idOf(await this.#post(`/${this.#user}/threads`, params));
  }

  /** POST /{user-id}/threads_publish: the published post's media id. */
  async publish(containerId: string): Promise<string> {
    return idOf(await this.#post(`/${this.#user}/threads_publish`, { creation_id: containerId }));
  }

  async containerStatus(containerId: string): Promise<{ status: ContainerStatus; errorMessage?: string }> {
    const { body } = await this.#http.call({ url: `/${containerId}?fields=status,error_message` });
    const container = body as { status: ContainerStatus; error_message?: string };
    return { status: container.status, ...(container.error_message ? { errorMessage: container.error_message } : {}) };
  }

  async permalink(mediaId: string): Promise<string | undefined> {
    const { body } = await this.#http.call({ url: `/${mediaId}?fields=permalink` });
    return (body as { permalink?: string }).permalink;
  }

  /** GET /{user-id}/threads_publishing_limit: posts (or replies) published in the moving window, and the cap. */
  async publishingLimit(replies: boolean): Promise<{ used: number; total: number; durationSecs: number }> {
    const fields = replies ? 'reply_quota_usage,reply_config' : 'quota_usage,config';
    const { body } = await this.#http.call({ url: `/${this.#user}/threads_publishing_limit?fields=${fields}` });
    const row = ((body as { data?: Record<string, any>[] }).data ?? [])[0] ?? {};
    const config = (replies ? row.reply_config : row.config) ?? {};
    return { used: Number((replies ? row.reply_quota_usage : row.quota_usage) ?? 0), total: Number(config.quota_total ?? 0), durationSecs: Number(config.quota_duration ?? 86_400) };
  }

  /** One page of the user's posts (or replies), newest first, published since `sinceSecs`. */
  async postsPage(replies: boolean, sinceSecs: number, after?: string): Promise<{ posts: ThreadsPost[]; after?: string }> {
    const query = new URLSearchParams({ fields: replies ? 'id,text,timestamp,permalink,replied_to' : 'id,text,timestamp,permalink', since: String(sinceSecs), limit: '100', ...(after ? { after } : {}) });
    const { body } = await this.#http.call({ url: `/${this.#user}/${replies ? 'replies' : 'threads'}?${query}` });
    const page = body as { data?: ThreadsPost[]; paging?: { next?: string; cursors?: { after?: string } } };
    return { posts: page.data ?? [], ...(page.paging?.next && page.paging.cursors?.after ? { after: page.paging.cursors.after } : {}) };
  }

  /** The connected profile's Threads user id (the `{user-id}` of user paths). */
  get userId(): string {
    return this.#user;
  }

  /** GET a Graph path with its parameters (engagement reads): the answer's JSON body. */
  async read(path: string, params: Record<string, string | undefined>): Promise<unknown> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
    const { body } = await this.#http.call({ url: `${path}?${query}` });
    return body;
  }

  /** DELETE /{threads-media-id} (threads_delete). */
  async deleteMedia(mediaId: string): Promise<void> {
    await this.#http.call({ url: `/${mediaId}`, method: 'DELETE' });
  }

  /** GET /{user-id}/threads_publishing_limit: deletes made in the moving window, and the cap (100). */
  async deleteLimit(): Promise<{ used: number; total: number; durationSecs: number }> {
    const { body } = await this.#http.call({ url: `/${this.#user}/threads_publishing_limit?fields=delete_quota_usage,delete_config` });
    const row = ((body as { data?: Record<string, any>[] }).data ?? [])[0] ?? {};
    return { used: Number(row.delete_quota_usage ?? 0), total: Number(row.delete_config?.quota_total ?? 0), durationSecs: Number(row.delete_config?.quota_duration ?? 86_400) };
  }

  async #post(path: string, params: Record<string, string | undefined>): Promise<NetworkAnswer> {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) if (value !== undefined) form.set(name, value);
    return this.#http.call({ url: path, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  }
}

/** "Media Not Found" (code 24, subcode 4279009): the container is not (yet) visible to threads_publish. */
export const isMediaNotFound = (error: { code?: string; message: string }) => error.code === 'not_found' && /\(code 24\/4279009\)/.test(error.message);

function idOf(answer: NetworkAnswer): string {
  const id = (answer.body as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' && typeof id !== 'number') throw new Error(`threads answered ${answer.status} without an id`);
  return String(id);
}

function errorOf(body: unknown): MetaError | undefined {
  const error = (body as { error?: unknown } | undefined)?.error;
  return error && typeof error === 'object' ? (error as MetaError) : undefined;
}

function reasonOf(body: unknown): string | undefined {
  const error = errorOf(body);
  if (!error) return typeof body === 'string' && body ? body : undefined;
  const text = [error.message, error.error_user_msg].filter(Boolean).join(': ');
  const code = error.code === undefined ? '' : ` (code ${error.code}${error.error_subcode ? `/${error.error_subcode}` : ''})`;
  return `${text || 'error'}${code}`;
}

function classify(answer: NetworkAnswer, reason: string): Failure | undefined {
  const error = errorOf(answer.body);
  const code = Number(error?.code);
  if (code === 190) return { kind: 'auth', code: 'auth', reason: `the access token was refused (${reason}); reconnect the account` };
  if (THROTTLED.has(code) || (code >= 80000 && code <= 80014)) {
    return { kind: 'retryable', code: 'rate_limited', reason: `rate limited (${reason})`, retryAfterMs: usageWaitMs(answer) ?? THROTTLE_WAIT_MS };
  }
  if (code === 9) return { kind: 'retryable', code: 'quota', reason: `publishing limit reached (${reason})`, retryAfterMs: LIMIT_WAIT_MS };
  if (code === 24 && error?.error_subcode === 4279009) return { kind: 'permanent', code: 'not_found', reason };
  // 100/33: "Object with ID … does not exist, cannot be loaded due to missing permissions…": gone, or never the account's.
  if (code === 100 && error?.error_subcode === 33) return { kind: 'permanent', code: 'not_found', reason };
  // 10: a permission the token lacks (threads_delete, threads_manage_insights…): only a new connect grants it.
  if (code === 10) return { kind: 'permanent', code: 'forbidden', reason: `the account did not grant the permission this needs (${reason}); reconnect it` };
  if (error?.error_subcode === 2207052) {
    return { kind: 'permanent', code: 'media_rejected', reason: `Threads could not download the media from its URL (${reason})` };
  }
  if (/LINK_LIMIT_EXCEEDED/.test(reason)) {
    return { kind: 'permanent', code: 'invalid', reason: `Threads refuses posts with more than 5 links; remove some links (${reason})` };
  }
  // 1 and 2: Meta's "unknown" and "temporary" errors, retried.
  if ((code === 1 || code === 2) && answer.status >= 500) return { kind: 'retryable', code: 'server', reason: `server error ${answer.status} (${reason})` };
  if (code === 2) return { kind: 'retryable', code: 'server', reason: `temporary error (${reason})` };
  return undefined;
}

/** Minutes until access is regained, from X-Business-Use-Case-Usage (estimated_time_to_regain_access). */
function usageWaitMs(answer: NetworkAnswer): number | undefined {
  const header = answer.header('x-business-use-case-usage');
  if (!header) return undefined;
  try {
    const usage = JSON.parse(header) as Record<string, { estimated_time_to_regain_access?: number }[]>;
    const minutes = Math.max(0, ...Object.values(usage).flat().map((u) => Number(u.estimated_time_to_regain_access ?? 0)));
    return minutes > 0 ? minutes * 60_000 : undefined;
  } catch {
    return undefined;
  }
}
