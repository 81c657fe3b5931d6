// The routes several object types share, each answered by the module that owns the object
// (world.deleters, world.insightEdges): DELETE /{id} and GET /{id}/insights. An id no module knows
// is Graph's "Unsupported delete/get request" (#100/33), as for an object deleted before.
import { graphError, unsupportedGet } from '../errors/graph.ts';
import { authenticate, isReply, type FbRoute, type FbWorld } from './context.ts';

const unsupportedDelete = (id: string) =>
  graphError({
    message: `Unsupported delete request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    code: 100, subcode: 33, type: 'GraphMethodException',
  });

export function engagementRoutes(world: FbWorld): FbRoute[] {
  return [
    {
      method: 'DELETE',
      url: '/:id',
      versioned: true,
      handler: async (req) => {
        const info = authenticate(world, req);
        if (isReply(info)) return info;
        for (const deleter of world.deleters) {
          const reply = await deleter(req);
          if (reply) return reply;
        }
        return unsupportedDelete(req.params.id!);
      },
    },
    {
      method: 'GET',
      url: '/:id/insights',
      versioned: true,
      handler: (req) => {
        const info = authenticate(world, req);
        if (isReply(info)) return info;
        for (const edge of world.insightEdges) {
          const reply = edge(req);
          if (reply) return reply;
        }
        return unsupportedGet(req.params.id!);
      },
    },
  ];
}
