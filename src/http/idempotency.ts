// The Idempotency-Key header (spec rule 6): its form. What a key holds is kept by idempotency/keys.ts.
import { RequestError } from '../core/errors.ts';

const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** Validates the header value: 400 for a malformed key. */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw) || !KEY_PATTERN.test(raw)) {
    throw new RequestError(400, 'Malformed Idempotency-Key: use 1 to 255 printable ASCII characters (a UUID v4 is recommended)', {
      code: 'invalid_idempotency_key',
      details: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' }],
    });
  }
  return raw;
}
