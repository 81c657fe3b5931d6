// Small schema builders shared by every request schema, so errors read the same everywhere.
import { Type, type TUnsafe } from 'typebox';

/** A string limited to `values`; one `enum` keyword so a bad value gives one clear error. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** An absolute http(s) URL. */
export const HttpUrl = (options: Record<string, unknown> = {}) =>
  Type.String({ format: 'uri', pattern: '^https?://', description: 'an http(s) URL', ...options });

/** An absolute https URL (media and anything a network fetches must be HTTPS). */
export const HttpsUrl = (options: Record<string, unknown> = {}) =>
  Type.String({ format: 'uri', pattern: '^https://', description: 'an https URL', ...options });

/** One end of a time range in a query: a date-time, or a plain day meaning its midnight UTC (validation/date-time.ts). */
export const RangeBound = (options: Record<string, unknown> = {}) => Type.String({
  format: 'date-or-date-time',
  description: 'ISO 8601: a date-time with a time zone (2026-11-26T06:09Z; write + as %2B) or a date (2026-11-26, midnight UTC)',
  ...options,
});
