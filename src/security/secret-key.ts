// Which key seals the secrets: CRIER_SECRET_KEY, or `<dataDir>/secret-key` generated on first start.
// Rotation (`crier secrets rotate`) re-seals everything under a new key; with the key file, the new
// key is written to `secret-key.next` before the database commits and renamed over `secret-key`
// after, so a crash in between leaves a start-up that finds which of the two the database uses.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/pool.ts';
import { parseSecretKey } from '../config.ts';
import { createSecretBox, type SecretBox } from './crypto.ts';
import { checkSecretKey, rotateSecrets, type RotationCount } from './sealed-columns.ts';

const keyFile = (dataDir: string) => path.join(dataDir, 'secret-key');
const nextKeyFile = (dataDir: string) => path.join(dataDir, 'secret-key.next');

async function readKeyFile(file: string): Promise<Buffer | undefined> {
  try {
    return parseSecretKey((await readFile(file, 'utf8')).trim());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The configured key, or the one generated into `<dataDir>/secret-key` (mode 0600) on first start. */
export async function loadSecretKey(configured: string | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return parseSecretKey(configured);
  const existing = await readKeyFile(keyFile(dataDir));
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true });
  await writeFile(keyFile(dataDir), randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error; // another process won the race: use its key
  });
  await chmod(keyFile(dataDir), 0o600);
  return (await readKeyFile(keyFile(dataDir)))!;
}

/** Where the key comes from: CRIER_SECRET_KEY, or the key file in the data directory. */
interface KeyLocation {
  secretKey: string | undefined;
  dataDir: string;
}

/**
 * The sealing box for a running Crier, checked against the database: a key that is not the
 * database's fails the start (fail closed). A `secret-key.next` left by an interrupted rotation is
 * adopted when it is the database's key.
 */
export async function openSecretBox(config: KeyLocation, db: Db): Promise<SecretBox> {
  const box = createSecretBox(await loadSecretKey(config.secretKey, config.dataDir));
  try {
    await checkSecretKey(db, box);
    if (!config.secretKey) await rm(nextKeyFile(config.dataDir), { force: true }); // a rotation that never committed
    return box;
  } catch (error) {
    const next = config.secretKey ? undefined : await readKeyFile(nextKeyFile(config.dataDir));
    if (!next) throw error;
    const nextBox = createSecretBox(next);
    await checkSecretKey(db, nextBox);
    await rename(nextKeyFile(config.dataDir), keyFile(config.dataDir));
    return nextBox;
  }
}

export interface RotationResult {
  counts: RotationCount[];
  /** Hex of the new key, when it lives in the environment and the operator must set it. */
  newKeyHex: string | undefined;
  keyFile: string | undefined;
}

/**
 * `crier secrets rotate`: every sealed value re-sealed under a new key in one transaction. Run it
 * with Crier stopped: running processes hold the old key and would fail closed until restarted.
 */
export async function rotateSecretKey(config: KeyLocation, db: Db, newKey: Buffer = randomBytes(32)): Promise<RotationResult> {
  const from = createSecretBox(await loadSecretKey(config.secretKey, config.dataDir));
  await checkSecretKey(db, from);
  const to = createSecretBox(newKey);
  if (to.keyId.equals(from.keyId)) throw new Error('the new key is the current key');
  if (config.secretKey) {
    const counts = await rotateSecrets(db, from, to);
    return { counts, newKeyHex: newKey.toString('hex'), keyFile: undefined };
  }
  // Written before the commit: if we die after it, the next start finds the key the database uses.
  await writeFile(nextKeyFile(config.dataDir), newKey.toString('hex') + '\n', { mode: 0o600 });
  let counts: RotationCount[];
  try {
    counts = await rotateSecrets(db, from, to);
  } catch (error) {
    await rm(nextKeyFile(config.dataDir), { force: true }); // rolled back: the old key stays
    throw error;
  }
  await rename(nextKeyFile(config.dataDir), keyFile(config.dataDir));
  return { counts, newKeyHex: undefined, keyFile: keyFile(config.dataDir) };
}
