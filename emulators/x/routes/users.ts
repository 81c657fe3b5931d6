// GET /2/users/me and GET /2/users/:id/tweets (the user's posts, newest first).
import { badQueryValue, invalidRequest, notFoundItem } from '../errors.ts';
import type { XRoute, XWorld } from '../route.ts';
import { parseFields, renderTweet } from './tweets.ts';

const ID = /^[0-9]{1,19}$/;

export function userRoutes(world: XWorld): XRoute[] {
  const { store } = world;
  return [
    {
      method: 'GET',
      url: '/2/users/me',
      scope: 'users.read',
      handler: ({ user }) => ({ status: 200, body: { data: { id: user.id, name: user.name, username: user.username } } }),
    },
    {
      method: 'GET',
      url: '/2/users/:id/tweets',
      scope: 'tweet.read',
      handler: ({ params, query }) => {
        if (!ID.test(params.id)) return badQueryValue('id', params.id);
        const maxResults = query.max_results === undefined ? 10 : Number(query.max_results);
        if (!Number.isInteger(maxResults) || maxResults < 5 || maxResults > 100) {
          return invalidRequest({
            parameters: { max_results: [query.max_results ?? ''] },
            message: `The \`max_results\` query parameter value [${query.max_results}] is not between 5 and 100`,
          });
        }
        const fields = parseFields(query['tweet.fields']);
        if ('invalid' in fields) return fields.invalid;
        if (!store.users.has(params.id)) return { status: 200, body: { errors: [notFoundItem('user', params.id)] } };

        const excluded = new Set((query.exclude ?? '').split(','));
        const all = store.tweets
          .filter((t) => t.authorId === params.id && !t.deleted)
          .filter((t) => !(excluded.has('replies') && t.inReplyToTweetId))
          .reverse();
        // The pagination token is the id of the first post of the page it opens.
        const start = query.pagination_token ? all.findIndex((t) => t.id === query.pagination_token) : 0;
        if (start < 0) return badQueryValue('pagination_token', query.pagination_token ?? '');
        const page = all.slice(start, start + maxResults);
        if (page.length === 0) return { status: 200, body: { meta: { result_count: 0 } } };
        const next = all[start + maxResults];
        return {
          status: 200,
          body: {
            data: page.map((t) => renderTweet(world, t, fields.names)),
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
