// GET /v1/social-accounts/:id/metrics: an account's figures, read from its network.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../core/errors.ts';
import { decodeId } from '../../core/ids.ts';
import { userFetchFor } from '../../security/ssrf.ts';
import { parseDateTime } from '../../validation/date-time.ts';
import type { AppContext } from '../context.ts';
import { IdParams, requireId } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const Figure = Type.Union([Type.Number(), Type.Null()]);
const DAY_MS = 86_400_000;

export function socialAccountMetricsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userFetch = userFetchFor(ctx.config.allowLoopbackFetch);
  const deps = { db: ctx.db, box: ctx.box, networks: ctx.networks, userFetch };
  app.get<{ Params: { id: string }; Querystring: { since?: string; until?: string } }>('/v1/social-accounts/:id/metrics', {
    schema: {
      summary: "An account's figures, read from its network",
      description: "Followers, following, posts and engagement as the network gives them (null: not given). `ranged: true` when the figures cover since–until (default: the last 28 days); `ranged: false` when the network gives only its current totals. A network that gives no account figures: 400 `metrics_not_supported`.",
      tags: ['social-accounts'],
      params: IdParams,
      querystring: Type.Object({ since: Type.Optional(Type.String({ format: 'date-time' })), until: Type.Optional(Type.String({ format: 'date-time' })) }),
      response: {
        200: Type.Object({
          success: Type.Boolean(),
          data: Type.Object({
            social_account: Type.Object({ id: Type.String(), network: Type.String(), username: Type.String() }),
            since: Type.String(), until: Type.String(), ranged: Type.Boolean(),
            followers: Figure, following: Figure, posts: Figure, engagement: Figure,
            platform_specific: Type.Record(Type.String(), Type.Unknown()),
          }),
        }),
        400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 502: ErrorSchema,
      },
    },
    handler: async (request) => {
      const accountId = requireId(request.params.id, decodeId, 'Social account not found');
      // The schema's `date-time` format is parseDateTime: it accepted these, so they parse.
      const until = request.query.until ? parseDateTime(request.query.until)! : new Date();
      const since = request.query.since ? parseDateTime(request.query.since)! : new Date(until.getTime() - 28 * DAY_MS);
      if (since >= until) throw validationError([{ field: 'since', message: 'must be before until' }]);
      return { success: true, data: await (await import('../../engagement/analytics.ts')).accountMetrics(deps, request.owner.orgId, accountId, { since, until }) };
    },
  });
}
