// The MCP tools: each one is an operation of Crier's API, and its input schema is that operation's
// own (path and query parameters, and the JSON body's properties, from Crier's OpenAPI document), so
// it cannot drift from what the API validates. Names are unique: an agent calls a tool by its name.
import type { ApiRequest } from './api.ts';
import type { NetworkTextFields } from './untrusted.ts';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

export interface ToolOperation {
  name: string;
  description: string;
  method: ApiRequest['method'];
  /** The OpenAPI path, with `{param}` placeholders. */
  path: string;
  /**
   * Query parameters the tool sets itself; never part of its input. The tool exists only where the
   * operation declares them: validate_post on a Crier without the dry run would create the post.
   */
  fixedQuery?: Record<string, string>;
  /** Query parameters the tool never sends (create_post is never a dry run: validate_post is). */
  hiddenQuery?: string[];
  readOnly: boolean;
  /**
   * The keys of its answer whose strings third parties wrote on a network (comments, names, posts
   * read back): marked as untrusted in the result (untrusted.ts).
   */
  networkText?: string[];
}

/** A post's text and alt texts (a post imported from a network was written there) and its accounts' display names. */
const POST_TEXT = ['content', 'altText', 'nickname'];
/** A comment, its author's names, and the network's own fields about it. */
const REPLY_TEXT = ['text', 'author_name', 'author_username', 'platform_specific'];
/** What a network's listing holds that its users named (a board's name and description, a flair's text). */
const LISTING_TEXT = ['name', 'description', 'text', 'title'];
/** What an event's data carries that someone wrote on a network: a comment's or a message's text, a commenter's name. */
const EVENT_TEXT = ['text', 'content', 'authorUsername'];

const MEDIA_NOTE =
  'Media: give each file as `{url, filename}` in a container\'s `media`. The URL is one Crier can fetch (a public https URL, or a file uploaded to Crier); Crier fetches it when it publishes and checks it against each network\'s rules.';

export const TOOL_OPERATIONS: ToolOperation[] = [
  { name: 'list_accounts', method: 'GET', path: '/v1/social-accounts', readOnly: true, networkText: ['nickname'], description: 'List the connected social accounts (id, network, username) a post can target.' },
  {
    name: 'validate_post', method: 'POST', path: '/v1/posts', fixedQuery: { dry_run: 'true' }, readOnly: true,
    description: `Check a post without creating it: the same input as create_post; answers per destination \`ok\` or the reasons it would fail. Nothing is stored. ${MEDIA_NOTE}`,
  },
  {
    name: 'create_post', method: 'POST', path: '/v1/posts', hiddenQuery: ['dry_run'], readOnly: false,
    description: `Create a post on the given accounts (ids or usernames): published now, at \`scheduledAt\` (ISO 8601 with a time zone, or \`"next-free-slot"\`: the next free slot of the accounts' queues), or kept as a draft (\`isDraft\`). Several \`containers\` make a thread. ${MEDIA_NOTE}`,
  },
  { name: 'get_post', method: 'GET', path: '/v1/posts/{id}', readOnly: true, networkText: POST_TEXT, description: 'A post with the publishing state of each destination (status, the published URL, or the error).' },
  { name: 'list_posts', method: 'GET', path: '/v1/posts', readOnly: true, networkText: POST_TEXT, description: 'List posts, newest first; the filters combine.' },
  { name: 'cancel_post', method: 'DELETE', path: '/v1/posts/{id}', readOnly: false, description: 'Cancel a post that has not started publishing, or delete the record of a finished one (what was published stays on the networks); `outcome` says which.' },
  { name: 'reschedule_post', method: 'PATCH', path: '/v1/posts/{id}', readOnly: false, description: 'Move a post to another `scheduledAt`, or turn it into a draft (`isDraft: true`) or out of one (`isDraft: false`).' },
  // Never `legacy`: the network's own shapes would carry comment text under keys REPLY_TEXT does not name.
  { name: 'list_replies', method: 'GET', path: '/v1/posts/{id}/replies', hiddenQuery: ['legacy'], readOnly: true, networkText: REPLY_TEXT, description: "A published post's comments, read from its network (`network`/`username` choose the destination when the post went to several; `include_replies` nests the answers)." },
  { name: 'reply_to_post', method: 'POST', path: '/v1/posts/{id}/replies', readOnly: false, description: 'Comment on a published post as the account that published it, or answer one of its comments (`parent_comment_id`, an id from list_replies).' },
  { name: 'get_post_analytics', method: 'GET', path: '/v1/posts/{id}/analytics', readOnly: true, description: "A post's figures per destination, read from each network (null: the network does not give that figure)." },
  { name: 'get_account_metrics', method: 'GET', path: '/v1/social-accounts/{id}/metrics', readOnly: true, description: "An account's followers, following, posts and engagement, read from its network (`ranged` says whether they cover since–until)." },
  { name: 'edit_post_on_networks', method: 'PATCH', path: '/v1/posts/{id}/remote', readOnly: false, description: "Change a published post's text on every network it went to whose API can edit one: `content` for the first container or `containers` by position; judged first as publishing would, nothing changed when one network would refuse; answers per account edited, not_supported, failed, not_published or unchanged." },
  { name: 'delete_post_from_networks', method: 'DELETE', path: '/v1/posts/{id}/remote', readOnly: false, description: 'Delete a published post from every network it went to where the network allows it; answers per account deleted, not_supported, failed or not_published.' },
  { name: 'upload_media_from_url', method: 'POST', path: '/v1/media/import', readOnly: false, description: "Have Crier download a file from a public URL and keep it: answers the media with its Crier `url`, to give as a post's media (`{url, filename}`). Checked as an upload is (type from the bytes, size limit)." },
  { name: 'list_media', method: 'GET', path: '/v1/media', readOnly: true, description: 'Files uploaded to Crier; the `url` of a ready one can be given as a post\'s media.' },
  {
    name: 'list_events', method: 'GET', path: '/v1/events', readOnly: true, networkText: EVENT_TEXT,
    description: "The organization's events (post.published, post.error, comment.received…), oldest first, with the same id and data as their webhooks. Pass the answer's `next` as `after` to read only what happened since; `types` filters (comma-separated).",
  },
  {
    name: 'approve_post', method: 'POST', path: '/v1/posts/{id}/approve', readOnly: false,
    description: 'Approve a post waiting for approval (its destinations `pending_approval`; list them with list_posts and `status: "pending_approval"`): it is queued at its scheduledAt, or at once when that has passed. Needs an approver or admin key.',
  },
  { name: 'reject_post', method: 'POST', path: '/v1/posts/{id}/reject', readOnly: false, description: 'Reject a post waiting for approval, with an optional `reason`: final, none of its destinations publishes. Needs an approver or admin key.' },
  { name: 'list_queues', method: 'GET', path: '/v1/queues', readOnly: true, description: 'The accounts\' posting queues: weekly time slots in a time zone that `scheduledAt: "next-free-slot"` fills.' },
  { name: 'create_queue', method: 'POST', path: '/v1/queues', readOnly: false, description: 'Give an account a posting queue: weekly slots (day and HH:MM local time) in an IANA time zone. A post with `scheduledAt: "next-free-slot"` then takes the next free one.' },
  { name: 'preview_queue_slots', method: 'GET', path: '/v1/queues/{id}/slots', readOnly: true, description: "A queue's next slots (`count`) and the posts standing in them." },
  { name: 'list_recurrences', method: 'GET', path: '/v1/recurrences', readOnly: true, networkText: POST_TEXT, description: 'The recurring posts: each rule, its status, its next occurrence and how many posts it created.' },
  {
    name: 'create_recurrence', method: 'POST', path: '/v1/recurrences', readOnly: false,
    description: 'Make a post recur: the input of create_post (no scheduledAt) plus `every` ({"days": n} or {"hours": n}) or `weekly` ({"days": ["monday"], "time": "09:00", "timeZone": "Europe/Paris"}), and `count` or `until`; `variations` give other texts for networks that refuse a repeated one. Each occurrence becomes its own post.',
  },
  { name: 'list_evergreen_collections', method: 'GET', path: '/v1/evergreen-collections', readOnly: true, description: 'The evergreen collections: pools of posts re-shared on a queue or a rule, each with its schedule, minimum gap, next run and why it waits, if it does.' },
  {
    name: 'create_evergreen_collection', method: 'POST', path: '/v1/evergreen-collections', readOnly: false,
    description: 'Make a pool of posts to re-share: `name`, `accounts`, a schedule (`queue: true` for the accounts\' next free queue slots, or `every`/`weekly` as create_recurrence), `minGapDays` (an item is not reused sooner; default 30) and `items` (each the input of create_post without accounts, plus `variations` for networks that refuse a repeated text). Each re-share becomes its own post.',
  },
];

/** Where the networks' listings are served (capabilities.ts AccountListing): below an account, one GET each. */
const LISTING_PREFIX = '/v1/social-accounts/{id}/';

/** A tool as MCP lists it, and how its arguments become an API request. */
export interface Tool {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean };
  /** The keys of its answer holding network text, marked as untrusted (ToolOperation.networkText). */
  networkText: NetworkTextFields;
  request(args: Record<string, unknown>): ApiRequest;
}

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation>>;
}

/**
 * A tool per list a network offers to fill its block (a Pinterest account's boards, a subreddit's
 * flairs), found in the document rather than named here: `list_boards`, `list_subreddits_flairs`.
 * The other reads below an account are no listings: one a named tool already makes (its metrics),
 * and one of a single item (a path ending in its id, as an import job's).
 */
function listingOperations(document: OpenApiDocument): ToolOperation[] {
  const named = new Set(TOOL_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`));
  return Object.entries(document.paths ?? {}).flatMap(([path, methods]) => {
    if (!path.startsWith(LISTING_PREFIX) || !methods.get || named.has(`GET ${path}`) || path.endsWith('}')) return [];
    const words = path.slice(LISTING_PREFIX.length).split('/').filter((segment) => !segment.startsWith('{'));
    const description = [methods.get.summary, methods.get.description].filter(Boolean).join('. ');
    return [{ name: `list_${words.join('_')}`, method: 'GET' as const, path, readOnly: true, networkText: LISTING_TEXT, description: description || `GET ${path}` }];
  });
}

/**
 * The tools whose operation the document has: a Crier without a network's listing, or without the
 * dry run, lacks that tool rather than offering one that would fail or do something else. A name
 * is offered once (the first operation of that name): a second one could never be called.
 */
export function buildTools(document: OpenApiDocument): Tool[] {
  const tools = [...TOOL_OPERATIONS, ...listingOperations(document)].flatMap((operation) => {
    const spec = document.paths?.[operation.path]?.[operation.method.toLowerCase()];
    if (!spec) return [];
    const declared = new Set((spec.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
    if (!Object.keys(operation.fixedQuery ?? {}).every((name) => declared.has(name))) return [];
    return [toolOf(operation, spec.parameters ?? [], spec.requestBody?.content?.['application/json']?.schema)];
  });
  return tools.filter((tool, i) => tools.findIndex((other) => other.name === tool.name) === i);
}

function toolOf(operation: ToolOperation, parameters: OpenApiParameter[], body: JsonSchema | undefined): Tool {
  const fixed = new Set([...Object.keys(operation.fixedQuery ?? {}), ...(operation.hiddenQuery ?? [])]);
  const params = parameters.filter((p) => (p.in === 'path' || p.in === 'query') && !fixed.has(p.name));
  // Headers a tool may set (create_post's Idempotency-Key), as snake_case inputs: idempotency_key.
  const headers = parameters.filter((p) => p.in === 'header').map((p) => ({ ...p, input: p.name.toLowerCase().replace(/-/g, '_') }));
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of params) {
    properties[p.name] = { ...p.schema, ...(p.description ? { description: p.description } : {}) };
    if (p.required) required.push(p.name);
  }
  for (const h of headers) properties[h.input] = { ...h.schema, description: h.description ?? `Sent as the ${h.name} header` };
  const { properties: bodyProperties = {}, required: bodyRequired = [], type: _type, ...bodyRest } = body ?? {};
  Object.assign(properties, bodyProperties);
  required.push(...bodyRequired);
  const pathNames = params.filter((p) => p.in === 'path').map((p) => p.name);
  const queryNames = new Set(params.filter((p) => p.in === 'query').map((p) => p.name));
  return {
    name: operation.name,
    description: operation.description,
    inputSchema: { ...bodyRest, type: 'object', properties, ...(required.length ? { required } : {}) },
    annotations: { readOnlyHint: operation.readOnly, destructiveHint: operation.method === 'DELETE' },
    networkText: new Set(operation.networkText),
    request(args) {
      let path = operation.path;
      for (const name of pathNames) path = path.replace(`{${name}}`, encodeURIComponent(String(args[name] ?? '')));
      const query: Record<string, unknown> = { ...operation.fixedQuery };
      const bodyArgs: Record<string, unknown> = {};
      const headerArgs: Record<string, string> = {};
      for (const [name, value] of Object.entries(args)) {
        if (pathNames.includes(name)) continue;
        const header = headers.find((h) => h.input === name);
        if (header) {
          if (value !== undefined && value !== null) headerArgs[header.name] = String(value);
          continue;
        }
        if (queryNames.has(name)) query[name] = value;
        else bodyArgs[name] = value;
      }
      return { method: operation.method, path, query, body: body ? bodyArgs : undefined, ...(Object.keys(headerArgs).length ? { headers: headerArgs } : {}) };
    },
  };
}
