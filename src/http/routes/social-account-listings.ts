// GET /v1/social-accounts/:id/<listing>: the lists networks offer to fill their platform blocks
// (capabilities.ts AccountListing: Pinterest's boards, a subreddit's flairs). One route per path any
// network declares; an account of a network without that list is told so.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { readListing } from '../../accounts/listings.ts';
import { decodeId } from '../../core/ids.ts';
import type { AccountListing } from '../../networks/capabilities.ts';
import { userFetchFor } from '../../security/ssrf.ts';
import type { AppContext } from '../context.ts';
import { requireId } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

export function socialAccountListingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const byPath = new Map<string, { summary: string; labels: string[] }>();
  for (const network of ctx.networks.all) {
    for (const listing of ctx.networks.capabilities(network.id).listings ?? []) {
      const entry = byPath.get(listing.path) ?? { summary: listing.summary, labels: [] };
      entry.labels.push(network.label);
      byPath.set(listing.path, entry);
    }
  }
  if (!byPath.size) return;
  // Lists are read with the account's token at an API the network's configuration names; the SSRF
  // guard is there for an address a user chose (a Bluesky PDS), as when publishing.
  const userFetch = userFetchFor(ctx.config.allowLoopbackFetch);
  for (const [path, { summary, labels }] of byPath) listingRoute(app, ctx, userFetch, path, summary, labels);
}

function listingRoute(app: FastifyInstance, ctx: AppContext, userFetch: typeof fetch, path: AccountListing['path'], summary: string, labels: string[]): void {
  const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  app.get<{ Params: Record<string, string> & { id: string } }>(`/v1/social-accounts/:id/${path}`, {
    schema: {
      summary,
      description: `For ${labels.join(', ')} accounts, read from the network with the account's token. Another network's account: 400 \`not_supported\`; a disconnected account: 409.`,
      tags: ['social-accounts'],
      params: Type.Object({ id: Type.String(), ...Object.fromEntries(names.map((n) => [n, Type.String({ minLength: 1, maxLength: 200 })])) }),
      response: {
        200: Type.Object({ success: Type.Boolean(), data: Type.Array(Type.Record(Type.String(), Type.Unknown())) }),
        400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 502: ErrorSchema,
      },
    },
    handler: async (request) => {
      const accountId = requireId(request.params.id, decodeId, 'Social account not found');
      const params = Object.fromEntries(names.map((n) => [n, request.params[n]!]));
      const data = await readListing({ db: ctx.db, box: ctx.box, networks: ctx.networks, userFetch }, request.owner.orgId, accountId, path, params);
      return { success: true, data };
    },
  });
}
