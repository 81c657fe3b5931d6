// Every column that holds a secret sealed with CRIER_SECRET_KEY, with the associated data each
// value was sealed with. One list serves key rotation (`crier secrets rotate`), the start-up check
// that the configured key is the database's (fail closed), and the tests that scan for plaintext.
// A new sealed column must be added here, or rotation would leave it unreadable.
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import type { SecretBox } from './crypto.ts';

/** The associated data of sealed values that the folders owning them also seal and open. */
export const webhookSecretData = (id: number) => `webhooks:${id}:secret`;
export const webhookHeadersData = (id: number) => `webhooks:${id}:headers`;
export const pendingCandidatesData = (id: number) => `pending_connections:${id}:candidates`;

export interface SealedColumn {
  table: string;
  column: string;
  /** SQL expression naming the row, as text (the primary key). */
  rowKey: string;
  associatedData(rowKey: string): string;
}

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'social_accounts', column: 'access_token_enc', rowKey: 'id::text', associatedData: (id) => `social_accounts:${id}:access` },
  { table: 'social_accounts', column: 'refresh_token_enc', rowKey: 'id::text', associatedData: (id) => `social_accounts:${id}:refresh` },
  { table: 'social_accounts', column: 'credential_enc', rowKey: 'id::text', associatedData: (id) => `social_accounts:${id}:credential` },
  { table: 'social_networks', column: 'client_secret_enc', rowKey: 'id::text', associatedData: (id) => `social_networks:${id}:secret` },
  { table: 'webhooks', column: 'secret_enc', rowKey: 'id::text', associatedData: (id) => webhookSecretData(Number(id)) },
  { table: 'webhooks', column: 'headers_enc', rowKey: 'id::text', associatedData: (id) => webhookHeadersData(Number(id)) },
  { table: 'signing_keys', column: 'key_enc', rowKey: 'purpose', associatedData: (purpose) => `signing_keys:${purpose}` },
  { table: 'oauth_states', column: 'code_verifier_enc', rowKey: `encode(state_hash, 'hex')`, associatedData: (hash) => `oauth_states:${hash}:verifier` },
  { table: 'pending_connections', column: 'candidates_enc', rowKey: 'id::text', associatedData: (id) => pendingCandidatesData(Number(id)) },
];

/** The key id a ciphertext was sealed under (security/crypto.ts layout: version, key id, …). */
const keyIdOf = (sealed: Buffer) => sealed.subarray(1, 5);

/**
 * Refuses to run with a key that is not the one the database's secrets are sealed with: after a
 * rotation the old key must fail closed, not half-work (every decrypt failing one by one).
 */
export async function checkSecretKey(db: Queryable, box: SecretBox): Promise<void> {
  // Start-up checks the key before migrating: a column the migrations have not created yet holds nothing.
  const { rows: present } = await db.query<{ name: string }>(
    "SELECT table_name || '.' || column_name AS name FROM information_schema.columns WHERE table_schema = current_schema()",
  );
  const migrated = new Set(present.map((row) => row.name));
  for (const { table, column } of SEALED_COLUMNS) {
    // signing_keys is re-created under the current key when it does not open (media/signing.ts).
    if (table === 'signing_keys' || !migrated.has(`${table}.${column}`)) continue;
    const { rows } = await db.query<{ sealed: Buffer }>(`SELECT ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL LIMIT 1`);
    const sealed = rows[0]?.sealed;
    if (sealed && !keyIdOf(sealed).equals(box.keyId)) {
      throw new Error(
        `CRIER_SECRET_KEY (key id ${box.keyId.toString('hex')}) is not the key this database's secrets are sealed with ` +
          `(key id ${keyIdOf(sealed).toString('hex')}). After \`npx crier secrets rotate\`, every process must use the new key.`,
      );
    }
  }
}

export interface RotationCount {
  table: string;
  column: string;
  resealed: number;
}

/**
 * Re-seals every secret from `from` to `to` in one transaction (all or nothing). A value already
 * sealed under `to` (an interrupted earlier run cannot leave one, but a retried one might) is kept.
 */
export async function rotateSecrets(db: Db, from: SecretBox, to: SecretBox): Promise<RotationCount[]> {
  return withTransaction(db, async (tx) => {
    const counts: RotationCount[] = [];
    for (const sealedColumn of SEALED_COLUMNS) {
      const { table, column, rowKey, associatedData } = sealedColumn;
      const { rows } = await tx.query<{ key: string; sealed: Buffer }>(
        `SELECT ${rowKey} AS key, ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL FOR UPDATE`,
      );
      let resealed = 0;
      for (const { key, sealed } of rows) {
        if (keyIdOf(sealed).equals(to.keyId)) continue;
        const ad = associatedData(key);
        const plaintext = from.decrypt(sealed, ad);
        await tx.query(`UPDATE ${table} SET ${column} = $2 WHERE ${rowKey} = $1`, [key, to.encrypt(plaintext, ad)]);
        resealed += 1;
      }
      counts.push({ table, column, resealed });
    }
    return counts;
  });
}
