// The Bot API (https://core.telegram.org/bots/api#making-requests) on the one HTTP client of adapters
// (../http.ts): every method is `POST <api>/bot<token>/<method>`, its parameters JSON, or multipart
// when a file is uploaded; every answer is `{ok: true, result}` or `{ok: false, error_code,
// description, parameters?}`, `parameters.retry_after` saying how long to wait after a 429
// (ResponseParameters). The token is part of the path: it never appears in a message.
import { PublishError } from '../../core/errors.ts';
import type { MediaSource } from '../contract.ts';
import { NetworkHttp, type Failure, type NetworkAnswer } from '../http.ts';
import { streamedForm } from '../multipart.ts';

export const API_URL = 'https://api.telegram.org';

/** The error fields of a Bot API answer. */
interface ErrorBody {
  ok?: boolean;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** The part of a Message (https://core.telegram.org/bots/api#message) Crier reads. */
export interface TelegramMessage {
  message_id: number;
  chat: { id: number; type: string; username?: string; title?: string };
  media_group_id?: string;
}

/** A file sent in the body: its field name in the multipart form, and its bytes. */
export interface Upload {
  field: string;
  filename: string;
  source: MediaSource;
}

const reasonOf = (body: unknown): string | undefined => (body as ErrorBody | undefined)?.description;

/** What the Bot API's refusals mean for a post (the default covers 401, 403, 404, 5xx). */
function classify(answer: NetworkAnswer, reason: string): Failure | undefined {
  const body = answer.body as ErrorBody | undefined;
  if (answer.status === 429) {
    const seconds = body?.parameters?.retry_after;
    return { kind: 'retryable', code: 'rate_limited', reason: `flood control (${reason})`, retryAfterMs: typeof seconds === 'number' ? seconds * 1000 : 60_000 };
  }
  if (answer.status === 401) return { kind: 'auth', code: 'auth', reason: `the bot token was refused (${reason}); connect the account again with the bot's current token` };
  if (answer.status === 403 && /kicked|not a member|deactivated/i.test(reason)) {
    return { kind: 'auth', code: 'forbidden', reason: `the bot cannot post to the chat any more (${reason}); add it back as an administrator, then connect the account again` };
  }
  if (answer.status === 400 && body?.parameters?.migrate_to_chat_id !== undefined) {
    return { kind: 'permanent', code: 'not_found', reason: `the group is now the supergroup ${body.parameters.migrate_to_chat_id} (${reason}); connect that chat instead` };
  }
  if (answer.status === 400 && /chat not found|message to be replied not found|message to (delete|edit) not found/i.test(reason)) return { kind: 'permanent', code: 'not_found', reason };
  if (answer.status === 400 && /not enough rights|need administrator rights/i.test(reason)) return { kind: 'permanent', code: 'forbidden', reason };
  if (answer.status === 413) return { kind: 'permanent', code: 'media_rejected', reason: `a file is bigger than Telegram takes (${reason})` };
  if (answer.status === 400 && /file|url|photo|video|image|media|document|web page/i.test(reason) && !/caption|text/i.test(reason)) return { kind: 'permanent', code: 'media_rejected', reason };
  return undefined;
}

export class TelegramClient {
  readonly #http: NetworkHttp;
  readonly #token: string;

  constructor(apiUrl: string, token: string) {
    this.#http = new NetworkHttp({ network: 'telegram', baseUrl: apiUrl, reasonOf, classify });
    this.#token = token;
  }

  /** A method called with JSON parameters; its `result`. */
  async call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    return this.#resultOf<T>(await this.#http.call({ url: this.#path(method), method: 'POST', json: withoutUndefined(params) }));
  }

  /** The answer to a call, whatever its status: for a caller that reads a refusal itself (connecting). */
  async answer(method: string, params: Record<string, unknown> = {}): Promise<NetworkAnswer> {
    return this.#http.answer({ url: this.#path(method), method: 'POST', json: withoutUndefined(params) });
  }

  /** A method whose files are uploaded: multipart/form-data, each file streamed from its source. */
  async upload<T>(method: string, params: Record<string, unknown>, uploads: Upload[]): Promise<T> {
    const form = streamedForm([
      // The parameters, objects as JSON as the Bot API reads them, then the files.
      ...Object.entries(withoutUndefined(params)).map(([name, value]) => ({ name, value: typeof value === 'string' ? value : JSON.stringify(value) })),
      ...uploads.map((upload) => ({ name: upload.field, filename: upload.filename, source: upload.source })),
    ]);
    return this.#resultOf<T>(await this.#http.call({
      url: this.#path(method),
      method: 'POST',
      headers: { 'content-type': form.contentType, 'content-length': String(form.length) },
      body: form.body,
    }));
  }

  #path(method: string): string {
    return `/bot${this.#token}/${method}`;
  }

  #resultOf<T>(answer: NetworkAnswer): T {
    const body = answer.body as { ok?: boolean; result?: T } | undefined;
    if (body?.ok !== true || body.result === undefined) throw new PublishError('unknown', `telegram: the Bot API answered ${answer.status} without a result`, undefined, 'server');
    return body.result;
  }
}

const withoutUndefined = (params: Record<string, unknown>) => Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
