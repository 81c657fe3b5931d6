// Rules 1-3 of POST /v1/posts: which connected accounts a request's `accounts` entries name.
import { decodeId } from '../ids.ts';
import { prepared, type Queryable } from '../db/pool.ts';
import type { NetworkId } from '../networks/types.ts';

export interface ResolvedAccount {
  id: number;
  network: NetworkId;
  username: string;
  nickname: string;
}

/**
 * An entry matches an account by its encoded id or by exact username (any network, active or not).
 * Accounts come back in the order of the entries that named them, each once.
 */
export async function resolveAccounts(db: Queryable, orgId: number, entries: string[]): Promise<ResolvedAccount[]> {
  const ids = entries.map(decodeId).filter((id): id is number => id !== undefined);
  const { rows } = await db.query<ResolvedAccount>({
    ...prepared(`SELECT id, network, username, nickname FROM social_accounts
      WHERE org_id = $1 AND (id = ANY($2::bigint[]) OR username = ANY($3::text[]))
      ORDER BY id`),
    values: [orgId, ids, entries],
  });
  const seen = new Set<number>();
  const ordered: ResolvedAccount[] = [];
  for (const entry of entries) {
    const id = decodeId(entry);
    for (const account of rows) {
      if ((account.id === id || account.username === entry) && !seen.has(account.id)) {
        seen.add(account.id);
        ordered.push(account);
      }
    }
  }
  return ordered;
}
