// The request and response shapes of /v1/posts, as JSON Schemas (validation/json-schema.ts): they validate requests, and the
// OpenAPI document is generated from them.
import { Type, type Static, type TSchema } from '../validation/json-schema.ts';
import { networkFor } from '../networks/registry.ts';
import { NETWORKS } from '../networks/ids.ts';
import { TEXT_UNITS } from '../networks/contract.ts';
import { PaginationQuery } from '../validation/pagination.ts';
import { FetchedUrl, RangeBound } from '../validation/schema.ts';

export const MAX_CONTENT_LENGTH = 100_000;
export const MAX_CONTAINERS = 100;
export const MAX_ACCOUNTS = 100;
export const MAX_MEDIA_PER_CONTAINER = 35;

export const MediaInputSchema = Type.Object({
  url: FetchedUrl({ maxLength: 2048 }),
  filename: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: '^[^/\\\\?#]+\\.[A-Za-z0-9]{1,10}$',
    description: 'a file name with an extension, without path, query string or fragment',
  }),
  altText: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const ContainerInputSchema = Type.Object({
  content: Type.Optional(Type.String({ maxLength: MAX_CONTENT_LENGTH })),
  media: Type.Optional(Type.Array(MediaInputSchema, { maxItems: MAX_MEDIA_PER_CONTAINER })),
});

/** scheduledAt on create and PATCH: the one date-time parser (validation/date-time.ts). */
export const ScheduledAtSchema = Type.String({
  format: 'date-time',
  description: 'ISO 8601 with a time zone, seconds optional (2026-11-26T06:09Z, 2026-11-26T08:09:30+02:00); '
    + 'a past time publishes at once, at most 30 days ahead',
});

/**
 * scheduledAt on create: a date-time, or "next-free-slot" (the next slot of the accounts' queues,
 * queues/next-slot.ts). The literal is the Typefully convention (`publish_at: "next-free-slot"`), in
 * the field every client already sends a time in, rather than a second field that could contradict it.
 */
export const CreateScheduledAtSchema = Type.Union([
  ScheduledAtSchema,
  // An enum rather than a const: a refused value reads 'must be one of "next-free-slot"'.
  Type.Unsafe<'next-free-slot'>({
    type: 'string',
    enum: ['next-free-slot'],
    description: 'the earliest slot free on every targeted account\'s queue (POST /v1/queues), within the 30-day window; each targeted account needs a queue',
  }),
]);

const blockProperties: Record<string, TSchema> = {};
for (const network of NETWORKS) blockProperties[network] = Type.Optional(networkFor(network).options.schema);

export const CreatePostBodySchema = Type.Object(
  {
    accounts: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { minItems: 1, maxItems: MAX_ACCOUNTS }),
    content: Type.Optional(Type.String({ maxLength: MAX_CONTENT_LENGTH })),
    containers: Type.Optional(Type.Array(ContainerInputSchema, { minItems: 1, maxItems: MAX_CONTAINERS })),
    scheduledAt: Type.Optional(CreateScheduledAtSchema),
    isDraft: Type.Optional(Type.Boolean()),
    processMedia: Type.Optional(Type.Boolean()),
    ...blockProperties,
  },
  { description: 'Exactly one of `content` and `containers`. Per-network options are top-level keys named after the network.' },
);

export type CreatePostBody = Static<typeof CreatePostBodySchema>;

export const PatchPostBodySchema = Type.Object(
  {
    scheduledAt: Type.Optional(ScheduledAtSchema),
    isDraft: Type.Optional(Type.Boolean({ description: 'omitted: the post stays a draft or not, as it was' })),
  },
  { description: 'At least one of the two. Unknown keys are ignored and listed in `warnings`.' },
);

export type PatchPostBody = Static<typeof PatchPostBodySchema>;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const SocialAccountRefSchema = Type.Object({
  id: Type.String(),
  nickname: Type.String(),
  network: Type.String(),
  username: Type.String(),
});

/** A destination's states (the targets table's check, migration 031). */
export const TARGET_STATUSES = ['pending', 'pending_approval', 'publishing', 'published', 'failed', 'unknown', 'cancelled', 'deleted', 'rejected'] as const;

/** Per-account state, shown on GET /v1/posts/:id. */
export const TargetSchema = Type.Object({
  ...SocialAccountRefSchema.properties,
  // pending_approval: waits for an approver (orgs/settings.ts requireApproval); rejected: an approver said no, final.
  status: Type.String({ enum: [...TARGET_STATUSES] }),
  error: Nullable(Type.String()),
  platformPostId: Nullable(Type.String()),
  platformPostUrl: Nullable(Type.String()),
  publishedAt: Nullable(Type.String({ format: 'date-time' })),
  // PATCH /v1/posts/:id/remote: when the network last got a new text, and each edited container's.
  editedAt: Nullable(Type.String({ format: 'date-time' })),
  editedContainers: Nullable(Type.Array(Type.Object({ position: Type.Integer({ minimum: 0 }), content: Type.String() }))),
});

export const MediaSchema = Type.Object({
  id: Type.Number(),
  url: Type.String(),
  filename: Type.String(),
  altText: Nullable(Type.String()),
});

export const ContainerSchema = Type.Object({
  id: Type.String(),
  content: Type.String(),
  media: Type.Array(MediaSchema),
});

const postProperties = {
  id: Type.String(),
  orgId: Type.String(),
  publishedAt: Nullable(Type.String({ format: 'date-time' })),
  scheduledAt: Nullable(Type.String({ format: 'date-time' })),
  isDraft: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  containers: Type.Array(ContainerSchema),
  networkOverrideConfiguration: Nullable(Type.Object({}, { additionalProperties: true })),
  processMedia: Type.Boolean(),
  scheduled: Type.Boolean(),
  // Optional only for an answer replayed from an Idempotency-Key stored before these fields existed.
  approval: Type.Optional(Nullable(Type.Object({
    status: Type.String({ enum: ['pending', 'approved', 'rejected'], description: '`pending`: its destinations wait, `pending_approval`; `approved`: queued by an approver; `rejected`: final, its destinations `rejected`' }),
    decidedAt: Nullable(Type.String({ format: 'date-time' })),
    decidedBy: Nullable(Type.String({ description: 'the API key that decided (GET /v1/api-keys); null while pending, or once that key was deleted' })),
    reason: Nullable(Type.String({ description: "a rejection's reason, as the approver gave it" })),
  }, { description: 'null when no approval was asked: the organization (or a tenant of its accounts) did not require it when the post was created or made a non-draft' }))),
  recurrenceId: Type.Optional(Nullable(Type.String({ description: 'the recurrence (GET /v1/recurrences/{id}) this post is an occurrence of; null for any other post' }))),
  evergreenCollectionId: Type.Optional(Nullable(Type.String({ description: 'the evergreen collection (GET /v1/evergreen-collections/{id}) this post re-shares an item of; null for any other post' }))),
};

export const PostSchema = Type.Object({ ...postProperties, socialAccounts: Type.Array(SocialAccountRefSchema) });
export const PostDetailSchema = Type.Object({ ...postProperties, socialAccounts: Type.Array(TargetSchema) });

export const CreatePostResponseSchema = Type.Object({
  success: Type.Boolean(),
  warnings: Type.Optional(Type.Array(Type.String())),
  post: PostSchema,
  data: Type.Object({ post: PostSchema }, { description: 'The same post again, for clients that read it under `data`' }),
});

export const ListPostsQuerySchema = Type.Object({
  tenant_id: Type.Optional(Type.String({ minLength: 1 })),
  tenantId: Type.Optional(Type.String({ minLength: 1 })),
  social_account_id: Type.Optional(Type.String({ minLength: 1 })),
  created_after: Type.Optional(RangeBound()),
  created_before: Type.Optional(RangeBound()),
  scheduled_after: Type.Optional(RangeBound()),
  scheduled_before: Type.Optional(RangeBound()),
  status: Type.Optional(Type.String({
    minLength: 1,
    description: `destination statuses, separated by commas (\`pending_approval\`, \`failed,unknown\`): a post is listed when one of its destinations has one of them (with \`social_account_id\` or \`tenant_id\`, a destination to that account or tenant). One of: ${TARGET_STATUSES.join(', ')}`,
  })),
  ...PaginationQuery,
});

export type ListPostsQuery = Static<typeof ListPostsQuerySchema>;

export const PaginationSchema = Type.Object({
  total: Type.Integer(),
  count: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const ListPostsResponseSchema = Type.Object({
  success: Type.Boolean(),
  posts: Type.Array(PostDetailSchema, { description: 'Each post with every account it goes to and each one\'s publishing state, as GET /v1/posts/{id}' }),
  data: Type.Array(PostDetailSchema),
  pagination: PaginationSchema,
  count: Type.Integer({ description: 'The total of posts matching the filters (`pagination.total`), for clients that read it at the top level' }),
});

/** A text as a network receives it, counted its way (networks/measure.ts). */
const measuredText = (what: string) => ({
  text: Type.String({ description: `${what} as the network receives it` }),
  length: Type.Integer({ description: 'its length, counted in `unit`' }),
  limit: Type.Union([Type.Integer(), Type.Null()], { description: 'the most the network takes, in `unit`; null where Crier judges no limit. A length over it is among the destination\'s `reasons`' }),
  unit: Type.Union(TEXT_UNITS.map((u) => Type.Literal(u)), {
    description: 'how the network counts: `weighted` (links 23, most CJK characters and emoji 2, others 1), `graphemes` (what a reader sees as one character), `characters` (Unicode code points), `utf16` (UTF-16 code units), `utf8_bytes`, `emoji_bytes` (characters, an emoji counting its UTF-8 bytes)',
  }),
});

const PreviewPartSchema = Type.Object({
  role: Type.Union([Type.Literal('post'), Type.Literal('reply'), Type.Literal('comment')], { description: '`post`: the post itself; `reply`: a post of its own replying in the thread; `comment`: a comment under the post' }),
  ...measuredText('The part\'s text (the platform block\'s `content` on the root, a text the network\'s side cuts or joins)'),
  title: Type.Optional(Type.Object(measuredText('The title'), { description: 'a title the network shows apart from the text (a video\'s, a pin\'s, a submission\'s, a photo post\'s)' })),
  media: Type.Array(Type.Object({
    filename: Type.String(),
    kind: Type.Union([Type.Literal('image'), Type.Literal('video'), Type.Literal('other')], { description: 'from the filename\'s extension' }),
  }), { description: 'the part\'s media, in order' }),
  note: Type.Optional(Type.String({ description: 'what the network does with the text that is not plain from the rest (a story carries no caption, a link post shows the link)' })),
});

const PreviewSchema = Type.Object({
  parts: Type.Array(PreviewPartSchema, { description: 'each part the network publishes, in order: the root, then each reply or comment' }),
  leftOut: Type.Integer({ description: 'later containers the network does not publish (it takes no replies)' }),
}, { description: 'The post as this account\'s network will publish it, counted as its judgement counts: what a preview shows' });

/** POST /v1/posts?dry_run=true: nothing stored; per resolved account, whether it could publish the post. */
export const DryRunResponseSchema = Type.Object({
  success: Type.Boolean(),
  dryRun: Type.Literal(true),
  warnings: Type.Optional(Type.Array(Type.String())),
  scheduledAt: Type.Optional(Type.String({ format: 'date-time', description: 'with `"scheduledAt": "next-free-slot"`: the slot a create would take now (nothing is taken)' })),
  destinations: Type.Array(Type.Object({
    accountId: Type.String(),
    network: Type.String(),
    username: Type.String(),
    ok: Type.Boolean({ description: 'false: publishing would fail this destination, for `reasons`: what it refuses before calling the network, and what the network says of the account now where it can be asked (TikTok\'s creator settings for a direct post)' }),
    reasons: Type.Array(Type.String()),
    notes: Type.Optional(Type.Array(Type.String({ description: 'a check with the network that could not be made now; publishing makes it again' }))),
    preview: PreviewSchema,
  }), { description: 'One per resolved account, in the order a create lists them.' }),
}, { description: 'The answer of `?dry_run=true`' });
