// Small schema builders shared by every request schema, so errors read the same everywhere.
import { Type, type TUnsafe } from './json-schema.ts';
import { FETCHED_URL_KEYWORD } from './fetched-url.ts';

/** A string limited to `values`; one `enum` keyword so a bad value gives one clear error. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** An absolute http(s) link that no one on our side fetches (a destination, a call to action). */
export const HttpUrl = (options: Record<string, unknown> = {}) =>
  Type.String({ format: 'uri', pattern: '^https?://', description: 'an http(s) URL', ...options });

/**
 * A URL that Crier or a network will fetch (media, covers, thumbnails, article cards): https, no
 * credentials, not a literal private, loopback, link-local or metadata address (validation/fetched-url.ts).
 */
export const FetchedUrl = (options: Record<string, unknown> = {}) => Type.String({
  [FETCHED_URL_KEYWORD]: true,
  description: 'a public https URL (no credentials; not a private, loopback, link-local or metadata address)',
  ...options,
});

/** One end of a time range in a query: a date-time, or a plain day meaning its midnight UTC (validation/date-time.ts). */
export const RangeBound = (options: Record<string, unknown> = {}) => Type.String({
  format: 'date-or-date-time',
  description: 'ISO 8601: a date-time with a time zone (2026-11-26T06:09Z; write + as %2B) or a date (2026-11-26, midnight UTC)',
  ...options,
});
