// /v1/posts: create, list, read.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { RequestError, validationError } from '../../core/errors.ts';
import { accountProblem, asksNextFreeSlot, createPostWriter, previewNextFreeSlot } from '../../posts/create.ts';
import { accountQuotas } from '../../publishing/admission.ts';
import { dryRunCreate, knownMediaReader, networkPreview, parseDryRun } from '../../posts/dry-run.ts';
import { userFetchFor } from '../../security/ssrf.ts';
import { createAccountResolver, type ResolvedAccount } from '../../posts/accounts.ts';
import { listPosts } from '../../posts/list.ts';
import { deletePost, reschedulePost } from '../../posts/manage.ts';
import { getPost } from '../../posts/read.ts';
import { withTransaction } from '../../db/pool.ts';
import { tokenOfPublicUrl } from '../../media/context.ts';
import type { FetchPolicy } from '../../validation/fetched-url.ts';
import {
  CreatePostBodySchema, CreatePostResponseSchema, DryRunResponseSchema, ListPostsQuerySchema, ListPostsResponseSchema, PatchPostBodySchema, PostDetailSchema,
  type ListPostsQuery,
} from '../../posts/schema.ts';
import type { AppContext } from '../context.ts';
import { parseIdempotencyKey } from '../idempotency.ts';
import { parseCreateBody } from '../../posts/validate.ts';
import { IdParams } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

export function postsRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Media and cover URLs are judged as the publishing worker will fetch them: own media is read from storage.
  const fetchPolicy: FetchPolicy = {
    allowLoopback: ctx.config.allowLoopbackFetch,
    isOwnMedia: (url) => tokenOfPublicUrl(ctx.config.publicBaseUrl, url) !== undefined,
  };

  const knownMedia = knownMediaReader(ctx.db, ctx.config.publicBaseUrl);

  // Concurrent creates share transactions (posts/create.ts).
  // The quotas the engine admits by (CRIER_ACCOUNT_QUOTAS included): "next-free-slot" skips a slot they would refuse.
  const quotas = accountQuotas(ctx.networks.all, ctx.config.publishing.accountQuotas);
  const postWriter = createPostWriter(ctx.db, quotas);
  const accountResolver = createAccountResolver(ctx.db);
  const previewDeps = { db: ctx.db, box: ctx.box, networks: ctx.networks, userFetch: userFetchFor(ctx.config.allowLoopbackFetch) };

  app.post('/v1/posts', {
    schema: {
      summary: 'Create a post',
      description: 'Publishes now, or at `scheduledAt`, on every resolved account (`scheduledAt: "next-free-slot"` takes the next slot free on every account\'s queue: /v1/queues). Unknown keys are ignored and listed in `warnings`. With `?dry_run=true` nothing is stored and no Idempotency-Key is consumed: the request is judged as a create would judge it (the same 400), and each resolved account says whether its network could publish the post (`destinations[].ok`, `reasons`: what publishing would refuse before calling the network).',
      tags: ['posts'],
      querystring: Type.Object({ dry_run: Type.Optional(Type.Boolean({ description: 'Validate only: store nothing, answer `dryRun: true` with `destinations`.' })) }),
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ maxLength: 255 })) }),
      body: CreatePostBodySchema,
      response: { 200: Type.Union([CreatePostResponseSchema, DryRunResponseSchema]), 202: CreatePostResponseSchema, 400: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema },
    },
    // The body is validated by posts/validate.ts: unknown keys must become warnings, not errors,
    // and cross-field rules need the resolved accounts. The schema above documents it.
    validatorCompiler: () => (data: unknown) => ({ value: data }),
    handler: async (request, reply) => {
      const key = parseIdempotencyKey(request.headers['idempotency-key']);
      const now = new Date();
      const parsed = parseCreateBody(request.body, now, fetchPolicy);
      if (parseDryRun((request.query as Record<string, unknown>).dry_run)) {
        const { orgId } = request.owner;
        const slot = asksNextFreeSlot(request.body)
          ? (req: Parameters<typeof previewNextFreeSlot>[2], accounts: ResolvedAccount[]) => previewNextFreeSlot(ctx.db, orgId, req, accounts, now, quotas)
          : undefined;
        const body = await dryRunCreate(parsed, (entries) => accountResolver.submit({ orgId, entries }), (urls) => knownMedia(orgId, urls), networkPreview(previewDeps, orgId), slot);
        // Sent as written: the 200 schema is a union, and serializing by it would validate each branch.
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
      }
      // Without a key a bad body needs no database; with one, the key is judged first (a reused key is a 422).
      if (!parsed.ok && key === undefined) throw validationError(parsed.details);
      const { orgId } = request.owner;
      let accounts: ResolvedAccount[] | undefined;
      if (parsed.ok) {
        // Announced to the writer: a batch about to start waits for this one instead of leaving it for the next commit.
        const arriving = postWriter.expect(key);
        try {
          accounts = await accountResolver.submit({ orgId, entries: parsed.request.accounts });
          const problem = key === undefined ? accountProblem(parsed.request, accounts) : undefined;
          if (problem) throw problem;
        } finally {
          arriving();
        }
      }
      const result = await postWriter.submit({ orgId, key, body: request.body, parsed, now, accounts, requireApproval: request.owner.requireApproval });
      if (result.dueAt !== undefined) ctx.waker.wake(result.dueAt);
      if (result.replayed) reply.header('idempotency-replayed', 'true');
      return reply.code(result.status as 200).headers(result.headers).send(result.body as never);
    },
  });

  app.get<{ Querystring: ListPostsQuery }>('/v1/posts', {
    schema: {
      summary: 'List posts',
      description: 'Filters combine with AND; newest first. `data` repeats `posts`; `count` repeats `pagination.total`.',
      tags: ['posts'],
      querystring: ListPostsQuerySchema,
      response: { 200: ListPostsResponseSchema, 400: ErrorSchema },
    },
    // The page is written once and sent twice (`data` repeats `posts`): serializing it against the
    // schema for each would double the list's largest CPU cost. toPostJson keeps the schema's keys.
    handler: async (request, reply) => {
      const page = await listPosts(ctx.db, request.owner.orgId, request.query);
      const posts = JSON.stringify(page.posts);
      return reply
        .type('application/json; charset=utf-8')
        .send(`{"success":true,"posts":${posts},"data":${posts},"pagination":${JSON.stringify(page.pagination)},"count":${page.pagination.total}}`);
    },
  });

  app.get<{ Params: { id: string } }>('/v1/posts/:id', {
    schema: {
      summary: 'Get a post with the publishing state of each account',
      tags: ['posts'],
      params: IdParams,
      response: { 200: Type.Object({ success: Type.Boolean(), post: PostDetailSchema }), 404: ErrorSchema },
    },
    handler: async (request) => {
      const post = await getPost(ctx.db, request.owner.orgId, request.params.id);
      if (!post) throw new RequestError(404, 'Post not found', { code: 'not_found' });
      return { success: true, post };
    },
  });

  app.patch<{ Params: { id: string } }>('/v1/posts/:id', {
    schema: {
      summary: 'Reschedule a post (or turn it into a draft)',
      description: 'Body: `scheduledAt` (the same forms and 30-day window as create) and/or `isDraft`. Re-queues every destination, unless the post is a draft: without `isDraft` a draft stays a draft (its time moves, nothing is queued); `isDraft: false` queues it, `isDraft: true` unqueues a post. A post already published on any account answers 409: create a new single-destination post for the accounts that failed.',
      tags: ['posts'],
      params: IdParams,
      body: PatchPostBodySchema,
      response: { 200: Type.Object({ success: Type.Boolean(), warnings: Type.Optional(Type.Array(Type.String())), post: PostDetailSchema }), 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
    },
    validatorCompiler: () => (data: unknown) => ({ value: data }),
    handler: async (request, reply) => {
      const { orgId } = request.owner;
      const result = await withTransaction(ctx.db, (tx) => reschedulePost(tx, orgId, request.params.id, request.body));
      if (result.dueAt !== undefined) ctx.waker.wake(result.dueAt);
      const post = await getPost(ctx.db, orgId, request.params.id);
      return reply.code(result.status as 200).send({ success: true, ...(result.warnings.length ? { warnings: result.warnings } : {}), post: post! });
    },
  });

  app.delete<{ Params: { id: string } }>('/v1/posts/:id', {
    schema: {
      summary: 'Cancel a post, or delete the record of a finished one',
      description: 'A post that has not started publishing is cancelled. A finished post loses only its record in Crier; what was published stays on the networks. `outcome` says which happened.',
      tags: ['posts'],
      params: IdParams,
      response: {
        200: Type.Object({ success: Type.Boolean(), outcome: Type.String({ enum: ['cancelled', 'record_deleted'] }), message: Type.String() }),
        404: ErrorSchema,
        409: ErrorSchema,
      },
    },
    handler: async (request) => {
      const result = await withTransaction(ctx.db, (tx) => deletePost(tx, request.owner.orgId, request.params.id));
      return { success: true, ...result };
    },
  });
}
