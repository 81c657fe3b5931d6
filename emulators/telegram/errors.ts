// The Bot API's answers (https://core.telegram.org/bots/api#making-requests): "The response contains a
// JSON object, which always has a Boolean field 'ok' and may have an optional String field
// 'description' with a human-readable description of the result. If 'ok' equals True, the request was
// successful and the result of the query can be found in the 'result' field. In case of an
// unsuccessful request, 'ok' equals false and the error is explained in the 'description'. An Integer
// 'error_code' field is also returned [...]. Some errors may also have an optional field 'parameters'
// of the type ResponseParameters" (https://core.telegram.org/bots/api#responseparameters:
// migrate_to_chat_id, retry_after).
export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export const ok = (result: unknown): Answer => ({ status: 200, body: { ok: true, result } });

export function refused(status: number, description: string, parameters?: { retry_after?: number; migrate_to_chat_id?: number }): Answer {
  return { status, body: { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) } };
}

/** The description's prefix is the status's name, as Telegram writes it. */
export const badRequest = (why: string) => refused(400, `Bad Request: ${why}`);
export const forbidden = (why: string) => refused(403, `Forbidden: ${why}`);
export const unauthorized = () => refused(401, 'Unauthorized');
export const notFound = () => refused(404, 'Not Found');
export const tooManyRequests = (retryAfter: number) => refused(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });
export const tooLarge = () => refused(413, 'Request Entity Too Large');
