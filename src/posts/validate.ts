// The request-time rules of POST /v1/posts: unknown keys, schema, the content/containers choice and the
// scheduling window (parseCreateBody, no database), then the platform rules and the static refusals
// once the accounts are resolved (checkTargets), so that block rules, target rules and what a targeted
// network can never publish are reported together.
import { refusalOf } from '../networks/preflight.ts';
import { networkFor } from '../networks/registry.ts';
import { NETWORKS } from '../networks/ids.ts';
import type { ContainerInput, PostContent, TargetContext } from '../core/post.ts';
import type { NetworkId } from '../core/network-id.ts';
import { type FieldIssue } from '../core/errors.ts';
import { validateSchema } from '../validation/ajv.ts';
import { parseDateTime } from '../validation/date-time.ts';
import type { FetchPolicy } from '../validation/fetched-url.ts';
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
    '"networkOverrideConfiguration" is a response field and was ignored; send per-network options as top-level keys named by network id',
};

/** `fetch` judges the URLs that will be fetched (media, covers): the installation's loopback switch and own media. */
export function parseCreateBody(body: unknown, now: Date, fetch: FetchPolicy): Parsed {
  if (!isPlainObject(body)) return { ok: false, details: [{ field: '(body)', message: 'must be a JSON object' }] };
  const { value, dropped } = stripUnknownKeys(CreatePostBodySchema, body);
  const warnings = dropped.map((key) => (Object.hasOwn(DEPRECATED_KEYS, key) ? DEPRECATED_KEYS[key] : `Unknown key "${key}" was ignored`));
  const details = validateSchema(CreatePostBodySchema, value, '', fetch);
  const input = value as CreatePostBody;
  details.push(...checkContentShape(input));
  // The schema has read scheduledAt with the one date-time parser, so it parses once the schema passed.
  const scheduledAt = details.length === 0 && input.scheduledAt !== undefined ? parseDateTime(input.scheduledAt)! : null;
  if (scheduledAt) details.push(...scheduleIssues(scheduledAt, now));
  if (details.length) return { ok: false, details };

  const blocks: CreateRequest['blocks'] = {};
  for (const network of NETWORKS) {
    const block = (input as Record<string, unknown>)[network];
    if (block !== undefined) blocks[network] = block as Record<string, unknown>;
  }
  const containers = normalizeContainers(input);
  warnings.push(...dropIgnoredFields(blocks, containers));
  return {
    ok: true,
    request: {
      accounts: input.accounts,
      containers,
      scheduledAt,
      isDraft: input.isDraft ?? false,
      processMedia: input.processMedia ?? false,
      blocks,
      warnings,
    },
  };
}

/**
 * Block fields that do nothing for this post (a network's `media.ignoredFields`) are dropped before
 * storing, each with a warning, as unknown keys are: harmless, but a warning says it is not in effect.
 */
function dropIgnoredFields(blocks: CreateRequest['blocks'], containers: ContainerInput[]): string[] {
  return Object.entries(blocks).flatMap(([network, block]) => {
    const ignored = networkFor(network as NetworkId).media.ignoredFields?.({ containers, block }) ?? [];
    if (ignored.length) blocks[network as NetworkId] = Object.fromEntries(Object.entries(block).filter(([key]) => !ignored.some((i) => i.field === key)));
    return ignored.map((i) => `"${network}.${i.field}" was ignored: ${i.why}`);
  });
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

/** Rule 4's window, on create and PATCH alike: a past time means now; more than 30 days ahead is refused. */
export function scheduleIssues(scheduledAt: Date, now: Date): FieldIssue[] {
  if (scheduledAt.getTime() - now.getTime() <= SCHEDULE_HORIZON_MS) return [];
  return [{ field: 'scheduledAt', message: 'must be at most 30 days in the future' }];
}

function normalizeContainers(input: CreatePostBody): ContainerInput[] {
  if (input.content !== undefined) return [{ content: input.content, media: [] }];
  return (input.containers ?? []).map((container) => ({
    content: container.content ?? '',
    media: (container.media ?? []).map((m) => (m.altText === undefined ? { url: m.url, filename: m.filename } : { ...m })),
  }));
}

/**
 * Every platform rule of the request: the block rules of each block present, whatever is targeted, and
 * the target rules of each network an account of which is targeted (e.g. threads' 500 characters).
 */
export function checkPlatformRules(request: CreateRequest, targetNetworks: ReadonlySet<NetworkId>): FieldIssue[] {
  return [...platformRuleIssues(request, targetNetworks).values()].flat();
}

/** The platform rules' issues, by the network whose rules found them. */
function platformRuleIssues(request: CreateRequest, targetNetworks: ReadonlySet<NetworkId>): Map<NetworkId, FieldIssue[]> {
  const post: PostContent = { containers: request.containers, blocks: request.blocks };
  const ctx: TargetContext = { ...post, targetNetworks };
  return new Map(NETWORKS.map((network) => {
    const { blockRules, targetRules } = networkFor(network).options;
    const block = request.blocks[network];
    return [network, [
      ...(block === undefined ? [] : blockRules(block, post)),
      ...(targetNetworks.has(network) ? targetRules(block, ctx) : [])]];
  }));
}

/**
 * The create's platform rules and its static refusals, for the accounts the request resolved to (in
 * the post's `socialAccounts` order). A target whose network would refuse the post whatever happens
 * when publishing — its judgement (contract.ts NetworkMedia.judge) refuses it from the request alone —
 * is refused here, as `socialAccounts[i]` with the judgement's own words, unless that network's rules
 * already named a field to fix. The judgement leaves out what the spec leaves to publishing (X's and
 * Bluesky's text lengths).
 */
export function checkTargets(request: CreateRequest, accounts: readonly { network: NetworkId }[]): FieldIssue[] {
  const byNetwork = platformRuleIssues(request, new Set(accounts.map((a) => a.network)));
  const refusals = accounts.flatMap((account, i) => {
    if (byNetwork.get(account.network)!.length) return [];
    const refusal = refusalOf(account.network, { containers: request.containers, block: request.blocks[account.network] }, 'create');
    return refusal === undefined ? [] : [{ field: `socialAccounts[${i}]`, message: refusal }];
  });
  return [...[...byNetwork.values()].flat(), ...refusals];
}
