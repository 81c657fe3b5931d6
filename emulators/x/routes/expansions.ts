// `expansions` of post reads: checked against the values X's description lists for the vocabularies
// accepted; `author_id` is emulated (the authors in `includes.users`, with `user.fields`), the other
// listed ones are accepted and add nothing.
import { fieldValues, vocabulariesOf, type VocabularySetting } from '../validate/description.ts';
import { invalidRequest } from '../errors.ts';
import type { XTweet, XWorld } from '../state.ts';
import { parseUserFields, renderUser } from './users.ts';

type Invalid = { invalid: ReturnType<typeof invalidRequest> };

export function parseExpansions(setting: VocabularySetting, query: Record<string, string | undefined>): { expansions: string[]; userFields: Set<string> } | Invalid {
  const expansions = (query.expansions ?? '').split(',').filter((e) => e !== '');
  const known = [...new Set(vocabulariesOf(setting).flatMap((v) => fieldValues(v, 'expansions')))];
  const bad = expansions.find((e) => !known.includes(e));
  if (bad) return { invalid: invalidRequest({ parameters: { expansions: [bad] }, message: `The \`expansions\` query parameter value [${bad}] is not one of [${known.join(',')}]` }) };
  const userFields = parseUserFields(setting, query['user.fields']);
  if ('invalid' in userFields) return userFields;
  return { expansions, userFields: userFields.names };
}

/** `{ includes: { users } }` for the posts' authors when `author_id` is expanded, else nothing. */
export function includesFor(world: XWorld, tweets: XTweet[], asked: { expansions: string[]; userFields: Set<string> }): { includes?: { users: Record<string, unknown>[] } } {
  if (!asked.expansions.includes('author_id')) return {};
  const authors = [...new Set(tweets.map((t) => t.authorId))].map((id) => world.store.users.get(id)).filter((u) => u !== undefined);
  return { includes: { users: authors.map((u) => renderUser(world, u, asked.userFields)) } };
}
