// Public ids never change: src/ids.ts's table-driven encoder gives exactly what the reference Sqids
// implementation gives with Crier's options, and decoding accepts exactly the canonical ids.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Sqids from 'sqids';
import { decodeId, encodeId } from '../../src/core/ids.ts';

const reference = new Sqids({ alphabet: 'k3G7QAe51FCsPW92uEOyq4Bg6Sp8YzVTmnU0liwDdHXLajZrfxNcohRJIMbtKv', minLength: 8, blocklist: new Set() });

/** The previous decodeId, on the reference implementation: the behaviour to keep. */
function referenceDecode(value: string): number | undefined {
  if (value.length < 8 || value.length > 20 || !/^[A-Za-z0-9]+$/.test(value)) return undefined;
  const numbers = reference.decode(value);
  if (numbers.length !== 1) return undefined;
  const [id] = numbers as [number];
  return Number.isSafeInteger(id) && id > 0 && reference.encode([id]) === value ? id : undefined;
}

/** Ids worth checking: every small one, each length change of the base-61 digits, and random ones up to 2^53 - 1. */
function sampleIds(): number[] {
  const ids: number[] = [];
  for (let id = 0; id <= 100_000; id++) ids.push(id);
  for (let power = 61; power < Number.MAX_SAFE_INTEGER / 61; power *= 61) ids.push(power - 1, power, power + 1);
  for (let i = 0; i < 50_000; i++) ids.push(Math.floor(Math.random() * Number.MAX_SAFE_INTEGER));
  ids.push(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 1);
  return ids;
}

test('encodeId gives the reference Sqids encoding of every sampled id', () => {
  for (const id of sampleIds()) assert.equal(encodeId(id), reference.encode([id]), `id ${id}`);
});

test('decodeId gives back every id (but 0, never issued) from its encoding', () => {
  for (const id of sampleIds()) assert.equal(decodeId(encodeId(id)), id === 0 ? undefined : id, `id ${id}`);
});

test('decodeId refuses what the reference refused: non-canonical, malformed, too long or too large', () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const candidates = ['', 'k3G7QAe5', 'zzzzzzzzzz', '12345678', 'abc-defgh', 'AAAAAAAAAAAAAAAAAAAAA', 'ZZZZZZZZZZZZZZZZZZZZ'];
  for (let i = 0; i < 20_000; i++) {
    const length = 6 + Math.floor(Math.random() * 16);
    candidates.push(Array.from({ length }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join(''));
  }
  // Variants of real ids: one character changed, one added, one dropped.
  for (let i = 0; i < 5_000; i++) {
    const id = encodeId(1 + Math.floor(Math.random() * 1e12));
    const at = Math.floor(Math.random() * id.length);
    const c = alphabet[Math.floor(Math.random() * alphabet.length)]!;
    candidates.push(id.slice(0, at) + c + id.slice(at + 1), id + c, id.slice(0, -1));
  }
  for (const value of candidates) assert.equal(decodeId(value), referenceDecode(value), JSON.stringify(value));
});

test('encodeId refuses what is not an id', () => {
  for (const bad of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) assert.throws(() => encodeId(bad), RangeError);
});
