// The query string of a request held to X's description: every value of every parameter kept (a
// repeated one is refused, not collapsed to its first), unknown parameters refused as X refuses them.
import type { Reply } from '../../shared/http.ts';
import { duplicateQueryParameter, unknownQueryParameter } from '../errors.ts';
import { describedParameters, type FieldVocabulary, type VocabularySetting } from './description.ts';

/** Every value of every query parameter of the raw request URL, repeated ones kept in order. */
export function queryValues(url: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of new URL(url, 'http://emulator').searchParams) (out[name] ??= []).push(value);
  return out;
}

export function firstValues(values: Record<string, string[]>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(values).map(([name, list]) => [name, list[0]]));
}

/**
 * X's refusal of the query before the operation runs: a parameter the operation's description
 * does not name (path ones are listed too, as X lists them), or one given more than once.
 */
export function queryProblem(setting: VocabularySetting, method: string, url: string, values: Record<string, string[]>): Reply | undefined {
  const described = describedParameters(setting, method, url);
  if (!described) return undefined;
  const allowed = described.map((p) => p.name);
  const queryNames = new Set(described.filter((p) => p.in === 'query').map((p) => p.name));
  for (const [name, list] of Object.entries(values)) {
    if (!queryNames.has(name)) return unknownQueryParameter(name, list, allowed);
    if (list.length > 1) return duplicateQueryParameter(name, list);
  }
  return undefined;
}

/** A request in the `both` setting speaks of posts when it names `post.fields`. */
export function requestVocabulary(setting: VocabularySetting, values: Record<string, string[]>): FieldVocabulary {
  if (setting !== 'both') return setting;
  return values['post.fields'] && !values['tweet.fields'] ? 'post' : 'tweet';
}
