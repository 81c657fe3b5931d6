// The query of a Business Profile call (the v1 account, location and performance APIs and the v4
// localPosts API), read the way Google's gRPC transcoding binds it to the request message
// (https://google.aip.dev/127, google/api/http.proto): a parameter names a field of the message; a
// repeated field takes every value (`dailyMetrics=A&dailyMetrics=B`); a FieldMask (`readMask`) is a
// message whose `paths` are repeated, so every value's comma-separated paths are merged; a scalar
// given twice keeps the last value (protobuf's "last one wins" when a field comes twice); and a name
// that is no field of the message, nor one of the system parameters every Google API takes, is
// refused with Google's "Cannot bind query parameter" 400.
import type { Reply } from '../../shared/http.ts';
import { badRequest, richError } from '../errors.ts';
import type { QueryValues } from './query.ts';

export interface TranscodedParameter {
  /** A repeated field: every value kept, in order. */
  repeated?: boolean;
  /** A google.protobuf.FieldMask: the union of every value's comma-separated paths. */
  fieldMask?: boolean;
}

/** The system parameters of Google's discovery documents, taken by every method. */
const SYSTEM_PARAMETERS = new Set([
  '$.xgafv', 'access_token', 'alt', 'callback', 'fields', 'key', 'oauth_token', 'prettyPrint', 'quotaUser', 'upload_protocol', 'uploadType',
]);

export type TranscodedQuery =
  | { ok: true; query: Record<string, string | undefined>; lists: Record<string, string[]> }
  | { ok: false; reply: Reply };

/**
 * One string a parameter (a repeated field's values and a FieldMask's paths joined with commas) and,
 * in `lists`, every value of each repeated field; or the 400 for a parameter the method has no field for.
 */
export function transcodedQuery(fields: Record<string, TranscodedParameter>, values: QueryValues): TranscodedQuery {
  const query: Record<string, string | undefined> = {};
  const lists: Record<string, string[]> = {};
  for (const [name, list] of Object.entries(values)) {
    const field = fields[name];
    if (!field && !SYSTEM_PARAMETERS.has(name)) return { ok: false, reply: unboundParameter(name) };
    if (field?.fieldMask) query[name] = list.flatMap((v) => v.split(',')).map((p) => p.trim()).filter(Boolean).join(',');
    else if (field?.repeated) query[name] = (lists[name] = list).join(',');
    else query[name] = list.at(-1);
  }
  return { ok: true, query, lists };
}

/** Google's answer to a query parameter that is no field of the request message. */
function unboundParameter(name: string): Reply {
  const message = `Invalid JSON payload received. Unknown name "${name}": Cannot bind query parameter. Field '${name}' could not be found in request message.`;
  return richError(400, message, [badRequest(undefined, message)]);
}
