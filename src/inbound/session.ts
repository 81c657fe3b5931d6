// An account as a capability calls its network with (capabilities.ts AccountSession): its opened
// credentials, where refreshed tokens go, and the SSRF-guarded fetch for addresses a user chose.
import type { Db } from '../db/pool.ts';
import { sessionOf } from '../engagement/account-call.ts';
import type { AccountSession } from '../networks/capabilities.ts';
import { loadAccount } from '../publishing/claim.ts';
import type { SecretBox } from '../security/crypto.ts';

export async function accountSession(db: Db, box: SecretBox, accountId: number, userFetch: typeof fetch): Promise<{ active: boolean; session: AccountSession }> {
  const { active, credentials } = await loadAccount(db, box, accountId);
  return {
    active,
    session: sessionOf({ db, box, userFetch }, credentials),
  };
}
