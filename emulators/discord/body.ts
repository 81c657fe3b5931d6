// A webhook request's body as Discord takes it (https://discord.com/developers/docs/reference#uploading-files):
// JSON; or multipart/form-data with the JSON as `payload_json` (or its fields as form fields) and each
// file as `files[n]`, matched to its entry of `attachments` by id n; or x-www-form-urlencoded fields.
import { jsonBody, multipartBody, isPlainObject, rawBody } from '../shared/http.ts';

export interface UploadedFile {
  index: number;
  bytes: Buffer;
  filename: string;
  type: string;
}

export interface WebhookBody {
  payload: Record<string, unknown>;
  files: UploadedFile[];
}

/** The body read, or null when it cannot be (invalid JSON, a broken form). */
export async function readBody(body: unknown, contentType: string | undefined): Promise<WebhookBody | null> {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (rawBody(body).length === 0) return { payload: {}, files: [] };
  if (type === 'application/json') {
    const parsed = jsonBody(body);
    return isPlainObject(parsed) ? { payload: parsed as Record<string, unknown>, files: [] } : null;
  }
  if (type === 'application/x-www-form-urlencoded') {
    return { payload: Object.fromEntries(new URLSearchParams(rawBody(body).toString('utf8'))), files: [] };
  }
  if (type === 'multipart/form-data') return multipartOf(body, contentType!);
  return null;
}

async function multipartOf(body: unknown, contentType: string): Promise<WebhookBody | null> {
  const form = await multipartBody(body, contentType);
  if (!form) return null;
  let payload: Record<string, unknown> = {};
  const files: UploadedFile[] = [];
  for (const [name, value] of form) {
    if (typeof value !== 'string') {
      const index = /^files\[(\d+)\]$/.exec(name)?.[1];
      files.push({ index: index === undefined ? files.length : Number(index), bytes: Buffer.from(await value.arrayBuffer()), filename: value.name, type: value.type });
    } else if (name === 'payload_json') {
      try {
        const parsed = JSON.parse(value);
        if (!isPlainObject(parsed)) return null;
        payload = { ...payload, ...(parsed as Record<string, unknown>) };
      } catch {
        return null;
      }
    } else payload[name] = value;
  }
  return { payload, files };
}
