// Names for comment authors (`resolve_author_names`). A comment carries only its actor's URN.
// Organizations resolve: GET /rest/organizations/{id} → localizedName, vanityName (their page URL).
// Members do not: looking another member up is restricted to approved developers, and LinkedIn
// forbids keeping Profile API data of anyone but the authenticated member — so only the connected
// member's own name is looked up (GET /v2/userinfo). Names are kept in memory, at most a day and
// MAX_ENTRIES of them; a lookup LinkedIn refuses is remembered an hour as "no name".
import { PublishError } from '../../core/errors.ts';
import type { LinkedInClient } from './client.ts';

export interface AuthorName {
  name: string;
  /** Organizations: the page's vanityName. */
  username?: string;
  profileUrl?: string;
}

const FOUND_MS = 24 * 3600_000;
const MISSING_MS = 3600_000;
const MAX_ENTRIES = 2000;

/** Names by API origin and URN; the oldest entry leaves first when full. */
class NameCache {
  readonly #entries = new Map<string, { value: AuthorName | null; until: number }>();

  get(key: string, now: number): AuthorName | null | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, value: AuthorName | null, now: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, until: now + (value ? FOUND_MS : MISSING_MS) });
    while (this.#entries.size > MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
  }

  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
  }
}

export const authorNames = new NameCache();

/**
 * The names of `actors` that LinkedIn lets the account see, by URN; null for the rest. `self`: the
 * account's own URN (a member's own name is readable).
 */
export async function resolveAuthors(client: LinkedInClient, apiUrl: string, actors: string[], self: string, now = Date.now()): Promise<Map<string, AuthorName | null>> {
  const out = new Map<string, AuthorName | null>();
  for (const actor of new Set(actors)) {
    const key = `${apiUrl} ${actor}`;
    const cached = authorNames.get(key, now);
    if (cached !== undefined) {
      out.set(actor, cached);
      continue;
    }
    const org = /^urn:li:organization:(\d+)$/.exec(actor)?.[1];
    const lookup = org ? () => organizationName(client, org) : actor === self ? () => ownName(client) : undefined;
    if (!lookup) {
      out.set(actor, null);
      continue;
    }
    const value = await lookup().catch((error: unknown) => {
      // A refused lookup (no rights on that page, gone) is no name; a dead token or a spent quota is the call's failure.
      if (error instanceof PublishError && error.kind === 'permanent') return null;
      throw error;
    });
    authorNames.set(key, value, now);
    out.set(actor, value);
  }
  return out;
}

async function organizationName(client: LinkedInClient, id: string): Promise<AuthorName | null> {
  const { body } = await client.request({ url: `/rest/organizations/${id}` });
  const org = body as { localizedName?: string; vanityName?: string };
  if (!org.localizedName) return null;
  return {
    name: org.localizedName,
    ...(org.vanityName ? { username: org.vanityName, profileUrl: `https://www.linkedin.com/company/${org.vanityName}` } : {}),
  };
}

async function ownName(client: LinkedInClient): Promise<AuthorName | null> {
  const { body } = await client.request({ url: '/v2/userinfo' });
  const name = (body as { name?: string }).name;
  return name ? { name } : null;
}
