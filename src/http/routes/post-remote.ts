// DELETE /v1/posts/:id/remote: deletes a post from the networks it was published to.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { userFetchFor } from '../../security/ssrf.ts';
import type { AppContext } from '../context.ts';
import { IdParams } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

export function postRemoteRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userFetch = userFetchFor(ctx.config.allowLoopbackFetch);
  const deps = { db: ctx.db, box: ctx.box, networks: ctx.networks, userFetch };
  app.delete<{ Params: { id: string } }>('/v1/posts/:id/remote', {
    schema: {
      summary: 'Delete a post from the networks',
      description: "Deletes every published destination from its network where the network's API allows it (every container Crier published there), and answers per account: `deleted` (now, or before), `not_supported` (the network's API cannot delete: do it in the network's app), `failed` with the network's reason (try again), `not_published` (nothing to delete). Deleted destinations show status `deleted`; Crier's record stays (DELETE /v1/posts/:id removes it). A post with destinations still to publish: 409.",
      tags: ['posts'],
      params: IdParams,
      response: {
        200: Type.Object({
          success: Type.Boolean(),
          data: Type.Array(Type.Object({
            social_account: Type.Object({ id: Type.String(), network: Type.String(), username: Type.String() }),
            platform_post_id: Type.Union([Type.String(), Type.Null()]),
            outcome: Type.String({ enum: ['deleted', 'not_supported', 'failed', 'not_published'] }),
            error: Type.Optional(Type.String()),
          })),
        }),
        404: ErrorSchema, 409: ErrorSchema,
      },
    },
    handler: async (request) => {
      const data = await (await import('../../engagement/remote-delete.ts')).deleteFromNetworks(deps, request.owner.orgId, request.params.id);
      return { success: true, data };
    },
  });
}
