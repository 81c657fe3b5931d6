// Analytics (API v5): pins/analytics (GET /v5/pins/{pin_id}/analytics) and user_account/analytics
// (GET /v5/user_account/analytics). Both take start_date/end_date (UTC YYYY-MM-DD, the start at most 90
// days back, the range at most 90 days) and metric_types (comma-separated, from the operation's own
// list), sum the days a test seeded over the range, and answer `{all: {daily_metrics, summary_metrics,
// lifetime_metrics?}}` — the key `all` being the NO_SPLIT group. Refusals are Pinterest's `{code, message}`.
import { firstValues, type Reply } from '../../shared/http.ts';
import { apiError, pinNotFound } from '../errors.ts';
import type { DailyMetrics, PinterestPin } from '../state.ts';
import { operation, type ApiContext, type Route } from './common.ts';
import { ownPin } from './pins.ts';

const DAY_MS = 86_400_000;
const MAX_DAYS = 90;

const PIN_STANDARD = ['IMPRESSION', 'OUTBOUND_CLICK', 'PIN_CLICK', 'SAVE', 'SAVE_RATE', 'TOTAL_COMMENTS', 'TOTAL_REACTIONS', 'USER_FOLLOW', 'PROFILE_VISIT'];
const PIN_VIDEO = ['IMPRESSION', 'OUTBOUND_CLICK', 'PIN_CLICK', 'SAVE', 'SAVE_RATE', 'VIDEO_MRC_VIEW', 'VIDEO_10S_VIEW', 'QUARTILE_95_PERCENT_VIEW', 'VIDEO_V50_WATCH_TIME', 'VIDEO_START', 'VIDEO_AVG_WATCH_TIME', 'TOTAL_COMMENTS', 'TOTAL_REACTIONS'];
/** Lifetime-only figures: answered under lifetime_metrics, not per day. */
const LIFETIME = new Set(['TOTAL_COMMENTS', 'TOTAL_REACTIONS']);
const ACCOUNT = ['ENGAGEMENT', 'ENGAGEMENT_RATE', 'IMPRESSION', 'OUTBOUND_CLICK', 'OUTBOUND_CLICK_RATE', 'PIN_CLICK', 'PIN_CLICK_RATE', 'SAVE', 'SAVE_RATE'];
/** Rates are not sums: the emulator averages them over the days that have them. */
const isRate = (metric: string) => metric.endsWith('_RATE') || metric === 'VIDEO_AVG_WATCH_TIME';

type Query = Record<string, string | undefined>;

/** The one answer Pinterest gives to any parameter of these operations it refuses. */
const invalidPinQuery = () => apiError(400, 400, 'Invalid pins analytics parameters.');
const invalidAccountQuery = () => apiError(400, 400, 'Invalid user accounts analytics parameters.');

export function registerAnalyticsRoutes(route: Route, ctx: ApiContext): void {
  const { state } = ctx;
  operation(route, ctx, { method: 'GET', url: '/v5/pins/:pin_id/analytics', template: '/pins/{pin_id}/analytics', refuse: invalidPinQuery }, (u, req) => {
    const pin = ownPin(state, u, req);
    if (!pin) return pinNotFound();
    return pinAnalytics(pin, state.pinDays.get(pin.id) ?? [], state.pinLifetime.get(pin.id) ?? {}, firstValues(req.query), ctx.now());
  });
  operation(route, ctx, { method: 'GET', url: '/v5/user_account/analytics', template: '/user_account/analytics', refuse: invalidAccountQuery }, (u, req) => {
    return accountAnalytics(state.accountDays.get(u.id) ?? [], firstValues(req.query), ctx.now());
  });
}

/** GET /v5/pins/{pin_id}/analytics for the user's own pin. */
function pinAnalytics(pin: PinterestPin, days: DailyMetrics[], lifetime: Record<string, number>, query: Query, now: number): Reply {
  const invalid = invalidPinQuery;
  const range = rangeOf(query, now);
  if (!range) return invalid();
  // The operation lists video metrics apart from standard ones (README: that a video metric of an image pin is refused is not confirmed).
  const allowed = pin.mediaType === 'video' ? PIN_VIDEO : PIN_STANDARD;
  const metrics = metricsOf(query.metric_types, allowed, true);
  if (!metrics) return invalid();
  if (query.split_field !== undefined && query.split_field !== 'NO_SPLIT') return invalid();
  const daily = metrics.filter((m) => !LIFETIME.has(m));
  const lifetimeAsked = metrics.filter((m) => LIFETIME.has(m));
  const group = grouped(days, range, daily);
  return {
    status: 200,
    body: { all: { ...group, ...(lifetimeAsked.length ? { lifetime_metrics: Object.fromEntries(lifetimeAsked.map((m) => [m, lifetime[m] ?? 0])) } : {}) } },
  };
}

/** GET /v5/user_account/analytics. */
function accountAnalytics(days: DailyMetrics[], query: Query, now: number): Reply {
  const invalid = invalidAccountQuery;
  const range = rangeOf(query, now);
  if (!range) return invalid();
  // "Metric types to get data for, default is all."
  const metrics = metricsOf(query.metric_types, ACCOUNT, false);
  if (!metrics) return invalid();
  return { status: 200, body: { all: grouped(days, range, metrics) } };
}

/** start_date and end_date as day numbers, when both are valid dates within Pinterest's limits. */
function rangeOf(query: Query, now: number): { start: string; end: string } | undefined {
  const start = dayOf(query.start_date);
  const end = dayOf(query.end_date);
  if (start === undefined || end === undefined || end < start) return undefined;
  const today = Math.floor(now / DAY_MS);
  if (start < today - MAX_DAYS || end - start > MAX_DAYS) return undefined;
  return { start: query.start_date!, end: query.end_date! };
}

function dayOf(value: string | undefined): number | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(ms) ? ms / DAY_MS : undefined;
}

function metricsOf(value: string | undefined, allowed: string[], required: boolean): string[] | undefined {
  if (value === undefined || value === '') return required ? undefined : allowed;
  const asked = value.split(',').map((m) => m.trim());
  return asked.every((m) => allowed.includes(m)) ? [...new Set(asked)] : undefined;
}

/** The days inside the range, and their sums (rates averaged). */
function grouped(days: DailyMetrics[], range: { start: string; end: string }, metrics: string[]) {
  const inside = days.filter((d) => d.date >= range.start && d.date <= range.end).sort((a, b) => a.date.localeCompare(b.date));
  const pick = (m: Record<string, number>) => Object.fromEntries(metrics.filter((k) => m[k] !== undefined).map((k) => [k, m[k]]));
  const summary = Object.fromEntries(metrics.map((metric) => {
    const values = inside.map((d) => d.metrics[metric]).filter((v): v is number => typeof v === 'number');
    const sum = values.reduce((a, b) => a + b, 0);
    return [metric, isRate(metric) ? (values.length ? sum / values.length : 0) : sum];
  }));
  return {
    daily_metrics: inside.map((d) => ({ date: d.date, data_status: 'READY', metrics: pick(d.metrics) })),
    summary_metrics: summary,
  };
}
