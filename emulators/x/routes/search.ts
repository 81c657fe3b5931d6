// GET /2/tweets/search/recent: the posts of the last 7 days matching a query, newest first. Only the
// `conversation_id:` operator is emulated (what Crier reads a post's replies with); any other query is
// refused as such rather than answered wrongly.
import { invalidRequest } from '../errors.ts';
import type { XRoute } from './route.ts';
import type { XWorld } from '../state.ts';
import { parseFields, renderTweet } from './tweets.ts';
import { includesFor, parseExpansions } from './expansions.ts';

/** "The recent search endpoint returns Posts from the last 7 days." */
const WINDOW_MS = 7 * 86_400_000;
const MAX_QUERY_LENGTH = 512;
const CONVERSATION = /^conversation_id:([0-9]{1,19})$/;

export function searchRoutes(world: XWorld): XRoute[] {
  return [{
    method: 'GET',
    url: '/2/tweets/search/recent',
    handler: ({ query, vocabulary }) => {
      const q = query.query ?? '';
      if (q === '') return invalidRequest({ parameters: { query: [] }, message: 'The `query` query parameter can not be empty' });
      if (q.length > MAX_QUERY_LENGTH) return invalidRequest({ parameters: { query: [q] }, message: `The \`query\` query parameter value [${q}] is too long` });
      const conversation = CONVERSATION.exec(q.trim());
      if (!conversation) return invalidRequest({ parameters: { query: [q] }, message: 'The emulator answers only conversation_id:<id> queries' });
      const maxResults = query.max_results === undefined ? 10 : Number(query.max_results);
      if (!Number.isInteger(maxResults) || maxResults < 10 || maxResults > 100) {
        return invalidRequest({ parameters: { max_results: [query.max_results ?? ''] }, message: `The \`max_results\` query parameter value [${query.max_results}] is not between 10 and 100` });
      }
      const tweetFields = parseFields(world.fieldVocabulary, query);
      if ('invalid' in tweetFields) return tweetFields.invalid;
      const expanded = parseExpansions(world.fieldVocabulary, query);
      if ('invalid' in expanded) return expanded.invalid;

      const since = world.clock.now() - WINDOW_MS;
      const all = world.store.tweets
        .filter((t) => !t.deleted && t.conversationId === conversation[1] && Date.parse(t.createdAt) >= since)
        .reverse();
      // next_token (pagination_token is its alias) is the id of the first post of the page it opens.
      const token = query.next_token ?? query.pagination_token;
      const start = token ? all.findIndex((t) => t.id === token) : 0;
      if (start < 0) return invalidRequest({ parameters: { next_token: [token!] }, message: `The \`next_token\` query parameter value [${token}] is not valid` });
      const page = all.slice(start, start + maxResults);
      if (page.length === 0) return { status: 200, body: { meta: { result_count: 0 } } };
      const next = all[start + maxResults];
      return {
        status: 200,
        body: {
          data: page.map((t) => renderTweet(world, t, tweetFields.names, vocabulary)),
          ...includesFor(world, page, expanded),
          meta: { newest_id: page[0]!.id, oldest_id: page.at(-1)!.id, result_count: page.length, ...(next ? { next_token: next.id } : {}) },
        },
      };
    },
  }];
}
