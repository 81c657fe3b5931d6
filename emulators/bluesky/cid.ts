// Content identifiers as a PDS computes them: records are hashed as DAG-CBOR (codec 0x71),
// blobs as raw bytes (codec 0x55), both sha2-256, written as base32 CIDv1 ("bafyrei…",
// "bafkrei…"). Record JSON follows the atproto data model: {"$link": cid} is a CID link and
// {"$bytes": base64} a byte string; floats are not allowed.
import { createHash } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const DAG_CBOR = 0x71;
const RAW = 0x55;

export function cidForRecord(value: unknown): string {
  return cidString(DAG_CBOR, createHash('sha256').update(encodeDagCbor(value)).digest());
}

export function cidForBlob(bytes: Buffer): string {
  return cidString(RAW, createHash('sha256').update(bytes).digest());
}

/** True for a base32 CIDv1 (codec raw or dag-cbor, sha2-256) or a base58 CIDv0. */
export function isCid(value: string): boolean {
  if (/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/.test(value)) return true;
  const bytes = value.startsWith('b') ? base32Decode(value.slice(1)) : null;
  return bytes !== null && bytes.length === 36 && bytes[0] === 1 && (bytes[1] === DAG_CBOR || bytes[1] === RAW) && bytes[2] === 0x12 && bytes[3] === 0x20;
}

function cidString(codec: number, digest: Buffer): string {
  return `b${base32Encode(Buffer.concat([Buffer.from([1, codec, 0x12, 0x20]), digest]))}`;
}

function base32Encode(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function base32Decode(text: string): Buffer | null {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text) {
    const index = BASE32.indexOf(char);
    if (index < 0) return null;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

function cidBytes(cid: string): Buffer {
  const bytes = base32Decode(cid.slice(1));
  if (!cid.startsWith('b') || !bytes) throw new Error(`unsupported CID ${cid}`);
  return bytes;
}

/** Deterministic DAG-CBOR: shortest-form lengths, map keys sorted by length then bytes. */
export function encodeDagCbor(value: unknown): Buffer {
  const parts: Buffer[] = [];
  write(value, parts);
  return Buffer.concat(parts);
}

function head(major: number, length: number, parts: Buffer[]): void {
  if (length < 24) parts.push(Buffer.from([(major << 5) | length]));
  else if (length < 0x100) parts.push(Buffer.from([(major << 5) | 24, length]));
  else if (length < 0x10000) parts.push(Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]));
  else if (length < 0x100000000) {
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(length, 1);
    parts.push(b);
  } else {
    const b = Buffer.alloc(9);
    b[0] = (major << 5) | 27;
    b.writeBigUInt64BE(BigInt(length), 1);
    parts.push(b);
  }
}

function write(value: unknown, parts: Buffer[]): void {
  if (value === null) parts.push(Buffer.from([0xf6]));
  else if (value === true) parts.push(Buffer.from([0xf5]));
  else if (value === false) parts.push(Buffer.from([0xf4]));
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error('floats are not allowed in atproto records');
    if (value >= 0) head(0, value, parts);
    else head(1, -1 - value, parts);
  } else if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    head(3, bytes.length, parts);
    parts.push(bytes);
  } else if (Array.isArray(value)) {
    head(4, value.length, parts);
    for (const item of value) write(item, parts);
  } else if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
    if (keys.length === 1 && keys[0] === '$link' && typeof obj.$link === 'string') {
      const bytes = Buffer.concat([Buffer.from([0]), cidBytes(obj.$link)]);
      parts.push(Buffer.from([0xd8, 42]));
      head(2, bytes.length, parts);
      parts.push(bytes);
      return;
    }
    if (keys.length === 1 && keys[0] === '$bytes' && typeof obj.$bytes === 'string') {
      const bytes = Buffer.from(obj.$bytes, 'base64');
      head(2, bytes.length, parts);
      parts.push(bytes);
      return;
    }
    keys.sort((a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
    head(5, keys.length, parts);
    for (const key of keys) {
      write(key, parts);
      write(obj[key], parts);
    }
  } else {
    throw new Error(`cannot encode ${typeof value} as DAG-CBOR`);
  }
}
