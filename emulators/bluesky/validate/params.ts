// Request checks shared by the XRPC methods, in the wording of the reference PDS's lexicon
// validator (@atproto/lexicon via @atproto/xrpc-server): a procedure's JSON body, required and
// string-typed keys, bounded integer parameters. Records are checked against their lexicons in
// lexicon.ts.
import { isPlainObject, jsonBody, type Reply } from '../../shared/http.ts';
import { invalidRequest } from '../errors.ts';
import type { XrpcCall } from '../xrpc.ts';

/** The JSON object body of a procedure, or the error the PDS gives instead. */
export function inputObject(call: XrpcCall): Record<string, unknown> | Reply {
  if (!call.contentType.startsWith('application/json')) {
    return invalidRequest(call.contentType ? `Wrong request encoding (Content-Type): ${call.contentType}` : 'Request encoding (Content-Type) required but not provided');
  }
  const body = jsonBody(call.body);
  if (!isPlainObject(body)) return invalidRequest('Request body must be a JSON object');
  return body;
}

/** Checks required keys and string types of an input or params object, in the lexicon wording. */
export function requireStrings(obj: Record<string, unknown>, required: string[], optional: string[] = []): Reply | undefined {
  for (const key of required) {
    if (obj[key] === undefined) return invalidRequest(`Missing required key "${key}" at $`);
  }
  for (const key of [...required, ...optional]) {
    const value = obj[key];
    if (value !== undefined && typeof value !== 'string') {
      return invalidRequest(`Expected string value type at $.${key} (got ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value})`);
    }
  }
  return undefined;
}

/** An integer query parameter within the lexicon's bounds, its default when absent. */
export function intParam(raw: string | undefined, name: string, fallback: number, min: number, max: number): number | Reply {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) return invalidRequest(`Expected integer value type at $.${name} (got ${JSON.stringify(raw)})`);
  if (value < min) return invalidRequest(`integer too small (minimum ${min}, got ${value}) at $.${name}`);
  if (value > max) return invalidRequest(`integer too big (maximum ${max}, got ${value}) at $.${name}`);
  return value;
}
