// A pin's and the account's figures: GET /v5/pins/{pin_id}/analytics over the last 90 days (the most
// Pinterest keeps: start_date may not be more than 90 days back), with the lifetime comment and
// reaction counts; GET /v5/user_account for the profile counts and GET /v5/user_account/analytics
// over the period asked. Metric names are Pinterest's (pinterest/api-description v5).
import type { AccountMetrics, AccountSession, PostMetrics } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { clientFor } from './posts.ts';

const DAY_MS = 86_400_000;
/** Pinterest's window: start_date at most 90 days back, end_date at most 90 days after it. */
const MAX_DAYS = 90;

const STANDARD = ['IMPRESSION', 'OUTBOUND_CLICK', 'PIN_CLICK', 'SAVE', 'SAVE_RATE', 'USER_FOLLOW', 'PROFILE_VISIT', 'TOTAL_COMMENTS', 'TOTAL_REACTIONS'];
/** A video pin's list (the API lists them apart: USER_FOLLOW and PROFILE_VISIT are not among them). */
const VIDEO = ['IMPRESSION', 'OUTBOUND_CLICK', 'PIN_CLICK', 'SAVE', 'SAVE_RATE', 'VIDEO_MRC_VIEW', 'VIDEO_10S_VIEW', 'QUARTILE_95_PERCENT_VIEW',
  'VIDEO_V50_WATCH_TIME', 'VIDEO_START', 'VIDEO_AVG_WATCH_TIME', 'TOTAL_COMMENTS', 'TOTAL_REACTIONS'];
const ACCOUNT = ['ENGAGEMENT', 'ENGAGEMENT_RATE', 'IMPRESSION', 'OUTBOUND_CLICK', 'OUTBOUND_CLICK_RATE', 'PIN_CLICK', 'PIN_CLICK_RATE', 'SAVE', 'SAVE_RATE'];

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const numberOr = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The pin's figures: the last 90 days' IMPRESSION/SAVE (and VIDEO_MRC_VIEW for a video), lifetime comments and reactions. */
export async function pinMetrics(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<PostMetrics> {
  const client = clientFor(apiUrl, session);
  const pinId = post.root.platformId;
  // The metric list depends on the pin's kind, which an imported post's block does not say.
  const video = (await client.pin(pinId)).media?.media_type === 'video';
  const now = Date.now();
  const period = { start_date: dateOf(now - MAX_DAYS * DAY_MS), end_date: dateOf(now) };
  const group = await client.pinAnalytics(pinId, { ...period, metric_types: (video ? VIDEO : STANDARD).join(','), app_types: 'ALL', split_field: 'NO_SPLIT' });
  // Comments and reactions are lifetime figures (lifetime_metrics); the rest covers the period.
  const figures: Record<string, number> = { ...group.summary_metrics, ...group.lifetime_metrics };
  const { IMPRESSION, SAVE, VIDEO_MRC_VIEW, TOTAL_COMMENTS, TOTAL_REACTIONS, ...others } = figures;
  return {
    likes: numberOr(TOTAL_REACTIONS),
    comments: numberOr(TOTAL_COMMENTS),
    shares: null,
    views: video ? numberOr(VIDEO_MRC_VIEW) : null,
    reach: null,
    saves: numberOr(SAVE),
    impressions: numberOr(IMPRESSION),
    platform_specific: { ...others, period },
  };
}

/** The profile counts now, and ENGAGEMENT (with the other account metrics) over the period, held to Pinterest's 90 days. */
export async function accountMetrics(apiUrl: string, session: AccountSession, period: { since: Date; until: Date }): Promise<AccountMetrics> {
  const client = clientFor(apiUrl, session);
  const asked = windowOf(period, Date.now());
  const [user, group] = await Promise.all([
    client.userAccount(),
    client.accountAnalytics({ ...asked, metric_types: ACCOUNT.join(','), app_types: 'ALL', split_field: 'NO_SPLIT' }),
  ]);
  const { ENGAGEMENT, ...others } = group.summary_metrics ?? {};
  return {
    followers: numberOr(user.follower_count),
    following: numberOr(user.following_count),
    posts: numberOr(user.pin_count),
    engagement: numberOr(ENGAGEMENT),
    ranged: true,
    platform_specific: {
      ...others,
      ...(user.board_count != null ? { board_count: user.board_count } : {}),
      ...(user.monthly_views != null ? { monthly_views: user.monthly_views } : {}),
      period: asked,
    },
  };
}

/**
 * The period as Pinterest's dates: a start more than 90 days back is moved to the earliest day
 * Pinterest answers for (the dates used are returned in platform_specific.period), an end after
 * today is today.
 */
function windowOf(period: { since: Date; until: Date }, now: number): { start_date: string; end_date: string } {
  const since = period.since.getTime();
  const until = Math.min(period.until.getTime(), now);
  if (!Number.isFinite(since) || !Number.isFinite(until) || since > until) {
    throw new PublishError('permanent', 'pinterest: the period\'s start is after its end', undefined, 'invalid');
  }
  const start = Math.max(since, now - MAX_DAYS * DAY_MS);
  if (start > until) throw new PublishError('permanent', `pinterest: keeps account analytics for the last ${MAX_DAYS} days only; the period asked ended before that`, undefined, 'invalid');
  return { start_date: dateOf(start), end_date: dateOf(until) };
}
