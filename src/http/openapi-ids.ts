// Names every operation of /openapi.json in one place, so generated clients (the SDK, any
// openapi-generator) get stable method names: `operationId` derived from method and path
// (`GET /v1/posts` → listPosts, `POST /v1/posts` → createPost, `GET /v1/posts/:id` → getPost,
// `POST /v1/media/:id/confirm` → confirmMedia), and the create-post body examples (openapi-examples.ts).
// A route may still set its own `schema.operationId`; two routes deriving the same one fail the
// start, because a silent duplicate would break every client generated from the document.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { CREATE_POST_EXAMPLES } from './openapi-examples.ts';

/** Where the derived name would read badly: outside /v1, and a singleton resource. */
const NAMED: Record<string, string> = {
  'GET /media/:token/:filename': 'getMediaFile',
  'PUT /media-uploads/:id': 'uploadMediaBytes',
  'GET /v1/usage': 'getUsage',
  'GET /v1/posts/:id/analytics': 'getPostAnalytics',
  'POST /v1/media/import': 'importMedia',
  'DELETE /v1/posts/:id/remote': 'deletePostFromNetworks',
  'PATCH /v1/posts/:id/remote': 'editPostOnNetworks',
  'GET /v1/social-accounts/:id/metrics': 'getSocialAccountMetrics',
  'GET /v1/settings': 'getSettings',
  'PATCH /v1/settings': 'updateSettings',
};

/** A last path segment that is a verb names the operation itself (`POST /v1/webhooks/:id/test`). */
const ACTIONS = new Set(['approve', 'confirm', 'finalize', 'redeliver', 'reject', 'test', 'upload', 'validate']);

const IRREGULAR: Record<string, string> = { media: 'media', usage: 'usage' };

function singular(word: string): string {
  if (IRREGULAR[word]) return IRREGULAR[word]!;
  if (word.endsWith('ies')) return word.slice(0, -3) + 'y';
  return word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

function pascal(word: string): string {
  return word.split(/[-_.]/).filter(Boolean).map((part) => part[0]!.toUpperCase() + part.slice(1)).join('');
}

export function operationIdFor(method: string, url: string): string {
  const named = NAMED[`${method} ${url}`];
  if (named) return named;
  const segments = url.split('/').filter((s) => s && s !== 'v1');
  const endsWithParam = segments.at(-1)!.startsWith(':');
  const words = segments.filter((s) => !s.startsWith(':'));
  let verb: string;
  if (method === 'POST' && !endsWithParam && ACTIONS.has(words.at(-1)!)) verb = words.pop()!;
  else if (method === 'GET') verb = endsWithParam ? 'get' : 'list';
  else verb = ({ POST: 'create', PUT: 'replace', PATCH: 'update', DELETE: 'delete' } as Record<string, string>)[method] ?? method.toLowerCase();
  // A list keeps its last noun plural (listSocialAccountBoards); every other noun is one thing.
  const nouns = words.map((word, n) => (verb === 'list' && n === words.length - 1 ? word : singular(word)));
  // A trailing-slash alias (kept for clients that call it) is another operation of the document.
  const alias = url.length > 1 && url.endsWith('/') ? 'WithTrailingSlash' : '';
  return verb + nouns.map(pascal).join('') + alias;
}

function methodOf(route: RouteOptions): string | undefined {
  const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
  return methods[0];
}

export function installOperationIds(app: FastifyInstance): void {
  const taken = new Map<string, string>();
  app.addHook('onRoute', (route) => {
    const method = methodOf(route);
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    if (!method || schema.hide) return;
    const operationId = (schema.operationId as string | undefined) ?? operationIdFor(method, route.url);
    const where = `${method} ${route.url}`;
    const holder = taken.get(operationId);
    if (holder && holder !== where) throw new Error(`operationId ${operationId} of ${where} is already ${holder}'s: give one of them schema.operationId`);
    taken.set(operationId, where);
    // A copy: route schemas are shared constants in places, and each route needs its own id.
    const named: Record<string, unknown> = { ...schema, operationId };
    if (where === 'POST /v1/posts' && named.body) named.body = { ...(named.body as object), 'x-examples': CREATE_POST_EXAMPLES };
    route.schema = named;
  });
}
