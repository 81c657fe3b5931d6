// GET /v1/posts/:id/analytics and GET /v1/social-accounts/:id/metrics: figures read from the networks
// with the accounts' tokens. A figure a network does not give is null, never 0; a destination whose
// network gives no post figures says so (`metrics: null`, `unavailable`). The answer keeps the shape
// clients of the hosted API read (`metrics_by_account`, `aggregated_metrics`).
import { RequestError } from '../core/errors.ts';
import type { AccountMetrics, PostMetrics } from '../networks/capabilities.ts';
import { encodeId } from '../core/ids.ts';
import { callAsAccount, orgAccount, requireActive, type AccountCallDeps } from '../accounts/session.ts';
import { loadDestinations, onNetwork, type Destination } from './destinations.ts';

const FIGURES = ['likes', 'comments', 'shares', 'views', 'reach', 'saves', 'impressions'] as const;

export interface AccountPostMetrics {
  social_account: { id: string; nickname: string; network: string; username: string };
  platform_post_id: string;
  published_at: string | null;
  metrics: PostMetrics | null;
  /** Why there are no figures: the network gives none for a post, or could not be read. */
  unavailable?: string;
}

export interface PostAnalytics {
  post: { id: string; publishedAt: string | null; createdAt: string };
  metrics_by_account: AccountPostMetrics[];
  aggregated_metrics: Record<`total_${(typeof FIGURES)[number]}`, number | null> & { average_engagement_rate: number | null };
}

export async function postAnalytics(deps: AccountCallDeps, orgId: number, postId: string): Promise<PostAnalytics> {
  const post = await loadDestinations(deps.db, orgId, postId);
  const byAccount = await Promise.all(onNetwork(post.destinations).map((d) => destinationMetrics(deps, orgId, d)));
  return {
    post: { id: encodeId(post.postId), publishedAt: post.publishedAt, createdAt: post.createdAt },
    metrics_by_account: byAccount,
    aggregated_metrics: aggregate(byAccount.map((a) => a.metrics).filter((m): m is PostMetrics => m !== null)),
  };
}

async function destinationMetrics(deps: AccountCallDeps, orgId: number, destination: Destination): Promise<AccountPostMetrics> {
  const entry = {
    social_account: { id: encodeId(destination.accountId), nickname: destination.nickname ?? '', network: destination.network, username: destination.username },
    platform_post_id: destination.post.root.platformId,
    published_at: destination.publishedAt,
  };
  const label = deps.networks.get(destination.network).label;
  const read = deps.networks.capabilities(destination.network).analytics?.post;
  if (!read) return { ...entry, metrics: null, unavailable: `${label} gives no figures of a post to apps` };
  try {
    const account = requireActive(label, await orgAccount(deps, orgId, destination.accountId));
    return { ...entry, metrics: await callAsAccount(deps, account, (session) => read(session, destination.post)) };
  } catch (error) {
    // One network failing leaves the others' figures readable.
    return { ...entry, metrics: null, unavailable: (error as Error).message };
  }
}

/** Sums of the figures the networks gave (null when none gave it); engagement rate = interactions / views. */
export function aggregate(metrics: PostMetrics[]): PostAnalytics['aggregated_metrics'] {
  const total = (name: (typeof FIGURES)[number]): number | null => {
    const known = metrics.map((m) => m[name]).filter((v): v is number => typeof v === 'number');
    return known.length ? known.reduce((a, b) => a + b, 0) : null;
  };
  const totals = Object.fromEntries(FIGURES.map((name) => [`total_${name}`, total(name)])) as PostAnalytics['aggregated_metrics'];
  // Only destinations that gave both their interactions and their views count towards the rate.
  const rated = metrics.filter((m) => typeof m.views === 'number' && m.views > 0 && typeof m.likes === 'number');
  const views = rated.reduce((sum, m) => sum + m.views!, 0);
  const interactions = rated.reduce((sum, m) => sum + (m.likes ?? 0) + (m.comments ?? 0) + (m.shares ?? 0) + (m.saves ?? 0), 0);
  totals.average_engagement_rate = views > 0 ? Math.round((interactions / views) * 10_000) / 10_000 : null;
  return totals;
}

export interface AccountMetricsAnswer extends AccountMetrics {
  social_account: { id: string; network: string; username: string };
  since: string;
  until: string;
}

/** The account's figures; `ranged` says whether they honour since/until (else they are the network's current totals). */
export async function accountMetrics(deps: AccountCallDeps, orgId: number, accountId: number, period: { since: Date; until: Date }): Promise<AccountMetricsAnswer> {
  const account = await orgAccount(deps, orgId, accountId);
  const network = deps.networks.get(account.credentials.network);
  const read = deps.networks.capabilities(network.id).analytics?.account;
  if (!read) throw new RequestError(400, `${network.label} gives no account figures to apps`, { code: 'metrics_not_supported' });
  const metrics = await callAsAccount(deps, requireActive(network.label, account), (session) => read(session, period));
  return {
    social_account: { id: encodeId(accountId), network: network.id, username: account.credentials.username },
    since: period.since.toISOString(),
    until: period.until.toISOString(),
    ...metrics,
  };
}
