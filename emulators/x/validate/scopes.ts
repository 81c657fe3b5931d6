// The OAuth 2.0 scopes of X's description: which ones a user token must carry for each operation
// (its `security`, e.g. DELETE /2/tweets/{id}: tweet.read, tweet.write and users.read), and which
// ones the authorize page knows.
import { DESCRIPTIONS, operationOf, vocabulariesOf, type VocabularySetting } from './description.ts';

/**
 * `users.email` is on the authorize page's scope list
 * (docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code) though no operation of the
 * description asks for it, and so its scheme does not name it.
 */
const AUTHORIZE_PAGE_ONLY = ['users.email'];

/** Every scope the authorize page takes: the description's OAuth2UserToken scheme, both versions, and the page's. */
export const KNOWN_SCOPES: ReadonlySet<string> = new Set([
  ...Object.values(DESCRIPTIONS).flatMap((parts) => Object.keys(parts.components.securitySchemes.OAuth2UserToken.flows.authorizationCode.scopes)),
  ...AUTHORIZE_PAGE_ONLY,
]);

/** The scopes a user token must carry for the operation behind this route (every one of them). */
export function requiredScopes(setting: VocabularySetting, method: string, url: string): string[] {
  const scopes = new Set<string>();
  for (const vocabulary of vocabulariesOf(setting)) {
    const security = operationOf(vocabulary, method, url)?.security ?? [];
    for (const scheme of security) for (const scope of scheme.OAuth2UserToken ?? []) scopes.add(scope);
  }
  return [...scopes];
}

/** The required scopes the token lacks, in the description's order. */
export function missingScopes(setting: VocabularySetting, method: string, url: string, granted: ReadonlySet<string>): string[] {
  return requiredScopes(setting, method, url).filter((scope) => !granted.has(scope));
}
