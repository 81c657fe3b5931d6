// GET /2/users/me and GET /2/users/:id/tweets (the user's posts, newest first, bounded by time or id).
import { badQueryValue, invalidRequest, notFoundItem } from '../errors.ts';
import { fieldValues, vocabulariesOf, type VocabularySetting } from '../validate/description.ts';
import type { XRoute } from './route.ts';
import type { XTweet, XUser, XWorld } from '../state.ts';
import { includesFor, parseExpansions } from './expansions.ts';
import { parseFields, renderTweet } from './tweets.ts';

const ID = /^[0-9]{1,19}$/;
/** "Only the 3200 most recent Tweets are available." */
const TIMELINE_LIMIT = 3200;
/** YYYY-MM-DDTHH:mm:ssZ (RFC 3339); X also takes fractional seconds and offsets. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** "Minimum allowable time is 2010-11-06T00:00:00Z" (start_time; end_time one second later). */
const EARLIEST = Date.parse('2010-11-06T00:00:00Z');

export function userRoutes(world: XWorld): XRoute[] {
  const { store } = world;
  return [
    {
      method: 'GET',
      url: '/2/users/me',
      handler: ({ user, query }) => {
        const fields = parseUserFields(world.fieldVocabulary, query['user.fields']);
        if ('invalid' in fields) return fields.invalid;
        return { status: 200, body: { data: renderUser(world, user, fields.names) } };
      },
    },
    {
      method: 'GET',
      url: '/2/users/:id/tweets',
      handler: ({ params, query, vocabulary }) => {
        if (!ID.test(params.id)) return badQueryValue('id', params.id);
        const maxResults = query.max_results === undefined ? 10 : Number(query.max_results);
        if (!Number.isInteger(maxResults) || maxResults < 5 || maxResults > 100) {
          return invalidRequest({
            parameters: { max_results: [query.max_results ?? ''] },
            message: `The \`max_results\` query parameter value [${query.max_results}] is not between 5 and 100`,
          });
        }
        const fields = parseFields(world.fieldVocabulary, query);
        if ('invalid' in fields) return fields.invalid;
        const expanded = parseExpansions(world.fieldVocabulary, query);
        if ('invalid' in expanded) return expanded.invalid;
        if (!store.users.has(params.id)) return { status: 200, body: { errors: [notFoundItem('user', params.id)] } };

        const range = timelineRange(query);
        if ('invalid' in range) return range.invalid;
        const excluded = new Set((query.exclude ?? '').split(','));
        const all = store.tweets
          .filter((t) => t.authorId === params.id && !t.deleted)
          .reverse()
          // X serves the 3,200 most recent posts, replies included, before any other filter applies.
          .slice(0, TIMELINE_LIMIT)
          .filter((t) => !(excluded.has('replies') && t.inReplyToTweetId))
          .filter((t) => !(excluded.has('retweets') && t.retweetOfId))
          .filter(range.includes);
        // The pagination token is the id of the first post of the page it opens.
        const start = query.pagination_token ? all.findIndex((t) => t.id === query.pagination_token) : 0;
        if (start < 0) return badQueryValue('pagination_token', query.pagination_token ?? '');
        const page = all.slice(start, start + maxResults);
        if (page.length === 0) return { status: 200, body: { meta: { result_count: 0 } } };
        const next = all[start + maxResults];
        return {
          status: 200,
          body: {
            data: page.map((t) => renderTweet(world, t, fields.names, vocabulary)),
            ...includesFor(world, page, expanded),
            meta: {
              result_count: page.length,
              newest_id: page[0].id,
              oldest_id: page[page.length - 1].id,
              ...(next ? { next_token: next.id } : {}),
            },
          },
        };
      },
    },
  ];
}

/**
 * The time and id bounds of a timeline request: start_time and end_time are inclusive and count whole
 * seconds; since_id and until_id are exclusive and take precedence over the times.
 */
function timelineRange(query: Record<string, string | undefined>): { includes: (t: XTweet) => boolean } | { invalid: ReturnType<typeof badQueryValue> } {
  for (const name of ['since_id', 'until_id'] as const) {
    const value = query[name];
    if (value !== undefined && !ID.test(value)) return { invalid: badQueryValue(name, value) };
  }
  const times: Record<'start_time' | 'end_time', number | undefined> = { start_time: undefined, end_time: undefined };
  for (const name of ['start_time', 'end_time'] as const) {
    const value = query[name];
    if (value === undefined) continue;
    const at = RFC3339.test(value) ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(at) || at < EARLIEST + (name === 'end_time' ? 1000 : 0)) return { invalid: badQueryValue(name, value) };
    times[name] = Math.floor(at / 1000) * 1000;
  }
  if (times.start_time !== undefined && times.end_time !== undefined && times.start_time > times.end_time) {
    // The message's wording is not confirmed by a source.
    return {
      invalid: invalidRequest({
        parameters: { start_time: [query.start_time!], end_time: [query.end_time!] },
        message: `Invalid 'start_time':'${query.start_time}'. 'start_time' must be before 'end_time':'${query.end_time}'`,
      }),
    };
  }
  const sinceId = query.since_id === undefined ? undefined : BigInt(query.since_id);
  const untilId = query.until_id === undefined ? undefined : BigInt(query.until_id);
  return {
    includes: (t) => {
      const id = BigInt(t.id);
      const created = Math.floor(Date.parse(t.createdAt) / 1000) * 1000;
      if (sinceId !== undefined ? id <= sinceId : times.start_time !== undefined && created < times.start_time) return false;
      if (untilId !== undefined ? id >= untilId : times.end_time !== undefined && created > times.end_time) return false;
      return true;
    },
  };
}

/** user.fields: the values of the vocabularies accepted (pinned_tweet_id or pinned_post_id, …). */
export function parseUserFields(setting: VocabularySetting, raw: string | undefined): { names: Set<string> } | { invalid: ReturnType<typeof invalidRequest> } {
  const names = new Set((raw ?? '').split(',').filter((n) => n !== ''));
  const known = [...new Set(vocabulariesOf(setting).flatMap((v) => fieldValues(v, 'user.fields')))];
  const unknown = [...names].filter((n) => !known.includes(n));
  if (unknown.length === 0) return { names };
  return {
    invalid: invalidRequest({
      parameters: { 'user.fields': unknown },
      message: `The \`user.fields\` query parameter value [${unknown[0]}] is not one of [${known.join(',')}]`,
    }),
  };
}

/** The v2 User object: id, name and username by default, the rest on request (the ones emulated). */
export function renderUser(world: XWorld, user: XUser, fields: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = { id: user.id, name: user.name, username: user.username };
  if (fields.has('profile_image_url')) out.profile_image_url = user.profileImageUrl;
  if (fields.has('verified')) out.verified = false;
  if (fields.has('public_metrics')) {
    const tweets = world.store.tweets.filter((t) => t.authorId === user.id && !t.deleted).length;
    out.public_metrics = {
      followers_count: user.followersCount,
      following_count: user.followingCount,
      tweet_count: tweets,
      listed_count: user.listedCount,
      like_count: user.likeCount,
    };
  }
  return out;
}
