// Preparing and committing repo writes the way the PDS does: $type defaulting, lexicon
// validation, record CIDs, blob checks against what the repo uploaded, commit revisions.
import type { Reply } from '../shared/http.ts';
import { cidForRecord } from './cid.ts';
import { invalidRequest } from './errors.ts';
import { jsonPath, LexIssue, RecordValidator, validateKnownRecord, type StrongRefUse } from './validate/lexicon.ts';
import type { StoredRecord } from './state.ts';
import { TID_PATTERN } from './tid.ts';
import type { PdsWorld } from './xrpc.ts';

export interface PreparedWrite {
  value: Record<string, unknown>;
  cid: string;
  validationStatus: 'valid' | 'unknown' | undefined;
}

/** Record-key types of the collections this emulator knows (from their lexicons). */
const KEY_TYPES: Record<string, string> = {
  'app.bsky.feed.post': 'tid',
  'app.bsky.feed.like': 'tid',
  'app.bsky.feed.repost': 'tid',
  'app.bsky.actor.profile': 'literal:self',
};
const NSID = /^[a-zA-Z]([a-zA-Z0-9-]{0,62})?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,62})?)+$/;

export function checkCollection(collection: string): Reply | undefined {
  return NSID.test(collection) && collection.split('.').length >= 3
    ? undefined
    : invalidRequest(`Invalid NSID at $.collection (got ${JSON.stringify(collection)})`);
}

/**
 * General record-key syntax, as the PDS checks it. Stricter than the PDS (which does not check
 * lexicon key types yet): keys must also match the collection's key type, e.g. a TID for posts.
 */
export function checkRecordKey(collection: string, rkey: string): Reply | undefined {
  if (!/^[a-zA-Z0-9_~.:-]{1,512}$/.test(rkey) || rkey === '.' || rkey === '..') {
    return invalidRequest(`Invalid record key at $.rkey (got ${JSON.stringify(rkey)})`);
  }
  const keyType = KEY_TYPES[collection];
  if (keyType === 'tid' && !TID_PATTERN.test(rkey)) return invalidRequest(`Invalid TID string at $.rkey (got ${JSON.stringify(rkey)})`);
  if (keyType?.startsWith('literal:') && rkey !== keyType.slice(8)) {
    return invalidRequest(`Expected ${JSON.stringify(keyType.slice(8))} at $.rkey (got ${JSON.stringify(rkey)})`);
  }
  return undefined;
}

export function prepareWrite(world: PdsWorld, did: string, collection: string, input: unknown, validate: unknown): PreparedWrite | Reply {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return invalidRequest(`Expected object value type at $.record (got ${input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input})`);
  }
  const value = { ...(input as Record<string, unknown>) };
  if (value.$type === undefined) value.$type = collection;
  const type = String(value.$type);
  let validationStatus: PreparedWrite['validationStatus'];
  const validator = new RecordValidator(world.limits);
  if (validate !== false) {
    if (type !== collection) return invalidRequest(`Invalid $type: expected ${collection}, got ${type}`);
    try {
      const known = validateKnownRecord(validator, collection, value);
      if (!known && validate === true) return invalidRequest(`Lexicon not found: lex:${collection}`);
      validationStatus = known ? 'valid' : 'unknown';
      for (const ref of validator.refs) checkLocalRef(world, ref);
    } catch (error) {
      if (error instanceof LexIssue) return invalidRequest(`Invalid ${type} record: ${error.message}`);
      throw error;
    }
  }
  let cid: string;
  try {
    cid = cidForRecord(value);
  } catch {
    return invalidRequest('Bad record');
  }
  const blobs = world.store.blobs.get(did) ?? new Map();
  for (const use of validator.blobs) {
    const stored = blobs.get(use.cid);
    if (!stored) return invalidRequest(`Could not find blob: ${use.cid}`, 'BlobNotFound');
    if (stored.size > use.maxSize) {
      return invalidRequest(`This file is too large. It is ${formatBytes(stored.size)} but the maximum size is ${formatBytes(use.maxSize)}.`, 'BlobTooLarge');
    }
    if (stored.mimeType !== use.mimeType) {
      return invalidRequest(`Referenced Mimetype does not match stored blob. Expected: ${stored.mimeType}, Got: ${use.mimeType}`, 'InvalidMimeType');
    }
    if (!acceptsMime(use.mimeType, use.accept)) {
      return invalidRequest(`Wrong type of file. It is ${use.mimeType} but it must match ${use.accept.join(',')}.`, 'InvalidMimeType');
    }
  }
  return { value, cid, validationStatus };
}

/**
 * Emulator-only strictness: a strong reference to a repo hosted here must name an existing
 * record with that CID (the PDS stores dangling replies; the AppView then shows them broken).
 */
function checkLocalRef(world: PdsWorld, ref: StrongRefUse): void {
  const match = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(ref.uri);
  const account = match ? world.store.findAccount(match[1]) : undefined;
  if (!match || !account) return;
  const found = world.store.getRecord(account.did, match[2], match[3]);
  if (!found || found.cid !== ref.cid) {
    throw new LexIssue(`record ${ref.uri} (cid ${ref.cid}) not found at ${jsonPath(ref.path)}`);
  }
}

function acceptsMime(mime: string, accept: string[]): boolean {
  if (accept.includes('*/*')) return true;
  return accept.some((a) => (a.endsWith('/*') ? mime.startsWith(a.slice(0, -1)) : a === mime));
}

/** The `bytes` npm package's format(), which the PDS uses in blob errors (1024-based, 2 decimals). */
export function formatBytes(value: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let index = 0;
  while (index < units.length - 1 && value >= 1024 ** (index + 1)) index += 1;
  const scaled = (value / 1024 ** index).toFixed(index === 0 ? 0 : 2).replace(/\.?0+$/, '');
  return `${index === 0 ? value : scaled}${units[index]}`;
}

/** Records a new commit for `did`; returns its metadata ({cid, rev}). */
export function commit(world: PdsWorld, did: string): { cid: string; rev: string } {
  const rev = world.tids.next(world.clock.now());
  const data = world.store.records.filter((r) => r.did === did).map((r) => [r.collection, r.rkey, r.cid]);
  const cid = cidForRecord({ did, rev, version: 3, data: JSON.stringify(data) });
  world.store.revs.set(did, `${cid} ${rev}`);
  return { cid, rev };
}

export function currentCommitCid(world: PdsWorld, did: string): string | undefined {
  return world.store.revs.get(did)?.split(' ')[0];
}

export function recordView(record: StoredRecord) {
  return { uri: record.uri, cid: record.cid, value: record.value };
}
