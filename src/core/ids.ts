// Public ids: the API shows posts, accounts, containers and orgs as short opaque strings, while the
// database keeps bigints. The strings are Sqids (sqids.org) of one number, with the alphabet below,
// minimum length 8 and no blocklist: clients store them, so they never change.
//
// A list page encodes a few hundred ids, and the general Sqids encoder (which takes any list of
// numbers, rebuilding and reshuffling its alphabet on every call) was 20-30% of the API's CPU there.
// For one number everything but the digits depends only on which of the 62 rotations of the shuffled
// alphabet the number selects, so those 62 states are built once here, from the algorithm of the
// Sqids specification, and an encode is a base-61 conversion. test/core/ids.test.ts checks the output
// against the reference `sqids` package.

const ALPHABET = 'k3G7QAe51FCsPW92uEOyq4Bg6Sp8YzVTmnU0liwDdHXLajZrfxNcohRJIMbtKv';
const MIN_LENGTH = 8;
const SIZE = ALPHABET.length;

/** Sqids' deterministic shuffle: swaps driven by positions and character codes. */
function shuffle(alphabet: string): string {
  const chars = alphabet.split('');
  for (let i = 0, j = chars.length - 1; j > 0; i++, j--) {
    const r = (i * j + chars[i]!.charCodeAt(0) + chars[j]!.charCodeAt(0)) % chars.length;
    [chars[i], chars[r]] = [chars[r]!, chars[i]!];
  }
  return chars.join('');
}

/** What one rotation of the alphabet fixes for an id: its first character, digits, separator, padding. */
interface Rotation {
  prefix: string;
  /** The 61 digit characters: digit value d is written digits[d]. */
  digits: string[];
  /** After the number when the id is shorter than the minimum, then `padding` up to the minimum. */
  separator: string;
  padding: string;
  /** Character -> digit value, for decoding. */
  values: Map<string, number>;
}

const SHUFFLED = shuffle(ALPHABET);

function rotation(offset: number): Rotation {
  const rotated = SHUFFLED.slice(offset) + SHUFFLED.slice(0, offset);
  const reversed = rotated.split('').reverse().join('');
  const digits = reversed.slice(1).split('');
  return {
    prefix: rotated[0]!,
    digits,
    separator: reversed[0]!,
    padding: shuffle(reversed).slice(0, MIN_LENGTH),
    values: new Map(digits.map((c, value) => [c, value])),
  };
}

const ROTATIONS: Rotation[] = Array.from({ length: SIZE }, (_, offset) => rotation(offset));
/** The rotation an id of value v uses: v % 62 picks a character, its code (+1 for one number) the offset. */
const ROTATION_OF_RESIDUE: Rotation[] = Array.from({ length: SIZE }, (_, r) => ROTATIONS[(SHUFFLED.charCodeAt(r) + 1) % SIZE]!);
/** An id's first character names its rotation. */
const ROTATION_OF_PREFIX = new Map(ROTATIONS.map((r) => [r.prefix, r]));

export function encodeId(id: number): string {
  if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`cannot encode ${id} as an id`);
  const r = ROTATION_OF_RESIDUE[id % SIZE]!;
  const base = SIZE - 1;
  let digits = '';
  let rest = id;
  do {
    digits = r.digits[rest % base]! + digits;
    rest = Math.floor(rest / base);
  } while (rest > 0);
  const short = 1 + digits.length;
  return short >= MIN_LENGTH ? r.prefix + digits : r.prefix + digits + r.separator + r.padding.slice(0, MIN_LENGTH - short - 1);
}

/** The number behind an encoded id, or undefined when `value` is not exactly an id we issued. */
export function decodeId(value: string): number | undefined {
  if (value.length < 8 || value.length > 20 || !/^[A-Za-z0-9]+$/.test(value)) return undefined;
  const r = ROTATION_OF_PREFIX.get(value[0]!)!;
  const end = value.indexOf(r.separator, 1);
  const digits = value.slice(1, end < 0 ? undefined : end);
  let id = 0;
  for (const c of digits) id = id * (SIZE - 1) + r.values.get(c)!;
  // Only the canonical encoding counts: the number must give back exactly this string.
  return digits.length > 0 && Number.isSafeInteger(id) && id > 0 && encodeId(id) === value ? id : undefined;
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
