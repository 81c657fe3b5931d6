// API keys: high-entropy random strings with a recognisable prefix. Only their SHA-256 is stored,
// so a database leak does not leak usable keys; lookup is by hash.
import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'crier_';

export interface NewApiKey {
  /** The key itself: shown once, never stored. */
  key: string;
  /** What may be shown later to recognise the key. */
  prefix: string;
  hash: Buffer;
}

export function generateApiKey(): NewApiKey {
  const key = PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, PREFIX.length + 6), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
