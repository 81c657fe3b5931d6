// The Google APIs a connect reads: YouTube Data v3 channels.list (the channel of the token) and the
// Business Profile account and location listings, with Google's bearer checks (401 UNAUTHENTICATED,
// 403 PERMISSION_DENIED for a missing scope), paging (nextPageToken; an empty list is `{}`) and the
// mandatory readMask of locations.list.
import type { Reply } from '../shared/http.ts';
import {
  badRequest, errorInfo, INSUFFICIENT_SCOPES, INVALID_CREDENTIALS, INVALID_TOKEN_HEADER, legacyError, MISSING_CREDENTIALS, richError,
} from './errors.ts';
import type { GoogleChannel, GoogleLocation, GoogleUser } from './store.ts';
import type { GoogleRoute, GoogleWorld, RouteInput } from './world.ts';

const SCOPE = 'https://www.googleapis.com/auth/';
const YOUTUBE_READ_SCOPES = ['youtube', 'youtube.readonly', 'youtube.force-ssl', 'youtubepartner'].map((s) => SCOPE + s);
const BUSINESS_SCOPES = ['business.manage', 'plus.business.manage'].map((s) => SCOPE + s);
const CHANNEL_PARTS = new Set(['id', 'snippet', 'contentDetails', 'statistics', 'status', 'brandingSettings', 'topicDetails', 'localizations', 'auditDetails', 'contentOwnerDetails']);
const CHANNEL_FILTERS = ['forUsername', 'managedByMe', 'categoryId', 'mine', 'mySubscribers', 'id', 'forHandle'];
const LOCATION_FIELDS = new Set([
  'name', 'languageCode', 'storeCode', 'title', 'phoneNumbers', 'categories', 'storefrontAddress', 'websiteUri', 'regularHours',
  'specialHours', 'serviceArea', 'labels', 'adWordsLocationExtensions', 'latlng', 'openInfo', 'metadata', 'profile', 'relationshipData',
  'moreHours', 'serviceItems',
]);
const ACCOUNTS_SERVICE = 'mybusinessaccountmanagement.googleapis.com';
const INFO_SERVICE = 'mybusinessbusinessinformation.googleapis.com';

type Auth = { ok: true; user: GoogleUser } | { ok: false; reply: Reply };

/** A page token: the offset, opaque to clients. */
const pageToken = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
function readPageToken(token: string | undefined): number | undefined {
  if (!token) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

export function apiRoutes(world: GoogleWorld): GoogleRoute[] {
  /** The bearer token's user, or the API's 401/403 in the API family's own envelope. */
  const authenticate = (input: RouteInput, scopes: string[], family: 'youtube' | { service: string; method: string }): Auth => {
    const match = /^Bearer\s+(\S+)$/i.exec(input.headers.authorization ?? '');
    const youtube = family === 'youtube';
    if (!match) {
      return {
        ok: false,
        reply: youtube
          ? legacyError(401, MISSING_CREDENTIALS, [{ message: 'Login Required.', domain: 'global', reason: 'required', location: 'Authorization', locationType: 'header' }])
          : richError(401, MISSING_CREDENTIALS, [errorInfo('CREDENTIALS_MISSING', family.service, family.method)]),
      };
    }
    const check = world.oauth.checkAccess(match[1]);
    if (!check.ok) {
      return {
        ok: false,
        reply: youtube
          ? legacyError(401, INVALID_CREDENTIALS, [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }], INVALID_TOKEN_HEADER)
          : richError(401, INVALID_CREDENTIALS, check.reason === 'expired' ? [errorInfo('ACCESS_TOKEN_EXPIRED', family.service, family.method)] : [], INVALID_TOKEN_HEADER),
      };
    }
    const user = world.store.users.get(check.userId);
    if (!check.scopes.some((s) => scopes.includes(s)) || !user) {
      return {
        ok: false,
        reply: youtube
          ? legacyError(403, INSUFFICIENT_SCOPES, [{ message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' }])
          : richError(403, INSUFFICIENT_SCOPES, [errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT', family.service, family.method)]),
      };
    }
    return { ok: true, user };
  };

  const channels: GoogleRoute['handler'] = (input) => {
    const { query } = input;
    const auth = authenticate(input, YOUTUBE_READ_SCOPES, 'youtube');
    if (!auth.ok) return auth.reply;
    if (!query.part) return legacyError(400, 'Required parameter: part', [{ message: 'Required parameter: part', domain: 'global', reason: 'required', location: 'part', locationType: 'parameter' }]);
    const parts = query.part.split(',').map((p) => p.trim());
    const unknown = parts.find((p) => !CHANNEL_PARTS.has(p));
    if (unknown !== undefined) return legacyError(400, `'${unknown}'`, [{ message: `'${unknown}'`, domain: 'youtube.part', reason: 'unknownPart', location: 'part', locationType: 'parameter' }]);
    const filters = CHANNEL_FILTERS.filter((f) => query[f] !== undefined);
    if (filters.length !== 1) {
      const message = filters.length ? `Incompatible parameters specified in the request: ${filters.join(', ')}` : `No filter selected. Expected one of: ${CHANNEL_FILTERS.join(', ')}`;
      return legacyError(400, message, [{ message, domain: 'youtube.parameter', reason: filters.length ? 'incompatibleParameters' : 'missingRequiredParameter', location: filters[0] ?? 'parameters', locationType: 'parameter' }]);
    }
    const everyChannel = () => [...world.store.users.values()].flatMap((u) => (u.channel ? [u.channel] : []));
    let found: GoogleChannel[] = [];
    if (query.mine === 'true') found = auth.user.channel ? [auth.user.channel] : [];
    else if (query.id !== undefined) {
      const ids = new Set(query.id.split(','));
      found = everyChannel().filter((c) => ids.has(c.id));
    } else if (query.forHandle !== undefined) {
      const handle = (query.forHandle.startsWith('@') ? query.forHandle : `@${query.forHandle}`).toLowerCase();
      found = everyChannel().filter((c) => c.customUrl.toLowerCase() === handle);
    }
    const items = found.map((c) => ({
      kind: 'youtube#channel',
      etag: etag(c.id),
      id: c.id,
      ...(parts.includes('snippet')
        ? {
            snippet: {
              title: c.title,
              description: c.description,
              customUrl: c.customUrl,
              publishedAt: c.publishedAt,
              thumbnails: {
                default: { url: c.thumbnailUrl, width: 88, height: 88 },
                medium: { url: c.thumbnailUrl.replace('=s88', '=s240'), width: 240, height: 240 },
                high: { url: c.thumbnailUrl.replace('=s88', '=s800'), width: 800, height: 800 },
              },
              localized: { title: c.title, description: c.description },
            },
          }
        : {}),
      ...(parts.includes('contentDetails') ? { contentDetails: { relatedPlaylists: { likes: '', uploads: `UU${c.id.slice(2)}` } } } : {}),
      ...(parts.includes('statistics') ? { statistics: { viewCount: '0', subscriberCount: '0', hiddenSubscriberCount: false, videoCount: '0' } } : {}),
    }));
    return { status: 200, body: { kind: 'youtube#channelListResponse', etag: etag(items.map((i) => i.id).join()), pageInfo: { totalResults: items.length, resultsPerPage: 5 }, items } };
  };

  const accounts: GoogleRoute['handler'] = (input) => {
    const method = 'google.mybusiness.accountmanagement.v1.AccountManagement.ListAccounts';
    const auth = authenticate(input, BUSINESS_SCOPES, { service: ACCOUNTS_SERVICE, method });
    if (!auth.ok) return auth.reply;
    const size = pageSizeOf(input.query.pageSize, 20, 20);
    if (size === undefined) return richError(400, 'Request contains an invalid argument.', [badRequest('page_size', 'Page size must be between 1 and 20')]);
    const offset = readPageToken(input.query.pageToken);
    if (offset === undefined) return richError(400, 'Request contains an invalid argument.', [badRequest('page_token', 'Invalid page token')]);
    const all = auth.user.businessAccounts.map(({ ownerId: _owner, locations: _locations, ...account }) => account);
    return { status: 200, body: page(all, offset, size, 'accounts') };
  };

  const locations: GoogleRoute['handler'] = (input) => {
    const method = 'google.mybusiness.businessinformation.v1.BusinessInformation.ListLocations';
    const auth = authenticate(input, BUSINESS_SCOPES, { service: INFO_SERVICE, method });
    if (!auth.ok) return auth.reply;
    const account = world.store.accounts.get(`accounts/${input.params.accountId}`);
    if (!account || account.ownerId !== auth.user.id) return richError(403, 'The caller does not have permission');
    const readMask = input.query.readMask;
    if (!readMask) return richError(400, 'Request contains an invalid argument.', [badRequest('read_mask', 'Field is required')]);
    const fields = readMask.split(',').map((f) => f.trim());
    if (fields.some((f) => !LOCATION_FIELDS.has(f.split('.')[0]!))) return richError(400, 'Request contains an invalid argument.', [badRequest('read_mask', 'Invalid field mask provided')]);
    const size = pageSizeOf(input.query.pageSize, 10, 100);
    if (size === undefined) return richError(400, 'Request contains an invalid argument.', [badRequest('page_size', 'Page size must be between 1 and 100')]);
    const offset = readPageToken(input.query.pageToken);
    if (offset === undefined) return richError(400, 'Request contains an invalid argument.', [badRequest('page_token', 'Invalid page token')]);
    const top = new Set(fields.map((f) => f.split('.')[0]!));
    const projected = account.locations.map((l) => project(l, top));
    return { status: 200, body: page(projected, offset, size, 'locations') };
  };

  return [
    { method: 'GET', url: '/youtube/v3/channels', handler: channels },
    { method: 'GET', url: '/v1/accounts', handler: accounts },
    { method: 'GET', url: '/v1/accounts/:accountId/locations', handler: locations },
  ];
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

const etag = (seed: string) => Buffer.from(`etag:${seed}`).toString('base64url').slice(0, 27);
