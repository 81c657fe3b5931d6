// The Business Profile Performance API (businessprofileperformance.googleapis.com, v1) on the Google
// emulator: GET /v1/locations/{id}:fetchMultiDailyMetricsTimeSeries?dailyMetrics=…&dailyMetrics=…
// &dailyRange.start_date.year=…(&month, &day, and end_date). The caller must manage the location (the
// same bearer and location checks as localPosts); the answer is one MultiDailyMetricTimeSeries holding,
// per metric asked, a value for every date of the range — an int64 as a string, left out when zero.
import { badRequest, errorInfo, INSUFFICIENT_SCOPES, INVALID_CREDENTIALS, INVALID_TOKEN_HEADER, MISSING_CREDENTIALS, richError } from '../errors.ts';
import type { Reply } from '../../shared/http.ts';
import type { GoogleWorld } from '../state/world.ts';
import type { BusinessState } from './state.ts';
import { transcodedQuery, type TranscodedParameter } from '../validate/business-query.ts';
import type { QueryValues } from '../validate/query.ts';

const SERVICE = 'businessprofileperformance.googleapis.com';
const METHOD = 'google.mybusiness.businessperformance.v1.BusinessPerformance.FetchMultiDailyMetricsTimeSeries';
const SCOPE = 'https://www.googleapis.com/auth/business.manage';
const VERB = 'fetchMultiDailyMetricsTimeSeries';
const INVALID = 'Request contains an invalid argument.';
const DAY_MS = 86_400_000;

/** The DailyMetric enum (DailyMetric reference page); BUSINESS_CONVERSATIONS is deprecated but still accepted. */
export const DAILY_METRICS = [
  'BUSINESS_IMPRESSIONS_DESKTOP_MAPS', 'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH', 'BUSINESS_IMPRESSIONS_MOBILE_MAPS',
  'BUSINESS_IMPRESSIONS_MOBILE_SEARCH', 'BUSINESS_CONVERSATIONS', 'BUSINESS_DIRECTION_REQUESTS', 'CALL_CLICKS', 'WEBSITE_CLICKS',
  'BUSINESS_BOOKINGS', 'BUSINESS_FOOD_ORDERS', 'BUSINESS_FOOD_MENU_CLICKS',
];

type GoogleDate = { year: number; month: number; day: number };
type Query = Record<string, string | undefined>;

/**
 * The method's query fields: `dailyMetrics` (repeated) and the six parts of `dailyRange`, by their
 * JSON name (`dailyRange.startDate.year`, what Google's clients send) or their proto name
 * (`dailyRange.start_date.year`, the reference's example); transcoding takes either.
 */
const QUERY_FIELDS: Record<string, TranscodedParameter> = {
  dailyMetrics: { repeated: true },
  ...Object.fromEntries(['start', 'end'].flatMap((which) => [`${which}_date`, `${which}Date`])
    .flatMap((date) => ['year', 'month', 'day'].map((part) => [`dailyRange.${date}.${part}`, {}]))),
};

export function performanceRoute(world: GoogleWorld, state: BusinessState) {
  return (authorization: string | undefined, target: string, values: QueryValues): Reply => {
    const [locationId, verb] = target.split(':');
    if (verb !== VERB || !locationId) return richError(404, `Method not found: GET /v1/locations/${target}`);
    const location = `locations/${locationId}`;
    const refused = accessRefusal(world, authorization, location);
    if (refused) return refused;
    const bound = transcodedQuery(QUERY_FIELDS, values);
    if (!bound.ok) return bound.reply;
    const { query, lists } = bound;
    const metrics = lists.dailyMetrics ?? [];
    if (!metrics.length) return richError(400, INVALID, [badRequest('daily_metrics', 'At least one daily metric is required.')]);
    const unknown = metrics.find((m) => !DAILY_METRICS.includes(m));
    if (unknown !== undefined) {
      const message = `Invalid value at 'daily_metrics' (type.googleapis.com/google.mybusiness.businessperformance.v1.DailyMetric), "${unknown}"`;
      return richError(400, message, [badRequest('daily_metrics', message)]);
    }
    const start = dateOf(query, 'start');
    const end = dateOf(query, 'end');
    if (!start || !end) return richError(400, INVALID, [badRequest('daily_range', 'A valid start date and end date are required.')]);
    if (toMs(end) < toMs(start)) return richError(400, INVALID, [badRequest('daily_range', 'The start date must not be after the end date.')]);
    const stored = state.dailyMetrics.get(location);
    const dailyMetricTimeSeries = [...new Set(metrics)].map((dailyMetric) => {
      const values = new Map((stored?.get(dailyMetric) ?? []).map((d) => [d.date, d.value]));
      const datedValues = daysOf(start, end).map((date) => {
        const value = values.get(isoOf(date)) ?? 0;
        return { date, ...(value ? { value: String(value) } : {}) };
      });
      return { dailyMetric, timeSeries: { datedValues } };
    });
    return { status: 200, body: { multiDailyMetricTimeSeries: [{ dailyMetricTimeSeries }] } };
  };
}

/** Google's 401/403 for the token, 404 for an unknown location, 403 for one the user does not manage. */
function accessRefusal(world: GoogleWorld, authorization: string | undefined, location: string): Reply | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) return richError(401, MISSING_CREDENTIALS, [errorInfo('CREDENTIALS_MISSING', SERVICE, METHOD)]);
  const check = world.oauth.checkAccess(match[1]);
  if (!check.ok) return richError(401, INVALID_CREDENTIALS, check.reason === 'expired' ? [errorInfo('ACCESS_TOKEN_EXPIRED', SERVICE, METHOD)] : [], INVALID_TOKEN_HEADER);
  if (!check.scopes.includes(SCOPE)) return richError(403, INSUFFICIENT_SCOPES, [errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT', SERVICE, METHOD)]);
  const account = [...world.store.accounts.values()].find((a) => a.locations.some((l) => l.name === location));
  if (!account) return richError(404, 'Requested entity was not found.');
  if (account.ownerId !== check.userId) return richError(403, 'The caller does not have permission');
  return undefined;
}

/** `dailyRange.start_date.year` (the reference's example) or `dailyRange.startDate.year` (JSON names). */
function dateOf(query: Query, which: 'start' | 'end'): GoogleDate | undefined {
  const part = (field: string) => query[`dailyRange.${which}_date.${field}`] ?? query[`dailyRange.${which}Date.${field}`];
  const [year, month, day] = ['year', 'month', 'day'].map((f) => Number(part(f)));
  if (![year, month, day].every((n) => Number.isInteger(n))) return undefined;
  const date = { year: year!, month: month!, day: day! };
  const back = new Date(toMs(date));
  return back.getUTCFullYear() === year && back.getUTCMonth() + 1 === month && back.getUTCDate() === day ? date : undefined;
}

const toMs = (d: GoogleDate) => Date.UTC(d.year, d.month - 1, d.day);
const isoOf = (d: GoogleDate) => new Date(toMs(d)).toISOString().slice(0, 10);

function daysOf(start: GoogleDate, end: GoogleDate): GoogleDate[] {
  const days: GoogleDate[] = [];
  for (let ms = toMs(start); ms <= toMs(end); ms += DAY_MS) {
    const d = new Date(ms);
    days.push({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
  }
  return days;
}
