// What X's own OpenAPI description says the served routes take (description/, vendored parts of
// xdevplatform/docs openapi.json): the query parameters of each operation and the values of the
// field parameters, in either of X's vocabularies. v2.166 (July 2026) speaks of tweets
// (`tweet.fields`, `referenced_tweets`, `note_tweet`); v2.167 (August 2026) of posts (`post.fields`,
// `referenced_posts`, `note_post`). The emulator accepts one of them, or both (`fieldVocabulary`).
import { readFileSync } from 'node:fs';

export type FieldVocabulary = 'tweet' | 'post';
export type VocabularySetting = FieldVocabulary | 'both';

interface Parameter {
  name?: string;
  in?: string;
  $ref?: string;
  schema?: { items?: { enum?: string[] } };
}

interface Operation {
  parameters: Parameter[];
  /** Each way to authorize the call; `OAuth2UserToken` lists the scopes a user token must carry. */
  security: Record<string, string[]>[];
  responses: Record<string, { description: string }>;
}

interface Parts {
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    parameters: Record<string, Parameter>;
    schemas: Record<string, { properties?: Record<string, unknown> }>;
    securitySchemes: { OAuth2UserToken: { flows: { authorizationCode: { scopes: Record<string, string> } } } };
  };
}

const load = (file: string) => JSON.parse(readFileSync(new URL(`../description/${file}`, import.meta.url), 'utf8')) as Parts;
export const DESCRIPTIONS: Record<FieldVocabulary, Parts> = {
  tweet: load('openapi-2.166.parts.json'),
  post: load('openapi-2.167.parts.json'),
};

/** The name of the fields parameter of each vocabulary. */
export const FIELDS_PARAMETER: Record<FieldVocabulary, string> = { tweet: 'tweet.fields', post: 'post.fields' };

export function vocabulariesOf(setting: VocabularySetting): FieldVocabulary[] {
  return setting === 'both' ? ['tweet', 'post'] : [setting];
}

/** The operation behind an emulator route (`/2/tweets/:id` is the description's `/2/tweets/{id}`). */
export function operationOf(vocabulary: FieldVocabulary, method: string, url: string): Operation | undefined {
  return DESCRIPTIONS[vocabulary].paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
}

function parameter(parts: Parts, p: Parameter): Parameter {
  return p.$ref ? parts.components.parameters[p.$ref.split('/').at(-1)!]! : p;
}

/**
 * Every parameter the operation names, path ones included, in the description's order (X's
 * refusal lists them so: "is not one of [id,expansions,tweet.fields,…]"). Undefined for an
 * operation the description does not have.
 */
export function describedParameters(setting: VocabularySetting, method: string, url: string): { name: string; in: string }[] | undefined {
  const out: { name: string; in: string }[] = [];
  for (const vocabulary of vocabulariesOf(setting)) {
    const parts = DESCRIPTIONS[vocabulary];
    const operation = operationOf(vocabulary, method, url);
    if (!operation) return undefined;
    for (const p of operation.parameters.map((q) => parameter(parts, q))) {
      if (!out.some((o) => o.name === p.name)) out.push({ name: p.name!, in: p.in! });
    }
  }
  return out;
}

/**
 * The values a field parameter takes. v2.167's enums left out the renamed fields its Post and User
 * objects still carry (author_id, in_reply_to_user_id, referenced_posts, edit_history_post_ids;
 * pinned_post_id, most_recent_post_id, affiliation): the emulator accepts those too, as the object
 * schemas have them (README: invented behaviours).
 */
export function fieldValues(vocabulary: FieldVocabulary, component: 'fields' | 'expansions' | 'user.fields'): string[] {
  const parts = DESCRIPTIONS[vocabulary];
  const names = vocabulary === 'tweet'
    ? { fields: 'TweetFieldsParameter', expansions: 'TweetExpansionsParameter', 'user.fields': 'UserFieldsParameter' }
    : { fields: 'PostFieldsParameter', expansions: 'PostExpansionsParameter', 'user.fields': 'UserFieldsParameter' };
  const values = [...(parts.components.parameters[names[component]]?.schema?.items?.enum ?? [])];
  if (vocabulary === 'post' && component !== 'expansions') {
    const object = component === 'fields' ? 'Post' : 'User';
    const properties = Object.keys(parts.components.schemas[object]?.properties ?? {});
    const older = fieldValues('tweet', component).map(renamed);
    values.push(...older.filter((f) => properties.includes(f) && !values.includes(f)));
  }
  return values;
}

/** A field's name in the posts vocabulary (`referenced_tweets` → `referenced_posts`). */
export function renamed(field: string): string {
  return field.replace(/tweet/g, 'post');
}
