// The query parameters each API route takes. Rest.li answers a request whose query it cannot bind to
// the method's parameters with 400 ILLEGAL_ARGUMENT "Invalid query parameters passed to request" (the
// body reported in MicrosoftDocs/feedback#2940 and by many clients): an unknown name, or a parameter
// given twice (Rest.li 2.0 carries a list as one value, List(…), so no parameter repeats). A Rest.li
// 1.0 call (validate/restli.ts) spells records in dotted names and repeats a list's parameter, so
// those are its names. The OAuth pages on www.linkedin.com are not Rest.li and are left alone.
import { illegalArgument } from '../errors.ts';
import type { Reply } from '../../shared/http.ts';
import { V1_FIELDS, V1_LISTS, type Protocol } from './restli.ts';

/** Every value of each parameter, in order (Fastify gives a repeated parameter as an array). */
export function allValues(query: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.map(String) : [String(value)];
  }
  return out;
}

const PAGING = ['start', 'count'];

/** By route ('METHOD url'): the parameters it reads. Routes not listed take any query. */
export const ROUTE_QUERY: Readonly<Record<string, readonly string[]>> = {
  'GET /v2/userinfo': [],
  'GET /rest/organizationAcls': ['q', 'role', 'state', ...PAGING],
  'GET /rest/organizations/:id': [],
  'POST /rest/posts': [],
  'GET /rest/posts': ['q', 'author', 'sortBy', 'viewContext', ...PAGING],
  'GET /rest/posts/:urn': ['viewContext'],
  'DELETE /rest/posts/:urn': [],
  'POST /rest/images': ['action'],
  'POST /rest/documents': ['action'],
  'POST /rest/videos': ['action'],
  'GET /rest/images/:urn': [],
  'GET /rest/documents/:urn': [],
  'GET /rest/videos/:urn': [],
  'POST /rest/socialActions/:urn/comments': [],
  'GET /rest/socialActions/:urn/comments': PAGING,
  'GET /rest/socialActions/:urn/comments/:id': [],
  'GET /rest/socialActions/:urn': [],
  'GET /rest/organizationalEntityShareStatistics': ['q', 'organizationalEntity', 'shares', 'ugcPosts', 'timeIntervals'],
  'GET /rest/networkSizes/:urn': ['edgeType'],
  'GET /rest/memberCreatorPostAnalytics': ['q', 'entity', 'queryType', 'aggregation', 'dateRange'],
};

/** The names a route takes under `protocol`: under 1.0 each record parameter becomes its dotted fields. */
function namesFor(allowed: readonly string[], protocol: Protocol): readonly string[] {
  return protocol === 2 ? allowed : allowed.flatMap((name) => [name, ...(V1_FIELDS[name] ?? [])]);
}

/** The 400 for a query `endpoint` cannot take under `protocol`, or undefined. */
export function queryRefusal(endpoint: string, query: Record<string, string[]>, protocol: Protocol = 2): Reply | undefined {
  const allowed = ROUTE_QUERY[endpoint];
  if (!allowed) return undefined;
  const names = namesFor(allowed, protocol);
  const repeats = (name: string) => protocol === 1 && V1_LISTS.includes(name);
  const wrong = Object.entries(query).find(([name, values]) => !names.includes(name) || (values.length > 1 && !repeats(name)));
  return wrong ? illegalArgument('Invalid query parameters passed to request') : undefined;
}
