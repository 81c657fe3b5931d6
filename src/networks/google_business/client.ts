// The My Business v4 localPosts calls publishing makes (create, get, list one page), through the one
// network HTTP client (../http.ts), and what Google's error envelope {error:{code, message, status,
// details}} means for a post: a location that may not post (FAILED_PRECONDITION), one the account no
// longer manages (PERMISSION_DENIED), a token without the scope, field violations (a ValidationError's
// errorDetails, a BadRequest's fieldViolations), a photo Google could not fetch, and quotas (429).
import { PublishError } from '../../core/errors.ts';
import { NetworkHttp, retryAfterMs, type Failure, type NetworkAnswer } from '../http.ts';

/** One metric's series of a fetchMultiDailyMetricsTimeSeries answer. */
export interface DailyMetricSeries {
  dailyMetric?: string;
  timeSeries?: { datedValues?: { date?: { year?: number; month?: number; day?: number }; value?: string }[] };
}

export type LocalPostState = 'LOCAL_POST_STATE_UNSPECIFIED' | 'PROCESSING' | 'LIVE' | 'REJECTED' | 'SCHEDULED' | 'RECURRING';

/** The LocalPost fields Crier reads back. */
export interface LocalPost {
  /** "accounts/{a}/locations/{l}/localPosts/{id}" */
  name: string;
  summary?: string;
  topicType?: string;
  state?: LocalPostState;
  searchUrl?: string;
  createTime?: string;
  event?: { title?: string };
  media?: { sourceUrl?: string; googleUrl?: string }[];
}

/** Google's quotas are per minute (300 QPM per project, 10 edits a minute per profile): a 429 waits one. */
const QUOTA_WAIT_MS = 60_000;
/** Shared.Types/ErrorCode: 1000-1099 are the photo codes (PHOTO_FETCH_FAILED, PHOTO_UPLOAD_FAILED). */
const ERROR_CODE_NAMES: Record<number, string> = {
  1: 'MISSING_VALUE', 2: 'INVALID_VALUE', 3: 'INVALID_CHARACTERS', 4: 'TOO_MANY_ITEMS', 5: 'READ_ONLY', 6: 'OVERLAPPING_RANGES',
  7: 'INVERTED_RANGE', 8: 'VALUE_OUTSIDE_ALLOWED_RANGE', 9: 'MISSING_DEPENDENT_FIELD', 10: 'FIELD_HAS_DEPENDENCIES', 11: 'UNSUPPORTED_VALUE',
  12: 'EXPIRED_VALUE', 1000: 'PHOTO_FETCH_FAILED', 1001: 'PHOTO_UPLOAD_FAILED',
};

export class GoogleBusinessClient {
  readonly #http: NetworkHttp;
  /** "accounts/{a}/locations/{l}" */
  readonly #location: string;

  /** `apiUrl`: mybusiness.googleapis.com, or businessprofileperformance.googleapis.com for `dailyMetrics`. */
  constructor(apiUrl: string, accessToken: string, location: string) {
    this.#location = location;
    this.#http = new NetworkHttp({
      network: 'google_business',
      baseUrl: apiUrl,
      headers: () => ({ authorization: `Bearer ${accessToken}` }),
      reasonOf,
      classify: (answer, reason) => classify(answer, reason, location),
    });
  }

  /** localPosts.create: the post as Google stored it. */
  async create(body: Record<string, unknown>): Promise<LocalPost> {
    const { body: post, text } = await this.#http.call({ url: `/v4/${this.#location}/localPosts`, method: 'POST', json: body });
    if (!isLocalPost(post)) throw new PublishError('unknown', `google_business: the post was accepted without its name (${text.slice(0, 200)})`);
    return post;
  }

  /** localPosts.get by the post's name. */
  async get(name: string): Promise<LocalPost> {
    const { body: post, text } = await this.#http.call({ url: `/v4/${name}` });
    if (!isLocalPost(post)) throw new PublishError('retryable', `google_business: ${name} was read without its name (${text.slice(0, 200)})`, undefined, 'server');
    return post;
  }

  /** One page of the location's posts (`pageToken` from the previous one). */
  async list(pageToken: string | undefined, pageSize: number): Promise<{ posts: LocalPost[]; next: string | undefined }> {
    const query = new URLSearchParams({ pageSize: String(pageSize), ...(pageToken ? { pageToken } : {}) });
    const { body } = await this.#http.call({ url: `/v4/${this.#location}/localPosts?${query}` });
    const page = (body ?? {}) as { localPosts?: unknown[]; nextPageToken?: string };
    const posts = Array.isArray(page.localPosts) ? page.localPosts.filter(isLocalPost) : [];
    return { posts, next: typeof page.nextPageToken === 'string' && page.nextPageToken ? page.nextPageToken : undefined };
  }

  /** localPosts.delete by the post's name (an empty answer). */
  async delete(name: string): Promise<void> {
    await this.#http.call({ url: `/v4/${name}`, method: 'DELETE' });
  }

  /**
   * Performance API locations.fetchMultiDailyMetricsTimeSeries of the location ("locations/{l}",
   * without the account) over whole days, UTC dates inclusive.
   */
  async dailyMetrics(metrics: readonly string[], start: Date, end: Date): Promise<DailyMetricSeries[]> {
    const query = new URLSearchParams();
    for (const metric of metrics) query.append('dailyMetrics', metric);
    for (const [which, date] of [['start_date', start], ['end_date', end]] as const) {
      query.set(`dailyRange.${which}.year`, String(date.getUTCFullYear()));
      query.set(`dailyRange.${which}.month`, String(date.getUTCMonth() + 1));
      query.set(`dailyRange.${which}.day`, String(date.getUTCDate()));
    }
    const location = this.#location.replace(/^accounts\/[^/]+\//, '');
    const { body } = await this.#http.call({ url: `/v1/${location}:fetchMultiDailyMetricsTimeSeries?${query}` });
    const groups = (body as { multiDailyMetricTimeSeries?: { dailyMetricTimeSeries?: DailyMetricSeries[] }[] } | undefined)?.multiDailyMetricTimeSeries ?? [];
    return groups.flatMap((g) => g.dailyMetricTimeSeries ?? []);
  }
}

const isLocalPost = (value: unknown): value is LocalPost => typeof (value as LocalPost | undefined)?.name === 'string';

interface GoogleError {
  code?: number;
  message?: string;
  status?: string;
  details?: { '@type'?: string; reason?: string; errorDetails?: ErrorDetail[]; fieldViolations?: { field?: string; description?: string }[] }[];
}

interface ErrorDetail {
  code?: number;
  field?: string;
  message?: string;
}

const errorOf = (body: unknown): GoogleError | undefined => (body as { error?: GoogleError } | undefined)?.error;

/**
 * Google's message, its status and ErrorInfo reasons, then each field violation: "Request contains an
 * invalid argument. (INVALID_ARGUMENT): summary: Must be at most 1500 characters (VALUE_OUTSIDE_ALLOWED_RANGE)".
 */
function reasonOf(body: unknown): string | undefined {
  const error = errorOf(body);
  if (!error || typeof error !== 'object') return typeof body === 'string' && body ? body.slice(0, 200) : undefined;
  const codes = [error.status, ...reasonsOf(error)].filter(Boolean);
  const head = [error.message, codes.length ? `(${codes.join(', ')})` : undefined].filter(Boolean).join(' ');
  const violations = violationsOf(error);
  return violations.length ? `${head}: ${violations.join('; ')}` : head || undefined;
}

/** The field violations of a ValidationError or a BadRequest, one line each. */
function violationsOf(error: GoogleError): string[] {
  return (error.details ?? []).flatMap((d) => [
    ...(d.errorDetails ?? []).map((e) => `${e.field ? `${e.field}: ` : ''}${e.message ?? ''}${e.code !== undefined ? ` (${ERROR_CODE_NAMES[e.code] ?? `code ${e.code}`})` : ''}`),
    ...(d.fieldViolations ?? []).map((v) => `${v.field ? `${v.field}: ` : ''}${v.description ?? ''}`),
  ]);
}

const reasonsOf = (error: GoogleError | undefined): Set<string> => new Set((error?.details ?? []).map((d) => d.reason ?? '').filter(Boolean));
const photoFailed = (error: GoogleError | undefined) => (error?.details ?? []).some((d) => (d.errorDetails ?? []).some((e) => e.code !== undefined && e.code >= 1000 && e.code < 1100));

function classify(answer: NetworkAnswer, reason: string, location: string): Failure | undefined {
  const error = errorOf(answer.body);
  const reasons = reasonsOf(error);
  if (error?.status === 'FAILED_PRECONDITION') {
    return { kind: 'permanent', code: 'forbidden', reason: `the location ${location} cannot post now (${reason}); verify or reinstate it in Business Profile Manager` };
  }
  if (answer.status === 403) {
    if (reasons.has('ACCESS_TOKEN_SCOPE_INSUFFICIENT')) return { kind: 'auth', code: 'auth', reason: `the token lacks the business.manage scope (${reason}); reconnect the account` };
    if (reasons.has('SERVICE_DISABLED') || reasons.has('API_DISABLED')) return { kind: 'permanent', code: 'forbidden', reason: `the Business Profile API is not enabled for the app's Cloud project (${reason})` };
    if (reasons.has('RATE_LIMIT_EXCEEDED')) return { kind: 'retryable', code: 'rate_limited', reason: `rate limited (${reason})`, retryAfterMs: retryAfterMs(answer) ?? QUOTA_WAIT_MS };
    return { kind: 'permanent', code: 'forbidden', reason: `the account does not manage the location ${location} any more (${reason}); reconnect it with a user who manages the location` };
  }
  if (answer.status === 404) return { kind: 'permanent', code: 'not_found', reason: `the location ${location} was not found (${reason}); it may have been removed` };
  if (answer.status === 429) return { kind: 'retryable', code: 'rate_limited', reason: `rate limited (${reason})`, retryAfterMs: retryAfterMs(answer) ?? QUOTA_WAIT_MS };
  if (answer.status === 400 && photoFailed(error)) return { kind: 'permanent', code: 'media_rejected', reason: `Google could not take the photo (${reason})` };
  return undefined;
}
