// The Graph calls the engagement side makes (reads, comments, deletes, insights) for both networks
// reached through graph.facebook.com (facebook, instagram): the one network HTTP client with the
// account's token, Graph's errors (graph-errors.ts), Graph's lists ({data, paging}) and the page
// cursor Crier hands out, which is the query of Graph's `paging.next` without the token.
import type { AccountSession } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { NetworkHttp } from '../http.ts';
import { GRAPH_VERSION } from './client.ts';
import { classifyGraph, graphReason } from './graph-errors.ts';

export interface GraphList<T> {
  data?: T[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string; previous?: string };
}

/** The parameters of Graph's paging.next a cursor may carry back (cursor or time-based paging). */
const CURSOR_KEYS = ['after', 'until', 'since', '__paging_token'];

export class GraphApi {
  readonly network: 'facebook' | 'instagram';
  readonly #http: NetworkHttp;

  constructor(network: 'facebook' | 'instagram', apiUrl: string, accessToken: string) {
    this.network = network;
    this.#http = new NetworkHttp({
      network,
      baseUrl: `${apiUrl.replace(/\/+$/, '')}/${GRAPH_VERSION}`,
      headers: () => ({ authorization: `OAuth ${accessToken}` }),
      reasonOf: graphReason,
      classify: classifyGraph,
    });
  }

  /** The session's account through Graph; a session without a token is refused before any call. */
  static of(network: 'facebook' | 'instagram', apiUrl: string, session: AccountSession): GraphApi {
    const token = session.account.accessToken;
    if (!token) throw new PublishError('auth', `${network}: the account has no access token; reconnect it`, undefined, 'auth');
    return new GraphApi(network, apiUrl, token);
  }

  async get<T>(path: string, params: Record<string, string | undefined> = {}): Promise<T> {
    const { body } = await this.#http.call({ url: `${path}${queryOf(params)}` });
    return body as T;
  }

  /** A write as a form body, as Graph takes parameters: the new object's id. */
  async create(path: string, params: Record<string, string>): Promise<string> {
    const answer = await this.#http.call({ url: path, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
    const id = (answer.body as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string' || !id) throw new PublishError('unknown', `${this.network}: Graph answered ${answer.status} without an id`, undefined, 'server');
    return id;
  }

  /** DELETE /{id}: 'absent' when Graph no longer has the object (#100/33). */
  async remove(id: string): Promise<'removed' | 'absent'> {
    try {
      const { body } = await this.#http.call({ url: `/${encodeURIComponent(id)}`, method: 'DELETE' });
      if ((body as { success?: unknown } | undefined)?.success === false) throw new PublishError('permanent', `${this.network}: Graph did not delete ${id}`, undefined, 'invalid');
      return 'removed';
    } catch (error) {
      if (error instanceof PublishError && error.code === 'not_found') return 'absent';
      throw error;
    }
  }
}

export const node = (id: string) => `/${encodeURIComponent(id)}`;

function queryOf(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** Crier's cursor for the page after this list: the paging parameters of Graph's `next`, token left out. */
export function nextCursor(list: GraphList<unknown>): string | undefined {
  if (!list.paging?.next) return undefined;
  let next: URL;
  try {
    next = new URL(list.paging.next);
  } catch {
    return list.paging.cursors?.after ? new URLSearchParams({ after: list.paging.cursors.after }).toString() : undefined;
  }
  const kept = new URLSearchParams();
  for (const key of CURSOR_KEYS) {
    const value = next.searchParams.get(key);
    if (value !== null) kept.set(key, value);
  }
  if (![...kept.keys()].length && list.paging.cursors?.after) kept.set('after', list.paging.cursors.after);
  return [...kept.keys()].length ? kept.toString() : undefined;
}

/** The paging parameters of a cursor `nextCursor` made; anything else is the caller's mistake. */
export function cursorParams(network: string, cursor: string | undefined): Record<string, string> {
  if (cursor === undefined) return {};
  const params = Object.fromEntries(new URLSearchParams(cursor));
  const keys = Object.keys(params);
  if (!keys.length || keys.some((key) => !CURSOR_KEYS.includes(key))) {
    throw new PublishError('permanent', `${network}: the cursor "${cursor.slice(0, 80)}" is not one Crier gave`, undefined, 'invalid');
  }
  return params;
}

/** Graph's time (2026-11-24T21:50:11+0000) as ISO 8601, null when absent or unreadable. */
export function isoTime(graphTime: string | undefined): string | null {
  if (!graphTime) return null;
  const ms = Date.parse(graphTime.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** Graph takes since/until as Unix seconds. */
export const unixSeconds = (date: Date) => String(Math.floor(date.getTime() / 1000));

/** A reply's text as Graph takes it: some text, else refused before any call. */
export function replyText(network: string, text: string): string {
  if (!text.trim()) throw new PublishError('permanent', `${network}: a comment needs some text`, undefined, 'invalid');
  return text;
}
