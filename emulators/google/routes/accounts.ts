// The Google APIs a Business Profile connect reads: the account and location listings, with Google's
// bearer checks (401 UNAUTHENTICATED, 403 PERMISSION_DENIED for a missing scope), paging
// (nextPageToken; an empty list is `{}`) and the mandatory readMask of locations.list. accounts.list
// answers the user's PERSONAL account first, as its reference says. Query parameters are bound as
// Google's transcoding binds them (../validate/business-query.ts). YouTube's channels.list is with the
// rest of YouTube (../youtube/channels.ts).
import type { Reply } from '../../shared/http.ts';
import { badRequest, errorInfo, INSUFFICIENT_SCOPES, INVALID_CREDENTIALS, INVALID_TOKEN_HEADER, MISSING_CREDENTIALS, richError } from '../errors.ts';
import type { GoogleBusinessAccount, GoogleLocation, GoogleUser } from '../state/accounts.ts';
import type { GoogleWorld } from '../state/world.ts';
import { transcodedQuery } from '../validate/business-query.ts';
import type { GoogleRoute, RawInput } from './route.ts';

const SCOPE = 'https://www.googleapis.com/auth/';
const BUSINESS_SCOPES = ['business.manage', 'plus.business.manage'].map((s) => SCOPE + s);
const LOCATION_FIELDS = new Set([
  'name', 'languageCode', 'storeCode', 'title', 'phoneNumbers', 'categories', 'storefrontAddress', 'websiteUri', 'regularHours',
  'specialHours', 'serviceArea', 'labels', 'adWordsLocationExtensions', 'latlng', 'openInfo', 'metadata', 'profile', 'relationshipData',
  'moreHours', 'serviceItems',
]);
const ACCOUNTS_SERVICE = 'mybusinessaccountmanagement.googleapis.com';
const INFO_SERVICE = 'mybusinessbusinessinformation.googleapis.com';

/** accounts.list's query fields (accountmanagement v1 reference). */
const ACCOUNTS_LIST_FIELDS = { parentAccount: {}, pageSize: {}, pageToken: {}, filter: {} };
/** accounts.locations.list's query fields (businessinformation v1 reference); readMask is a FieldMask. */
const LOCATIONS_LIST_FIELDS = { readMask: { fieldMask: true }, pageSize: {}, pageToken: {}, filter: {}, orderBy: {} };

type Auth = { ok: true; user: GoogleUser } | { ok: false; reply: Reply };

/** A page token: the offset, opaque to clients. */
const pageToken = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
function readPageToken(token: string | undefined): number | undefined {
  if (!token) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

export function accountRoutes(world: GoogleWorld): GoogleRoute[] {
  /** The bearer token's user, or the API's 401/403 in the rich envelope. */
  const authenticate = (input: RawInput, scopes: string[], family: { service: string; method: string }): Auth => {
    const match = /^Bearer\s+(\S+)$/i.exec(input.headers.authorization ?? '');
    if (!match) return { ok: false, reply: richError(401, MISSING_CREDENTIALS, [errorInfo('CREDENTIALS_MISSING', family.service, family.method)]) };
    const check = world.oauth.checkAccess(match[1]);
    if (!check.ok) {
      return { ok: false, reply: richError(401, INVALID_CREDENTIALS, check.reason === 'expired' ? [errorInfo('ACCESS_TOKEN_EXPIRED', family.service, family.method)] : [], INVALID_TOKEN_HEADER) };
    }
    const user = world.store.users.get(check.userId);
    if (!check.scopes.some((s) => scopes.includes(s)) || !user) {
      return { ok: false, reply: richError(403, INSUFFICIENT_SCOPES, [errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT', family.service, family.method)]) };
    }
    return { ok: true, user };
  };

  const accounts: GoogleRoute['handler'] = (input) => {
    const method = 'google.mybusiness.accountmanagement.v1.AccountManagement.ListAccounts';
    const auth = authenticate(input, BUSINESS_SCOPES, { service: ACCOUNTS_SERVICE, method });
    if (!auth.ok) return auth.reply;
    const bound = transcodedQuery(ACCOUNTS_LIST_FIELDS, input.query);
    if (!bound.ok) return bound.reply;
    const { query } = bound;
    const size = pageSizeOf(query.pageSize, 20, 20);
    if (size === undefined) return richError(400, 'Request contains an invalid argument.', [badRequest('page_size', 'Page size must be between 1 and 20')]);
    const offset = readPageToken(query.pageToken);
    if (offset === undefined) return richError(400, 'Request contains an invalid argument.', [badRequest('page_token', 'Invalid page token')]);
    const all = personalFirst(auth.user.businessAccounts).map(({ ownerId: _owner, locations: _locations, ...account }) => account);
    return { status: 200, body: page(all, offset, size, 'accounts') };
  };

  const locations: GoogleRoute['handler'] = (input) => {
    const method = 'google.mybusiness.businessinformation.v1.BusinessInformation.ListLocations';
    const auth = authenticate(input, BUSINESS_SCOPES, { service: INFO_SERVICE, method });
    if (!auth.ok) return auth.reply;
    const account = world.store.accounts.get(`accounts/${input.params.accountId}`);
    if (!account || account.ownerId !== auth.user.id) return richError(403, 'The caller does not have permission');
    const bound = transcodedQuery(LOCATIONS_LIST_FIELDS, input.query);
    if (!bound.ok) return bound.reply;
    const { query } = bound;
    const readMask = query.readMask;
    if (!readMask) return richError(400, 'Request contains an invalid argument.', [badRequest('read_mask', 'Field is required')]);
    const fields = readMask.split(',').map((f) => f.trim());
    if (fields.some((f) => !LOCATION_FIELDS.has(f.split('.')[0]!))) return richError(400, 'Request contains an invalid argument.', [badRequest('read_mask', 'Invalid field mask provided')]);
    const size = pageSizeOf(query.pageSize, 10, 100);
    if (size === undefined) return richError(400, 'Request contains an invalid argument.', [badRequest('page_size', 'Page size must be between 1 and 100')]);
    const offset = readPageToken(query.pageToken);
    if (offset === undefined) return richError(400, 'Request contains an invalid argument.', [badRequest('page_token', 'Invalid page token')]);
    const top = new Set(fields.map((f) => f.split('.')[0]!));
    const projected = account.locations.map((l) => project(l, top));
    return { status: 200, body: page(projected, offset, size, 'locations') };
  };

  return [
    { method: 'GET', url: '/v1/accounts', handler: accounts },
    { method: 'GET', url: '/v1/accounts/:accountId/locations', handler: locations },
  ];
}

/**
 * "The personal account of the user doing the query will always be the first item of the result,
 * unless it is filtered out" (accounts.list reference); the others keep the order they were added in.
 */
function personalFirst(accounts: GoogleBusinessAccount[]): GoogleBusinessAccount[] {
  return [...accounts.filter((a) => a.type === 'PERSONAL'), ...accounts.filter((a) => a.type !== 'PERSONAL')];
}

function pageSizeOf(raw: string | undefined, fallback: number, max: number): number | undefined {
  if (raw === undefined || raw === '' || raw === '0') return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : undefined;
}

/** One page; proto3 JSON leaves out an empty list, so no items at all is `{}`. */
function page<T>(all: T[], offset: number, size: number, field: string): Record<string, unknown> {
  const items = all.slice(offset, offset + size);
  return {
    ...(items.length ? { [field]: items } : {}),
    ...(offset + size < all.length ? { nextPageToken: pageToken(offset + size) } : {}),
  };
}

function project(location: GoogleLocation, fields: Set<string>): Partial<GoogleLocation> {
  return Object.fromEntries(Object.entries(location).filter(([name]) => fields.has(name)));
}
