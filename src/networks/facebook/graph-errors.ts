// What a Graph API answer means for a post, for every network reached through graph.facebook.com
// (facebook, instagram). Meta reports most failures in the body, often as HTTP 400, so the code and
// subcode decide, not the status: 190 a dead token; 4/17/32/613/341 and the 80000-80014 range
// throttling, with the wait in the usage headers; 9/2207042 Instagram's publishing limit; 9004,
// 9007 and the 2207xxx subcodes the media; 368 a policy block; 506 a duplicate; 1 and 2 transient;
// 2874008 Page insights of a Page under 100 likes.
import type { Failure, NetworkAnswer } from '../http.ts';

export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
  fbtrace_id?: string;
}

/** When usage headers say nothing of when: Meta's windows are rolling hours; ask again after this. */
const DEFAULT_THROTTLE_MS = 10 * 60_000;
/** "Not ready for publishing" (9007/2207027): the container needs a little longer. */
const NOT_READY_MS = 30_000;
/** The publishing limit refused the publishing call: a rolling 24 h; its slot may free within the hour. */
const LIMIT_RETRY_MS = 3_600_000;

export function graphErrorOf(body: unknown): GraphErrorBody | undefined {
  const error = (body as { error?: unknown } | undefined)?.error;
  return error && typeof error === 'object' ? (error as GraphErrorBody) : undefined;
}

/** Meta's words: the user-facing message when there is one, the code and subcode for support. */
export function graphReason(body: unknown): string | undefined {
  const error = graphErrorOf(body);
  if (!error) return typeof body === 'string' && body ? body.slice(0, 300) : undefined;
  const text = error.error_user_msg && error.error_user_msg !== error.message ? `${error.message} ${error.error_user_msg}` : error.message ?? 'error';
  const codes = [error.code, error.error_subcode].filter((c) => c !== undefined).join('/');
  return codes ? `${text} (#${codes})` : text;
}

const THROTTLE_CODES = new Set([4, 17, 32, 341, 613]);

/**
 * Page insights asked of a Page under 100 likes: error 2874008 of Meta's Pages API error codes ("Facebook
 * Page insights are only available for Pages with at l[east…]",
 * https://developers.facebook.com/documentation/pages-api/error-codes). The page names no code beside
 * it, so the number is looked for in either place, and the words as a last resort.
 */
function tooFewLikesForInsights(error: GraphErrorBody): boolean {
  return error.error_subcode === 2874008 || error.code === 2874008 || /insights are only available for Pages with/i.test(error.message ?? '');
}

/**
 * Reading a Page the token does not manage (a mention's Page) without the app feature Meta reviews
 * for it: #10 "This endpoint requires the 'pages_read_engagement' permission or the 'Page Public
 * Content Access' feature or the 'Page Public Metadata Access' feature…", or the #100 variant "Object
 * does not exist, cannot be loaded due to missing permission or reviewable feature…" naming the
 * same features (restfb/restfb#1190, strohne/Facepager#174). A permission the user can grant
 * would not help: the app needs the feature.
 */
function missingPageFeature(error: GraphErrorBody): boolean {
  return (error.code === 10 || error.code === 100) && /Page Public (Metadata|Content) Access/i.test(error.message ?? '');
}

export function classifyGraph(answer: NetworkAnswer, reason: string): Failure | undefined {
  const error = graphErrorOf(answer.body);
  if (!error || typeof error.code !== 'number') return undefined;
  const { code } = error;
  const sub = error.error_subcode;
  if (code === 190 || code === 102) return { kind: 'auth', code: 'auth', reason: `the access token was refused (${reason}); reconnect the account` };
  if (THROTTLE_CODES.has(code) || (code >= 80000 && code <= 80014)) {
    return { kind: 'retryable', code: 'rate_limited', reason: `rate limited (${reason})`, retryAfterMs: usageWaitMs(answer) ?? DEFAULT_THROTTLE_MS };
  }
  if (code === 9 && sub === 2207042) return { kind: 'retryable', code: 'quota', reason: `the account's publishing limit is reached (${reason})`, retryAfterMs: LIMIT_RETRY_MS };
  if (code === 9007 && sub === 2207027) return { kind: 'retryable', code: 'server', reason: `the media is not ready yet (${reason})`, retryAfterMs: NOT_READY_MS };
  if (code === -2 && sub === 2207003) return { kind: 'retryable', code: 'server', reason: `Meta timed out downloading the media (${reason})` };
  if (code === 368) return { kind: 'permanent', code: 'forbidden', reason: `Meta blocked the action for policy reasons (${reason})` };
  if (code === 506) return { kind: 'permanent', code: 'duplicate', reason };
  if (code === 9004 || code === 9007 || code === 36003 || code === 352 || (sub !== undefined && sub >= 2207000 && sub < 2208000)) {
    return { kind: 'permanent', code: 'media_rejected', reason };
  }
  if (code === 1 || code === 2) return { kind: 'retryable', code: 'server', reason: `Meta had a transient error (${reason})` };
  // Nothing to grant or retry: the Page must first reach 100 likes. Insights readers report it as why there are no figures.
  if (tooFewLikesForInsights(error)) return { kind: 'permanent', code: 'forbidden', reason: `Meta gives Page insights only to Pages with 100 or more likes (${reason})` };
  if (missingPageFeature(error)) {
    return { kind: 'permanent', code: 'forbidden', reason: `the Meta app lacks the "Page Public Metadata Access" feature, which reading a Page it does not manage needs (${reason}); request it in the app's App Review — reconnecting the account does not help` };
  }
  if (code === 10 || (code >= 200 && code < 300)) return { kind: 'permanent', code: 'forbidden', reason: `permission missing (${reason}); reconnect the account granting it` };
  if (code === 100 && sub === 33) return { kind: 'permanent', code: 'not_found', reason };
  return { kind: 'permanent', code: 'invalid', reason };
}

/**
 * How long Meta says to wait, from X-Business-Use-Case-Usage (estimated_time_to_regain_access, in
 * minutes, per object); or, when an app or Page usage header is at 100%, the default window.
 */
export function usageWaitMs(answer: Pick<NetworkAnswer, 'header'>): number | undefined {
  const buc = parseJson(answer.header('x-business-use-case-usage'));
  let minutes = 0;
  if (buc && typeof buc === 'object') {
    for (const entries of Object.values(buc as Record<string, unknown>)) {
      for (const entry of Array.isArray(entries) ? entries : []) {
        const m = Number((entry as { estimated_time_to_regain_access?: unknown }).estimated_time_to_regain_access);
        if (Number.isFinite(m)) minutes = Math.max(minutes, m);
      }
    }
  }
  if (minutes > 0) return minutes * 60_000;
  for (const name of ['x-app-usage', 'x-page-usage']) {
    const usage = parseJson(answer.header(name)) as Record<string, unknown> | undefined;
    if (usage && Object.values(usage).some((v) => Number(v) >= 100)) return DEFAULT_THROTTLE_MS;
  }
  return undefined;
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
