// The request-time rules of POST /v1/posts that need no database: unknown keys, schema, the
// content/containers choice and the scheduling window. Rules that depend on the targeted networks
// run after account resolution (checkTargetRules).
import { networkOptions } from '../networks/options-registry.ts';
import { NETWORKS, type ContainerInput, type CreateContext, type FieldIssue, type NetworkId } from '../networks/types.ts';
import { validateSchema } from '../validation/ajv.ts';
import { isPlainObject, stripUnknownKeys } from '../validation/strip.ts';
import { CreatePostBodySchema, type CreatePostBody } from './schema.ts';

export const SCHEDULE_HORIZON_MS = 30 * 24 * 60 * 60 * 1000;

export interface CreateRequest {
  accounts: string[];
  containers: ContainerInput[];
  /** As the client sent it (a past time still means "now"). */
  scheduledAt: Date | null;
  isDraft: boolean;
  processMedia: boolean;
  /** Platform blocks present in the request, unknown keys removed. */
  blocks: Partial<Record<NetworkId, Record<string, unknown>>>;
  warnings: string[];
}

export type Parsed = { ok: true; request: CreateRequest } | { ok: false; details: FieldIssue[] };

const DEPRECATED_KEYS: Record<string, string> = {
  socialAccountIds: '"socialAccountIds" is deprecated and was ignored; list account ids or usernames in "accounts"',
  mediaIds: '"mediaIds" is deprecated and was ignored; attach media by URL in containers[].media',
  networkOverrideConfiguration:
    '"networkOverrideConfiguration" is a response field and was ignored; send per-network options as top-level keys such as "tiktok"',
};

export function parseCreateBody(body: unknown, now: Date): Parsed {
  if (!isPlainObject(body)) return { ok: false, details: [{ field: '(body)', message: 'must be a JSON object' }] };
  const { value, dropped } = stripUnknownKeys(CreatePostBodySchema, body);
  const warnings = dropped.map((key) => (Object.hasOwn(DEPRECATED_KEYS, key) ? DEPRECATED_KEYS[key] : `Unknown key "${key}" was ignored`));
  const details = validateSchema(CreatePostBodySchema, value);
  const input = value as CreatePostBody;
  details.push(...checkContentShape(input));
  if (details.length === 0) details.push(...checkSchedule(input.scheduledAt, now));
  if (details.length) return { ok: false, details };

  const blocks: CreateRequest['blocks'] = {};
  for (const network of NETWORKS) {
    const block = (input as Record<string, unknown>)[network];
    if (block !== undefined) blocks[network] = block as Record<string, unknown>;
  }
  return {
    ok: true,
    request: {
      accounts: input.accounts,
      containers: normalizeContainers(input),
      scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : null,
      isDraft: input.isDraft ?? false,
      processMedia: input.processMedia ?? false,
      blocks,
      warnings,
    },
  };
}

function checkContentShape(input: CreatePostBody): FieldIssue[] {
  const hasContent = input.content !== undefined;
  const hasContainers = input.containers !== undefined;
  if (hasContent && hasContainers) {
    return [{ field: 'content', message: 'send either "content" or "containers", not both' }];
  }
  if (!hasContent && !hasContainers) {
    return [{ field: 'content', message: 'one of "content" or "containers" is required' }];
  }
  if (hasContent && typeof input.content === 'string' && input.content.trim() === '') {
    return [{ field: 'content', message: 'must not be empty; to post media only, use "containers" with media' }];
  }
  // This runs beside the schema check, so anything may still have the wrong type here.
  if (!Array.isArray(input.containers)) return [];
  const issues: FieldIssue[] = [];
  input.containers.forEach((container, index) => {
    if (!isPlainObject(container)) return;
    const content = typeof container.content === 'string' ? container.content : '';
    const media = Array.isArray(container.media) ? container.media : [];
    const empty = content.trim() === '' && media.length === 0;
    if (empty) issues.push({ field: `containers[${index}]`, message: 'needs "content" or at least one "media" item' });
  });
  return issues;
}

function checkSchedule(scheduledAt: string | undefined, now: Date): FieldIssue[] {
  if (scheduledAt === undefined) return [];
  const at = Date.parse(scheduledAt);
  if (Number.isNaN(at)) return [{ field: 'scheduledAt', message: 'must be an ISO 8601 date-time with a time zone' }];
  if (at - now.getTime() > SCHEDULE_HORIZON_MS) {
    return [{ field: 'scheduledAt', message: 'must be at most 30 days in the future' }];
  }
  return [];
}

function normalizeContainers(input: CreatePostBody): ContainerInput[] {
  if (input.content !== undefined) return [{ content: input.content, media: [] }];
  return (input.containers ?? []).map((container) => ({
    content: container.content ?? '',
    media: (container.media ?? []).map((m) => (m.altText === undefined ? { url: m.url, filename: m.filename } : { ...m })),
  }));
}

/** The platform rules of each network an account of which is targeted (e.g. threads' 500 characters). */
export function checkTargetRules(request: CreateRequest, targetNetworks: ReadonlySet<NetworkId>): FieldIssue[] {
  const ctx: CreateContext = { containers: request.containers, targetNetworks, blocks: request.blocks };
  const issues: FieldIssue[] = [];
  for (const network of NETWORKS) {
    if (targetNetworks.has(network)) issues.push(...networkOptions[network].check(request.blocks[network], ctx));
  }
  return issues;
}
