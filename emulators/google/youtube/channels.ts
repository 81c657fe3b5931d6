// channels.list (www.googleapis.com/youtube/v3/channels): the channel of the token (`mine=true`; []
// for a Google user without one, which is how a connect learns it), by `id` or `forHandle`. Parts:
// snippet, contentDetails (the uploads playlist, "UU" + the channel id after "UC"), statistics
// (viewCount summed over the channel's videos, subscriberCount as set — hidden ones are left out with
// hiddenSubscriberCount true — videoCount counted). 1 unit, charged to the token's project.
import type { Reply } from '../../shared/http.ts';
import { legacyError, noFilter } from '../errors.ts';
import type { GoogleChannel } from '../state/accounts.ts';
import type { GoogleWorld } from '../state/world.ts';
import type { RouteInput } from '../routes/route.ts';
import type { Route } from './api.ts';
import { authenticateUser, charged, CHANNEL_SCOPES } from './auth.ts';
import type { YoutubeState } from './state.ts';

const CHANNEL_PARTS = new Set(['id', 'snippet', 'contentDetails', 'statistics', 'status', 'brandingSettings', 'topicDetails', 'localizations', 'auditDetails', 'contentOwnerDetails']);
const CHANNEL_FILTERS = ['forUsername', 'managedByMe', 'categoryId', 'mine', 'mySubscribers', 'id', 'forHandle'];

export function mountChannels(route: Route, world: GoogleWorld, state: YoutubeState): void {
  route('GET', '/youtube/v3/channels', (input) => listChannels(world, state, input));
}

/** The uploads playlist of a channel ("UC…" → "UU…"). */
export const uploadsPlaylistOf = (channelId: string) => `UU${channelId.slice(2)}`;

function listChannels(world: GoogleWorld, state: YoutubeState, input: RouteInput): Reply {
  const { query } = input;
  const auth = authenticateUser(world, input.headers.authorization, CHANNEL_SCOPES);
  if (!auth.ok) return auth.reply;
  if (!query.part) return legacyError(400, 'Required parameter: part', [{ message: 'Required parameter: part', domain: 'global', reason: 'required', location: 'part', locationType: 'parameter' }]);
  const parts = query.part.split(',').map((p) => p.trim());
  const unknown = parts.find((p) => !CHANNEL_PARTS.has(p));
  if (unknown !== undefined) return legacyError(400, `'${unknown}'`, [{ message: `'${unknown}'`, domain: 'youtube.part', reason: 'unknownPart', location: 'part', locationType: 'parameter' }]);
  const filters = CHANNEL_FILTERS.filter((f) => query[f] !== undefined);
  if (filters.length === 0) return noFilter(CHANNEL_FILTERS);
  if (filters.length > 1) {
    const message = `Incompatible parameters specified in the request: ${filters.join(', ')}`;
    return legacyError(400, message, [{ message, domain: 'youtube.parameter', reason: 'incompatibleParameters', location: filters[0], locationType: 'parameter' }]);
  }
  const refused = charged(state, auth.clientId, state.costs.list);
  if (refused) return refused;
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
    ...(parts.includes('snippet') ? { snippet: snippetOf(c) } : {}),
    ...(parts.includes('contentDetails') ? { contentDetails: { relatedPlaylists: { likes: '', uploads: uploadsPlaylistOf(c.id) } } } : {}),
    ...(parts.includes('statistics') ? { statistics: statisticsOf(state, c.id) } : {}),
  }));
  return { status: 200, body: { kind: 'youtube#channelListResponse', etag: etag(items.map((i) => i.id).join()), pageInfo: { totalResults: items.length, resultsPerPage: 5 }, items } };
}

function snippetOf(c: GoogleChannel): Record<string, unknown> {
  return {
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
  };
}

/** Counts are strings (uint64); a hidden subscriber count is left out. */
function statisticsOf(state: YoutubeState, channelId: string): Record<string, unknown> {
  const videos = [...state.videos.values()].filter((v) => v.channelId === channelId && !v.deleted);
  const subscribers = state.subscribers.get(channelId) ?? { count: 0, hidden: false };
  return {
    viewCount: String(videos.reduce((sum, v) => sum + v.viewCount, 0)),
    ...(subscribers.hidden ? {} : { subscriberCount: String(subscribers.count) }),
    hiddenSubscriberCount: subscribers.hidden,
    videoCount: String(videos.length),
  };
}

const etag = (seed: string) => Buffer.from(`etag:${seed}`).toString('base64url').slice(0, 27);
