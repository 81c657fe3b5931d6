// An account's secrets (OAuth tokens, bluesky app password) are sealed with the row id and the
// secret's role as associated data: a ciphertext copied to another row or column does not open.
import type { Queryable } from '../db/pool.ts';
import type { SecretBox } from '../security/crypto.ts';

export type SecretRole = 'access' | 'refresh' | 'credential';

export interface AccountSecrets {
  accessToken?: string;
  refreshToken?: string;
  credential?: string;
  /** undefined leaves the stored expiry as it is. */
  expiresAt?: Date | null;
}

const associatedData = (accountId: number, role: SecretRole) => `social_accounts:${accountId}:${role}`;

export function openSecret(box: SecretBox, accountId: number, role: SecretRole, sealed: Buffer | null): string | null {
  return sealed ? box.decrypt(sealed, associatedData(accountId, role)) : null;
}

/** Stores the given secrets; an absent or empty one never replaces a stored one (docs/design.md §8). */
export async function saveAccountSecrets(db: Queryable, box: SecretBox, accountId: number, secrets: AccountSecrets): Promise<void> {
  const seal = (value: string | undefined, role: SecretRole) => (value ? box.encrypt(value, associatedData(accountId, role)) : null);
  await db.query(
    `UPDATE social_accounts SET
       access_token_enc = coalesce($2, access_token_enc),
       refresh_token_enc = coalesce($3, refresh_token_enc),
       credential_enc = coalesce($4, credential_enc),
       token_expires_at = CASE WHEN $5::boolean THEN $6 ELSE token_expires_at END
     WHERE id = $1`,
    [accountId, seal(secrets.accessToken, 'access'), seal(secrets.refreshToken, 'refresh'), seal(secrets.credential, 'credential'),
      secrets.expiresAt !== undefined, secrets.expiresAt ?? null],
  );
}
