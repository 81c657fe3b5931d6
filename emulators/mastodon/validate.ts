// A request's parameters as Mastodon reads them (https://docs.joinmastodon.org/client/intro/#parameters):
// a query string, a form (urlencoded or multipart) or a JSON body; in forms an array is `name[]`
// repeated and a hash `name[key]` (`media_ids[]`, `poll[options][]`, `poll[expires_in]`). Then what
// POST /api/v1/statuses validates: the text's length as StatusLengthValidator counts it
// (https://docs.joinmastodon.org/user/posting/#text: links as 23 characters, a mention as its local part).
import { isPlainObject, jsonBody, multipartBody, rawBody } from '../shared/http.ts';

export interface UploadedFile {
  bytes: Buffer;
  filename: string;
  type: string;
}

export interface Params {
  values: Record<string, unknown>;
  file?: UploadedFile;
}

/** Sets `name` (with its `[key]` and `[]` parts) in `into`. */
function assign(into: Record<string, unknown>, name: string, value: unknown): void {
  const parts = name.replace(/\]/g, '').split('[');
  let target = into;
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    if (last && part === '') return;
    const nextIsArray = parts[i + 1] === '' && i + 1 === parts.length - 1;
    if (last) target[part] = value;
    else if (nextIsArray) target[part] = [...(Array.isArray(target[part]) ? target[part] as unknown[] : []), value];
    else target = (target[part] = isPlainObject(target[part]) ? target[part] : {}) as Record<string, unknown>;
  });
}

export async function paramsOf(body: unknown, contentType: string | undefined): Promise<Params | undefined> {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const values: Record<string, unknown> = {};
  if (rawBody(body).length === 0) return { values };
  if (type === 'application/json') {
    const parsed = jsonBody(body);
    return isPlainObject(parsed) ? { values: parsed } : undefined;
  }
  if (type === 'application/x-www-form-urlencoded') {
    for (const [name, value] of new URLSearchParams(rawBody(body).toString('utf8'))) assign(values, name, value);
    return { values };
  }
  if (type === 'multipart/form-data') {
    const form = await multipartBody(body, contentType!);
    if (!form) return undefined;
    let file: UploadedFile | undefined;
    for (const [name, value] of form) {
      if (typeof value === 'string') assign(values, name, value);
      else if (name === 'file') file = { bytes: Buffer.from(await value.arrayBuffer()), filename: value.name, type: value.type };
    }
    return { values, ...(file ? { file } : {}) };
  }
  return undefined;
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined);
export const bool = (value: unknown): boolean => value === true || value === 'true' || value === '1';
export const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)]);

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The status's length as Mastodon counts it: content warning and text together, in grapheme clusters. */
export function statusLength(text: string, spoilerText: string, perUrl: number): number {
  const countable = text
    .replace(/https?:\/\/[^\s<>"]+?(?=[.,!?:;)\]'"]*(?:\s|$))/gi, 'x'.repeat(perUrl))
    .replace(/(^|[^/\w])@([a-z0-9_]+(?:[a-z0-9_.-]+[a-z0-9_]+)?)@[\w.-]+\w/gi, '$1@$2');
  return [...segmenter.segment(spoilerText + countable)].length;
}
