// GET /v1/posts/:id/analytics: a post's figures, read from each network it was published to.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { userFetchFor } from '../../security/ssrf.ts';
import type { AppContext } from '../context.ts';
import { IdParams } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const Figure = Type.Union([Type.Number(), Type.Null()]);

export const PostMetricsSchema = Type.Object({
  likes: Figure, comments: Figure, shares: Figure, views: Figure, reach: Figure, saves: Figure, impressions: Figure,
  platform_specific: Type.Record(Type.String(), Type.Unknown(), { description: "Every other figure the network gave, under the network's own names" }),
}, { description: 'null: the network does not give this figure (never 0 for unknown)' });

const AnalyticsSchema = Type.Object({
  success: Type.Boolean(),
  post: Type.Object({ id: Type.String(), publishedAt: Type.Union([Type.String(), Type.Null()]), createdAt: Type.String() }),
  metrics_by_account: Type.Array(Type.Object({
    social_account: Type.Object({ id: Type.String(), nickname: Type.String(), network: Type.String(), username: Type.String() }),
    platform_post_id: Type.String(),
    published_at: Type.Union([Type.String(), Type.Null()]),
    metrics: Type.Union([PostMetricsSchema, Type.Null()]),
    unavailable: Type.Optional(Type.String({ description: 'Why metrics is null: the network gives no figures of a post, or could not be read' })),
  })),
  aggregated_metrics: Type.Object({
    total_likes: Figure, total_comments: Figure, total_shares: Figure, total_views: Figure, total_reach: Figure, total_saves: Figure, total_impressions: Figure,
    average_engagement_rate: Type.Union([Type.Number(), Type.Null()], { description: '(likes + comments + shares + saves) / views over the destinations that gave both; null when none did' }),
  }, { description: 'Sums over the destinations that gave each figure; null when none did' }),
});

export function postAnalyticsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userFetch = userFetchFor(ctx.config.allowLoopbackFetch);
  const deps = { db: ctx.db, box: ctx.box, networks: ctx.networks, userFetch };
  app.get<{ Params: { id: string } }>('/v1/posts/:id/analytics', {
    schema: {
      summary: "A post's figures, read from its networks",
      description: "Per destination on its network (published, not deleted), the network's figures of the post read with the account's token; a destination whose network gives none, or could not be read, has `metrics: null` and says why in `unavailable` (the others are still answered).",
      tags: ['posts'],
      params: IdParams,
      response: { 200: AnalyticsSchema, 404: ErrorSchema },
    },
    handler: async (request) => ({ success: true, ...(await (await import('../../engagement/analytics.ts')).postAnalytics(deps, request.owner.orgId, request.params.id)) }),
  });
}
