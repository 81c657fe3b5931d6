// A Bot API request's parameters (https://core.telegram.org/bots/api#making-requests): "We support
// GET and POST HTTP methods. We support four ways of passing parameters in Bot API requests: URL query
// string, application/x-www-form-urlencoded, application/json (except for uploading files),
// multipart/form-data (use to upload files)". Object parameters (reply_parameters, media,
// link_preview_options) come JSON-serialized in the three string forms and as objects in JSON.
import { firstValues, jsonBody, multipartBody, isPlainObject, rawBody } from '../shared/http.ts';

export interface UploadedFile {
  bytes: Buffer;
  filename: string;
  type: string;
}

export class Params {
  readonly #values: Record<string, unknown>;
  readonly files: Map<string, UploadedFile>;

  constructor(values: Record<string, unknown>, files: Map<string, UploadedFile>) {
    this.#values = values;
    this.files = files;
  }

  has(name: string): boolean {
    return this.#values[name] !== undefined && this.#values[name] !== '';
  }

  /** A String parameter (an Integer given as a number is read as its digits). */
  string(name: string): string | undefined {
    const value = this.#values[name];
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  }

  integer(name: string): number | undefined {
    const value = this.#values[name];
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : undefined;
  }

  boolean(name: string): boolean {
    const value = this.#values[name];
    return value === true || value === 'true' || value === '1' || value === 1;
  }

  /** An object or array parameter: JSON-serialized in string forms. Undefined when absent; null when unreadable. */
  json(name: string): unknown {
    const value = this.#values[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      return null;
    }
  }

  /** A parameter that is a file: an upload in this field, or a string (a URL, a file_id, "attach://<name>"). */
  file(name: string): UploadedFile | string | undefined {
    return this.files.get(name) ?? this.string(name);
  }
}

/** The query string merged with the body, whichever way the body came. */
export async function paramsOf(query: unknown, body: unknown, contentType: string | undefined): Promise<Params | undefined> {
  const values: Record<string, unknown> = { ...firstValues(query) };
  const files = new Map<string, UploadedFile>();
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (rawBody(body).length === 0) return new Params(values, files);
  if (type === 'application/json') {
    const parsed = jsonBody(body);
    if (!isPlainObject(parsed)) return undefined;
    Object.assign(values, parsed);
  } else if (type === 'application/x-www-form-urlencoded') {
    for (const [name, value] of new URLSearchParams(rawBody(body).toString('utf8'))) values[name] = value;
  } else if (type === 'multipart/form-data') {
    const form = await multipartBody(body, contentType!);
    if (!form) return undefined;
    for (const [name, value] of form) {
      if (typeof value === 'string') values[name] = value;
      else files.set(name, { bytes: Buffer.from(await value.arrayBuffer()), filename: value.name, type: value.type });
    }
  }
  return new Params(values, files);
}
