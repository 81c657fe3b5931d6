// X's error bodies. Two families coexist on api.x.com: RFC 7807-style problems
// ({title, detail, type, status}) and the invalid-request envelope whose `errors` items carry
// `parameters` and `message`. Texts below are the ones X is observed to send.
import type { Reply } from '../shared/http.ts';

const PROBLEMS = 'https://api.x.com/2/problems';

function problem(status: number, title: string, detail: string): Reply {
  return { status, body: { title, detail, type: 'about:blank', status } };
}

export const unauthorized = (): Reply => problem(401, 'Unauthorized', 'Unauthorized');
export const forbidden = (detail = 'Forbidden'): Reply => problem(403, 'Forbidden', detail);
export const serverError = (status: number): Reply => problem(status, STATUS_TITLES[status] ?? 'Error', STATUS_TITLES[status] ?? 'Error');

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * 429: the body X's rate-limit page shows, `{"errors":[{"code":88,"message":"Rate limit exceeded"}]}`
 * (docs.x.com/x-api/fundamentals/rate-limits, "Handling rate limits"); the only 429 body X's documents
 * give in full.
 */
export const rateLimitExceeded = (): Reply => ({ status: 429, body: { errors: [{ code: 88, message: 'Rate limit exceeded' }] } });

/**
 * A quote post from a self-serve (pay-per-use) app: "Quote-posting (using the `quote_tweet_id`
 * parameter) requires an Enterprise plan. It is not available on self-serve (pay-per-use) tiers."
 * (docs.x.com/x-api/posts/create-post). The page gives no answer body: 403 and the `client-forbidden`
 * type are the response-codes page's for an app that "lacks required access"; the detail is the page's
 * sentence.
 */
export const quotePostNotAvailable = (): Reply => ({
  status: 403,
  body: {
    title: 'Client Forbidden',
    detail: 'Quote-posting (using the quote_tweet_id parameter) requires an Enterprise plan. It is not available on self-serve (pay-per-use) tiers.',
    type: `${PROBLEMS}/client-forbidden`,
    status: 403,
  },
});

/** A video longer than the posting user may post: X's 403, word for word (docs.x.com/x-api/posts/create-post). */
export const videoTooLong = (minutes: number): Reply =>
  forbidden(`This user is not allowed to post a video longer than ${minutes} minutes.`);

export const duplicateContent = (): Reply => forbidden('You are not allowed to create a Tweet with duplicate content.');
export const replyTargetGone = (): Reply =>
  forbidden('You attempted to reply to a Tweet that is deleted or not visible to you.');

/**
 * The self-serve reply rule's refusal (23 Feb 2026). X's exact wording is not confirmed by a source;
 * this text says what the changelog says.
 */
export const replyNotSummoned = (): Reply =>
  forbidden('Reply to this conversation is not allowed because you have not been mentioned or otherwise engaged by the author of the post you are replying to.');

/** A field the caller may not read on this post (private metrics of someone else's or an old post). Wording not confirmed by a source. */
export function fieldUnauthorized(field: string, id: string) {
  return {
    value: id,
    detail: `Sorry, you are not authorized to access '${field}' on the Tweet with ids: [${id}].`,
    title: 'Field Authorization Error',
    resource_type: 'tweet',
    field,
    parameter: 'tweet.fields',
    resource_id: id,
    type: 'https://api.twitter.com/2/problems/not-authorized-for-field',
  };
}

export interface ParamError {
  parameters?: Record<string, string[]>;
  message: string;
}

/** 400 with X's invalid-request envelope. */
export function invalidRequest(...errors: ParamError[]): Reply {
  return {
    status: 400,
    body: {
      errors: errors.map((e) => ({ parameters: e.parameters ?? {}, message: e.message })),
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: `${PROBLEMS}/invalid-request`,
    },
  };
}

export const badQueryValue = (name: string, value: string): Reply =>
  invalidRequest({ parameters: { [name]: [value] }, message: `The \`${name}\` query parameter value [${value}] is not valid` });

/** A query parameter the operation does not take (wording as X answers it, apihandyman.io 2021). */
export const unknownQueryParameter = (name: string, values: string[], allowed: string[]): Reply =>
  invalidRequest({ parameters: { [name]: values }, message: `The query parameter [${name}] is not one of [${allowed.join(',')}]` });

/** A query parameter given more than once (X lists every value it was given). */
export const duplicateQueryParameter = (name: string, values: string[]): Reply =>
  invalidRequest({ parameters: { [name]: values }, message: `Duplicate parameters are not allowed: the \`${name}\` query parameter` });

export const emptyQueryValue = (name: string): Reply =>
  invalidRequest({ parameters: { [name]: [''] }, message: `The \`${name}\` query parameter can not be empty` });

/** A lookup miss: X answers 200 with only an `errors` item. */
export function notFoundItem(resourceType: 'tweet' | 'user', id: string, parameter = 'id') {
  return {
    value: id,
    detail: `Could not find ${resourceType} with ${parameter}: [${id}].`,
    title: 'Not Found Error',
    resource_type: resourceType,
    parameter,
    resource_id: id,
    type: `${PROBLEMS}/resource-not-found`,
  };
}

/** Unknown routes get the legacy v1.1-style body, as api.x.com still sends it. */
export const pageNotFound = (): Reply => ({
  status: 404,
  body: { errors: [{ message: 'Sorry, that page does not exist', code: 34 }] },
});

export const oauthError = (error: string, description: string): Reply => ({
  status: 400,
  body: { error, error_description: description },
});
