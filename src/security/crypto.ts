// Secrets at rest (OAuth tokens, client secrets, webhook secrets): AES-256-GCM with a random nonce,
// the owning row's id as associated data (a ciphertext moved to another row fails to decrypt) and
// the key id stored in front, so keys can be rotated.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 1;

export interface SecretBox {
  /** Identifies the key (first 4 bytes of its SHA-256); stored with each ciphertext. */
  keyId: Buffer;
  encrypt(plaintext: string, associatedData: string): Buffer;
  decrypt(ciphertext: Buffer, associatedData: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('the secret key must be 32 bytes');
  const keyId = createHash('sha256').update(key).digest().subarray(0, 4);
  return {
    keyId,
    encrypt(plaintext, associatedData) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), keyId, nonce, cipher.getAuthTag(), body]);
    },
    decrypt(ciphertext, associatedData) {
      if (ciphertext[0] !== VERSION) throw new Error('unknown ciphertext version');
      if (!ciphertext.subarray(1, 5).equals(keyId)) throw new Error('ciphertext was encrypted under another key');
      const nonce = ciphertext.subarray(5, 17);
      const tag = ciphertext.subarray(17, 33);
      const decipher = createDecipheriv('aes-256-gcm', key, nonce);
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext.subarray(33)), decipher.final()]).toString('utf8');
    },
  };
}
