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
