// /v1/usage: what the organization was billed for (processMedia renditions, in 10-second blocks).
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { usageReport, type UsageQuery } from '../../media/usage.ts';
import { createLedger } from '../../accounts/ledger.ts';
import { PaginationQuery } from '../../validation/pagination.ts';
import { RangeBound } from '../../validation/schema.ts';
import type { AppContext } from '../context.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

const UsageItemSchema = Type.Object({
  id: Type.Integer(),
  kind: Type.String({ enum: ['video_rendition'] }),
  rendition_id: Type.Integer(),
  profile: Type.String({ description: 'The network profile the rendition was made for, e.g. x@1' }),
  source_url: Type.String(),
  duration_seconds: Type.Number({ description: 'Output duration' }),
  blocks: Type.Integer({ description: '10-second blocks billed, rounded up, at least 1' }),
  created_at: Type.String({ format: 'date-time' }),
});

/** The figures of every network that reports some (Network.usage), read from its ledger now. */
async function networkUsage(ctx: AppContext, orgId: number): Promise<Record<string, Record<string, unknown>> | undefined> {
  const figures = await Promise.all(ctx.networks.all.map(async (network) => {
    const usage = ctx.networks.usage(network.id, createLedger(ctx.db, network.id), orgId);
    return usage ? [[network.id, await usage] as const] : [];
  }));
  const reported = figures.flat();
  return reported.length ? Object.fromEntries(reported) : undefined;
}

export function usageRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: UsageQuery }>('/v1/usage', {
    schema: {
      summary: 'Billed usage',
      description: 'Totals for the period [from, to) (all time when omitted) and the usage records in it, newest first. Each processMedia rendition is billed once, by output duration in 10-second blocks. `networks`: the shared quotas networks keep (YouTube\'s managed-key upload pool), as they stand now.',
      tags: ['usage'],
      querystring: Type.Object({
        from: Type.Optional(RangeBound()),
        to: Type.Optional(RangeBound()),
        ...PaginationQuery,
      }),
      response: {
        200: Type.Object({
          success: Type.Boolean(),
          data: Type.Object({
            from: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
            to: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
            total_blocks: Type.Integer(),
            total_renditions: Type.Integer(),
            total_duration_seconds: Type.Number(),
            items: Type.Array(UsageItemSchema),
            networks: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
              description: "Per network that keeps shared quotas (YouTube's managed-key upload pool): what is spent and left now, for this organization and in all",
            })),
          }),
          count: Type.Integer({ description: 'usage records in the period, across all pages' }),
          limit: Type.Integer(),
          offset: Type.Integer(),
        }),
        400: ErrorSchema,
      },
    },
    handler: async (request) => {
      const report = await usageReport(ctx.db, request.owner.orgId, request.query);
      const networks = await networkUsage(ctx, request.owner.orgId);
      return { success: true, ...report, data: { ...report.data, ...(networks ? { networks } : {}) } };
    },
  });
}
