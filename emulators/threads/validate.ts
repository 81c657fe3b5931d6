// Request validation: where Graph parameters come from (the query string, a form body or a JSON body,
// as Meta accepts all three; a body parameter wins over the same one in the query), the API version
// in the path, and the parameters each endpoint takes, checked against what the Threads docs state
// (posts doc, publishing reference, user reference, insights reference). Each check answers Meta's
// refusal or undefined.
import { isPlainObject, jsonBody, rawBody, type Reply } from '../shared/http.ts';
import { linksIn, threadsLength } from './containers.ts';
import { invalidThreadsParameter, objectNotFound } from './errors.ts';
import type { ContainerType, ThreadsWorld } from './state.ts';

export const CONTAINER_TYPES: ContainerType[] = ['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'];
/** Reply-management doc: the five reply_control values. */
const REPLY_CONTROLS = ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only'];
/** Posts doc: 500 characters, at most 5 links, 2 to 20 carousel items. */
const MAX_TEXT = 500;
const MAX_LINKS = 5;
const MIN_CHILDREN = 2;
const MAX_CHILDREN = 20;
/** Publishing reference: alt_text is at most 1,000 characters. */
const MAX_ALT_TEXT = 1000;
/** User reference: `since` is at least 1688540400 (July 5, 2023, Threads' launch). */
export const EARLIEST_LIST_SINCE_SECS = 1688540400;

/** The Graph parameters of a request (query, then the form or JSON body over it). */
export function paramsOf(req: { query: Record<string, string | undefined>; body: unknown; headers: Record<string, string | string[] | undefined> }): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...req.query };
  const type = String(req.headers['content-type'] ?? '');
  if (/application\/x-www-form-urlencoded/i.test(type)) {
    for (const [name, value] of new URLSearchParams(rawBody(req.body).toString('utf8'))) out[name] = value;
  } else if (/application\/json/i.test(type)) {
    const body = jsonBody(req.body);
    if (isPlainObject(body)) {
      for (const [name, value] of Object.entries(body)) out[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
  }
  return out;
}

/** The `v1.0` of a Graph path; anything else names no node. */
export function versionProblem(version: string | undefined): Reply | undefined {
  return /^v\d+\.\d+$/.test(version ?? '') ? undefined : objectNotFound(version ?? '');
}

/** Epoch seconds or a date string, as Graph's since/until take them (ms), or undefined. */
export function timeParam(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? date : undefined;
}

/**
 * since/until of a user's posts or replies (user reference): since at least 1688540400 and before
 * until; until not later than now and after since.
 */
export function listRangeProblem(params: Record<string, string | undefined>, nowMs: number): Reply | undefined {
  const since = timeParam(params.since);
  const until = timeParam(params.until);
  if (since !== undefined && since < EARLIEST_LIST_SINCE_SECS * 1000) {
    return invalidThreadsParameter(`(#100) Param since must be greater than or equal to ${EARLIEST_LIST_SINCE_SECS}`);
  }
  if (until !== undefined && until > nowMs) return invalidThreadsParameter('(#100) Param until must be less than or equal to the current time');
  if (since !== undefined && until !== undefined && since >= until) return invalidThreadsParameter('(#100) Param since must be less than until');
  return undefined;
}

/** A comma-separated `metric` list, each one of `known`. */
export function metricsOf(value: string | undefined, known: readonly string[]): string[] | Reply {
  const metrics = (value ?? '').split(',').map((m) => m.trim()).filter(Boolean);
  if (metrics.length === 0) return invalidThreadsParameter('(#100) The parameter metric is required');
  const unknown = metrics.find((m) => !known.includes(m));
  return unknown ? invalidThreadsParameter(`(#100) metric[0] must be one of the following values: ${known.join(', ')}`) : metrics;
}

/** Insights reference: follower_demographics "is not compatible with the since and until parameters". */
export function demographicsRangeProblem(metrics: string[], params: Record<string, string | undefined>): Reply | undefined {
  if (!metrics.includes('follower_demographics') || (params.since === undefined && params.until === undefined)) return undefined;
  return invalidThreadsParameter('(#100) The metric follower_demographics does not support the since and until parameters');
}

/** What Threads refuses at container creation, before anything is fetched. */
export function containerProblem(world: ThreadsWorld, userId: string, mediaType: ContainerType, isItem: boolean, params: Record<string, string | undefined>): Reply | undefined {
  const text = params.text;
  if (mediaType === 'TEXT' && !text) return invalidThreadsParameter('(#100) The parameter text is required for TEXT posts');
  if (mediaType === 'IMAGE' && !params.image_url) return invalidThreadsParameter('(#100) The parameter image_url is required for IMAGE posts');
  if (mediaType === 'VIDEO' && !params.video_url) return invalidThreadsParameter('(#100) The parameter video_url is required for VIDEO posts');
  if (isItem && (mediaType === 'TEXT' || mediaType === 'CAROUSEL')) return invalidThreadsParameter('(#100) Only IMAGE and VIDEO containers can be carousel items');
  if (isItem && (text || params.reply_to_id)) return invalidThreadsParameter('(#100) A carousel item takes no text and no reply_to_id');
  if (text && threadsLength(text) > MAX_TEXT) return invalidThreadsParameter(`(#100) Param text must be at most ${MAX_TEXT} characters long.`);
  if (text && linksIn(text).length > MAX_LINKS) {
    return invalidThreadsParameter(`(#100) THREADS_API__LINK_LIMIT_EXCEEDED: a post can contain at most ${MAX_LINKS} links; this one has ${linksIn(text).length}.`);
  }
  if (params.alt_text && params.alt_text.length > MAX_ALT_TEXT) return invalidThreadsParameter(`(#100) Param alt_text must be at most ${MAX_ALT_TEXT} characters long.`);
  if (params.reply_control && !REPLY_CONTROLS.includes(params.reply_control)) return invalidThreadsParameter(`(#100) Param reply_control must be one of {${REPLY_CONTROLS.join(', ')}}`);
  if (params.allowlisted_country_codes !== undefined && !params.allowlisted_country_codes.split(',').every((c) => /^[A-Z]{2}$/.test(c.trim()))) {
    return invalidThreadsParameter('(#100) Param allowlisted_country_codes must be a list of ISO 3166-1 alpha-2 country codes');
  }
  if (params.reply_to_id && !world.publishing.media.some((m) => m.id === params.reply_to_id)) return objectNotFound(params.reply_to_id);
  if (mediaType === 'CAROUSEL') return childrenProblem(world, userId, params.children);
  return undefined;
}

/** A carousel's children: 2 to 20 item containers of the same user. */
function childrenProblem(world: ThreadsWorld, userId: string, children: string | undefined): Reply | undefined {
  const ids = (children ?? '').split(',').map((c) => c.trim()).filter(Boolean);
  if (ids.length < MIN_CHILDREN || ids.length > MAX_CHILDREN) return invalidThreadsParameter(`(#100) A carousel takes ${MIN_CHILDREN} to ${MAX_CHILDREN} children; got ${ids.length}`);
  for (const id of ids) {
    const child = world.publishing.containers.get(id);
    if (!child || child.userId !== userId || !child.isCarouselItem) return invalidThreadsParameter(`(#100) The child ${id} is not a carousel item container of this user`);
  }
  return undefined;
}
