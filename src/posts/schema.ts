// The request and response shapes of /v1/posts, as TypeBox schemas: they validate requests, and the
// OpenAPI document is generated from them.
import { Type, type Static, type TSchema } from 'typebox';
import { networkOptions } from '../networks/options-registry.ts';
import { NETWORKS } from '../networks/types.ts';
import { HttpUrl } from '../validation/schema.ts';

export const MAX_CONTENT_LENGTH = 100_000;
export const MAX_CONTAINERS = 100;
export const MAX_ACCOUNTS = 100;
export const MAX_MEDIA_PER_CONTAINER = 35;
export const MEDIA_URL_RULE = 'an https URL, or the url of media uploaded to this Crier';

export const MediaInputSchema = Type.Object({
  // http only for Crier's own media (checked in validate.ts): a local install serves it over http.
  url: HttpUrl({ maxLength: 2048, description: MEDIA_URL_RULE }),
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

const blockProperties: Record<string, TSchema> = {};
for (const network of NETWORKS) blockProperties[network] = Type.Optional(networkOptions[network].schema);

export const CreatePostBodySchema = Type.Object(
  {
    accounts: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { minItems: 1, maxItems: MAX_ACCOUNTS }),
    content: Type.Optional(Type.String({ maxLength: MAX_CONTENT_LENGTH })),
    containers: Type.Optional(Type.Array(ContainerInputSchema, { minItems: 1, maxItems: MAX_CONTAINERS })),
    scheduledAt: Type.Optional(Type.String({ format: 'date-time' })),
    isDraft: Type.Optional(Type.Boolean()),
    processMedia: Type.Optional(Type.Boolean()),
    ...blockProperties,
  },
  { description: 'Exactly one of `content` and `containers`. Per-network options are top-level keys named after the network.' },
);

export type CreatePostBody = Static<typeof CreatePostBodySchema>;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const SocialAccountRefSchema = Type.Object({
  id: Type.String(),
  nickname: Type.String(),
  network: Type.String(),
  username: Type.String(),
});

/** Per-account state, shown on GET /v1/posts/:id. */
export const TargetSchema = Type.Object({
  ...SocialAccountRefSchema.properties,
  status: Type.String({ enum: ['pending', 'publishing', 'published', 'failed', 'unknown', 'cancelled'] }),
  error: Nullable(Type.String()),
  platformPostId: Nullable(Type.String()),
  platformPostUrl: Nullable(Type.String()),
  publishedAt: Nullable(Type.String({ format: 'date-time' })),
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
};

export const PostSchema = Type.Object({ ...postProperties, socialAccounts: Type.Array(SocialAccountRefSchema) });
export const PostDetailSchema = Type.Object({ ...postProperties, socialAccounts: Type.Array(TargetSchema) });

export const CreatePostResponseSchema = Type.Object({
  success: Type.Boolean(),
  warnings: Type.Optional(Type.Array(Type.String())),
  post: PostSchema,
});

export const ListPostsQuerySchema = Type.Object({
  tenant_id: Type.Optional(Type.String({ minLength: 1 })),
  tenantId: Type.Optional(Type.String({ minLength: 1 })),
  social_account_id: Type.Optional(Type.String({ minLength: 1 })),
  created_after: Type.Optional(Type.String({ format: 'date-time' })),
  created_before: Type.Optional(Type.String({ format: 'date-time' })),
  scheduled_after: Type.Optional(Type.String({ format: 'date-time' })),
  scheduled_before: Type.Optional(Type.String({ format: 'date-time' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
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
  posts: Type.Array(PostSchema),
  data: Type.Array(PostSchema),
  pagination: PaginationSchema,
});
