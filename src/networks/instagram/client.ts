// The Instagram calls publishing makes (Instagram API with Facebook Login: graph.facebook.com,
// versioned, the Page token of the account's Page) through the one network HTTP client. Parameters
// go as a form body, as Graph takes them; errors are Graph's (../facebook/graph-errors.ts).
import { classifyGraph, graphReason } from '../facebook/graph-errors.ts';
import { NetworkHttp } from '../http.ts';

import { GRAPH_VERSION } from '../meta/graph-version.ts';
export { GRAPH_VERSION };

export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

export interface PublishedMedia {
  id: string;
  caption?: string;
  timestamp: string;
  permalink?: string;
}

export class InstagramClient {
  readonly #http: NetworkHttp;
  readonly #user: string;

  constructor(apiUrl: string, accessToken: string, igUserId: string) {
    this.#http = new NetworkHttp({
      network: 'instagram',
      baseUrl: `${apiUrl.replace(/\/+$/, '')}/${GRAPH_VERSION}`,
      headers: () => ({ authorization: `OAuth ${accessToken}` }),
      reasonOf: graphReason,
      classify: classifyGraph,
    });
    this.#user = encodeURIComponent(igUserId);
  }

  /** content_publishing_limit: posts published in the last `durationSecs`, out of `total`. */
  async publishingLimit(): Promise<{ usage: number; total: number; durationSecs: number }> {
    const { body } = await this.#http.call({ url: `/${this.#user}/content_publishing_limit?fields=quota_usage,config` });
    const entry = ((body as { data?: { quota_usage?: number; config?: { quota_total?: number; quota_duration?: number } }[] }).data ?? [])[0];
    return { usage: entry?.quota_usage ?? 0, total: entry?.config?.quota_total ?? 50, durationSecs: entry?.config?.quota_duration ?? 86_400 };
  }

  /** POST /{ig-user-id}/media: a container's id. */
  async createContainer(params: Record<string, string>): Promise<string> {
    return idOf(await this.#post(`/${this.#user}/media`, params));
  }

  async containerStatus(id: string): Promise<{ code: ContainerStatus; status: string }> {
    const { body } = await this.#http.call({ url: `/${encodeURIComponent(id)}?fields=status_code,status` });
    const { status_code: code, status } = body as { status_code: ContainerStatus; status?: string };
    return { code, status: status ?? code };
  }

  /** POST /{ig-user-id}/media_publish: the published media's id. */
  async publish(creationId: string): Promise<string> {
    return idOf(await this.#post(`/${this.#user}/media_publish`, { creation_id: creationId }));
  }

  async permalink(mediaId: string): Promise<string | undefined> {
    const { body } = await this.#http.call({ url: `/${encodeURIComponent(mediaId)}?fields=permalink` });
    return (body as { permalink?: string }).permalink;
  }

  /** The account's newest media (or Stories of the last 24 h), newest first. */
  async recentMedia(stories: boolean, limit: number): Promise<PublishedMedia[]> {
    const { body } = await this.#http.call({ url: `/${this.#user}/${stories ? 'stories' : 'media'}?fields=id,caption,timestamp,permalink&limit=${limit}` });
    return (body as { data?: PublishedMedia[] }).data ?? [];
  }

  async comment(mediaId: string, message: string): Promise<string> {
    return idOf(await this.#post(`/${encodeURIComponent(mediaId)}/comments`, { message }));
  }

  async comments(mediaId: string): Promise<{ id: string; text: string; username?: string }[]> {
    const { body } = await this.#http.call({ url: `/${encodeURIComponent(mediaId)}/comments?fields=id,text,username&limit=100` });
    return (body as { data?: { id: string; text: string; username?: string }[] }).data ?? [];
  }

  async #post(url: string, params: Record<string, string>) {
    return this.#http.call({
      url,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
  }
}

function idOf(answer: { body: unknown; status: number }): string {
  const id = (answer.body as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' || !id) throw new Error(`instagram answered ${answer.status} without an id`);
  return id;
}
