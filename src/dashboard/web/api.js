// The dashboard's client of the public /v1 API: the key lives in this tab's session storage only,
// every call is a plain fetch with it, and every failure is an ApiError carrying the API's `details`.
const KEY_NAME = 'crier.apiKey';

export const session = {
  key: () => sessionStorage.getItem(KEY_NAME),
  signIn: (key) => sessionStorage.setItem(KEY_NAME, key),
  signOut: () => sessionStorage.removeItem(KEY_NAME),
};

/** The rate-limit headers of the last answer: what the key may still do in this window. */
export const rateLimit = { limit: null, remaining: null, reset: null };

let onSignedOut = () => {};
/** Called when the API refuses the key (revoked, mistyped): the dashboard goes back to sign-in. */
export function whenSignedOut(callback) { onSignedOut = callback; }

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error || (status ? `The API answered ${status}` : 'The API could not be reached'));
    this.status = status;
    this.code = body?.code ?? null;
    /** Per field: { field, message }. */
    this.details = Array.isArray(body?.details) ? body.details : [];
    /** Where the subscription is managed, when the organization's has lapsed (402). */
    this.billingUrl = typeof body?.billingUrl === 'string' ? body.billingUrl : null;
  }
}

const parse = (text) => { try { return text ? JSON.parse(text) : null; } catch { return { error: text }; } };

function rememberRateLimit(headers) {
  const limit = headers.get('x-ratelimit-limit');
  if (limit === null) return;
  Object.assign(rateLimit, { limit: Number(limit), remaining: Number(headers.get('x-ratelimit-remaining')), reset: headers.get('x-ratelimit-reset') });
}

/** Calls the API with the session's key (or `key`): the parsed body, or an ApiError. */
export async function api(path, { method = 'GET', body, headers = {}, key = session.key() } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, null);
  }
  rememberRateLimit(response.headers);
  const parsed = parse(await response.text());
  if (response.status === 401 && key === session.key()) onSignedOut();
  if (!response.ok) throw new ApiError(response.status, parsed);
  return parsed;
}

/** A query string of the non-empty values. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== '' && value !== null && value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** PUTs the bytes to the signed URL; XMLHttpRequest because fetch reports no upload progress. */
function putBytes(url, file, onProgress) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    if (file.type) request.setRequestHeader('content-type', file.type);
    request.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
    request.onload = () => (request.status < 300 ? resolve() : reject(new ApiError(request.status, parse(request.responseText))));
    request.onerror = () => reject(new ApiError(0, { error: 'The upload was interrupted' }));
    request.send(file);
  });
}

/** The media flow: a signed upload URL, the bytes, then confirm. The confirmed media (with its `url`). */
export async function uploadMedia(file, onProgress) {
  const { data: upload } = await api('/v1/media/upload', { method: 'POST', body: { filename: file.name, ...(file.type ? { content_type: file.type } : {}) } });
  await putBytes(upload.upload_url, file, onProgress);
  const { data: media } = await api(`/v1/media/${upload.id}/confirm`, { method: 'POST', body: {} });
  return media;
}

let description;
/** The API's own OpenAPI description (public): the networks' option blocks and the events come from it. */
export function apiDescription() {
  description ??= fetch('/openapi.json').then((r) => r.json());
  return description;
}
