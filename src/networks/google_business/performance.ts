// The location's figures over a period: the Business Profile Performance API's
// locations.fetchMultiDailyMetricsTimeSeries for every current DailyMetric, summed over the days.
// Google gives location figures only — no followers, and no figures per post (the v4
// localPosts:reportInsights falls under the deprecated v4 reportInsights: README.md).
import type { AccountMetrics, AccountSession } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { clientFor } from './posts.ts';

/** Views of the profile, by platform and surface. */
const IMPRESSIONS = ['BUSINESS_IMPRESSIONS_DESKTOP_MAPS', 'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH', 'BUSINESS_IMPRESSIONS_MOBILE_MAPS', 'BUSINESS_IMPRESSIONS_MOBILE_SEARCH'];
/** What a customer did from the profile: Crier's `engagement` is their sum (BUSINESS_CONVERSATIONS is deprecated). */
const INTERACTIONS = ['BUSINESS_DIRECTION_REQUESTS', 'CALL_CLICKS', 'WEBSITE_CLICKS', 'BUSINESS_BOOKINGS', 'BUSINESS_FOOD_ORDERS', 'BUSINESS_FOOD_MENU_CLICKS'];

const dateOf = (date: Date) => date.toISOString().slice(0, 10);

export async function locationMetrics(apiUrl: string, session: AccountSession, period: { since: Date; until: Date }): Promise<AccountMetrics> {
  const until = new Date(Math.min(period.until.getTime(), Date.now()));
  if (!Number.isFinite(period.since.getTime()) || !Number.isFinite(until.getTime()) || period.since > until) {
    throw new PublishError('permanent', 'google_business: the period\'s start is after its end', undefined, 'invalid');
  }
  const series = await clientFor(apiUrl, session).dailyMetrics([...IMPRESSIONS, ...INTERACTIONS], period.since, until);
  const totals: Record<string, number> = {};
  for (const one of series) {
    if (!one.dailyMetric) continue;
    // Values are int64 strings, left out on days that count zero.
    const sum = (one.timeSeries?.datedValues ?? []).reduce((total, d) => total + (Number(d.value ?? 0) || 0), 0);
    totals[one.dailyMetric] = (totals[one.dailyMetric] ?? 0) + sum;
  }
  const answered = INTERACTIONS.filter((m) => totals[m] !== undefined);
  return {
    followers: null,
    following: null,
    posts: null,
    engagement: answered.length ? answered.reduce((total, m) => total + totals[m]!, 0) : null,
    ranged: true,
    platform_specific: { ...totals, period: { start_date: dateOf(period.since), end_date: dateOf(until) } },
  };
}
