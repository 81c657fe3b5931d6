// Signed upload URLs: `PUT <PUBLIC_BASE_URL>/media-uploads/<id>?expires=<unix s>&signature=<mac>`,
// where mac = HMAC-SHA256(key, "PUT /media-uploads/<id> <expires>"). The URL grants one thing — writing
// the bytes of that one pending media — until it expires, and cannot be altered without the key.
//
// The key is installation-wide (any API process verifies what another signed) and lives in the
// database sealed with CRIER_SECRET_KEY (security/crypto.ts): without the secret key nobody can
// read it, and the HTTP layer never has to hold the secret key itself.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/pool.ts';
import type { SecretBox } from '../security/crypto.ts';

const PURPOSE = 'media-upload';
const ASSOCIATED_DATA = `signing_keys:${PURPOSE}`;

const keys = new WeakMap<Db, Promise<Buffer>>();

/** The signing key, loaded (or created) once per pool. */
export function uploadSigningKey(db: Db, box: SecretBox): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = loadKey(db, box);
    keys.set(db, key);
    key.catch(() => keys.delete(db)); // a database hiccup must not be remembered forever
  }
  return key;
}

async function loadKey(db: Db, box: SecretBox, retried = false): Promise<Buffer> {
  const seal = () => box.encrypt(randomBytes(32).toString('base64'), ASSOCIATED_DATA);
  await db.query('INSERT INTO signing_keys (purpose, key_enc) VALUES ($1, $2) ON CONFLICT (purpose) DO NOTHING', [PURPOSE, seal()]);
  const { rows } = await db.query<{ key_enc: Buffer }>('SELECT key_enc FROM signing_keys WHERE purpose = $1', [PURPOSE]);
  const sealed = rows[0]!.key_enc;
  try {
    return Buffer.from(box.decrypt(sealed, ASSOCIATED_DATA), 'base64');
  } catch (error) {
    if (retried) throw error;
    // Sealed under a previous CRIER_SECRET_KEY: replace it. Only upload URLs signed in the last
    // minutes depended on it. The compare-and-set keeps concurrent processes on one new key.
    await db.query('UPDATE signing_keys SET key_enc = $2, created_at = now() WHERE purpose = $1 AND key_enc = $3', [PURPOSE, seal(), sealed]);
    return loadKey(db, box, true);
  }
}

export function signUpload(key: Buffer, mediaId: number, expires: number): string {
  return createHmac('sha256', key).update(`PUT /media-uploads/${mediaId} ${expires}`).digest('base64url');
}

export type UploadCheck = 'ok' | 'bad_signature' | 'expired';

/** The signature is checked before the expiry, so an edited `expires` reads as tampering. */
export function checkUpload(key: Buffer, mediaId: number, expires: string | undefined, signature: string | undefined, now = Date.now()): UploadCheck {
  if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return 'bad_signature';
  const expected = Buffer.from(signUpload(key, mediaId, Number(expires)));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad_signature';
  return Number(expires) * 1000 <= now ? 'expired' : 'ok';
}
