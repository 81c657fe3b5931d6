// Public ids: the API shows posts, accounts, containers and orgs as short opaque strings, while the
// database keeps bigints. Sqids makes the mapping reversible without a lookup table.
import Sqids from 'sqids';

const sqids = new Sqids({
  alphabet: 'k3G7QAe51FCsPW92uEOyq4Bg6Sp8YzVTmnU0liwDdHXLajZrfxNcohRJIMbtKv',
  minLength: 8,
  // Sqids' default blocklist (ids that would spell words) costs ~15 µs per id, a third of the API's
  // CPU on a list page. Ids are opaque and never shown to end users, so it is not worth it.
  blocklist: new Set(),
});

export function encodeId(id: number): string {
  return sqids.encode([id]);
}

/** The number behind an encoded id, or undefined when `value` is not exactly an id we issued. */
export function decodeId(value: string): number | undefined {
  if (value.length < 8 || value.length > 20 || !/^[A-Za-z0-9]+$/.test(value)) return undefined;
  const numbers = sqids.decode(value);
  if (numbers.length !== 1) return undefined;
  const [id] = numbers as [number];
  // Sqids decodes some strings it never produced; only the canonical encoding counts.
  return Number.isSafeInteger(id) && id > 0 && sqids.encode([id]) === value ? id : undefined;
}

/**
 * The number behind a numeric id (media, webhooks, deliveries), or undefined when `value` is not one
 * Crier could have issued: digits only, no sign, exponent or leading zero, and within 2^53 - 1 (what a
 * JavaScript number holds exactly, well inside PostgreSQL's bigint).
 */
export function parseNumericId(value: string): number | undefined {
  if (!/^[1-9]\d{0,15}$/.test(value)) return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** Where the spec accepts both forms (the `social_account_id` filter, API keys as the CLI prints them). */
export function parseEncodedOrNumericId(value: string): number | undefined {
  return parseNumericId(value) ?? decodeId(value);
}
