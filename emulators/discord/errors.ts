// Discord's error answers (https://discord.com/developers/docs/reference#error-messages and
// topics/opcodes-and-status-codes#json): `{code, message, errors?}`, `code` one of Discord's JSON
// error codes; a 429 is `{message, retry_after, global, code}` (topics/rate-limits#exceeding-a-rate-limit,
// the description's RatelimitedResponse, which requires the code).
import { nestedErrors, type FieldError } from './validate.ts';

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const discordError = (status: number, code: number, message: string, errors?: Record<string, unknown>): Answer =>
  ({ status, body: { message, code, ...(errors ? { errors } : {}) } });

export const unknownWebhook = () => discordError(404, 10015, 'Unknown Webhook');
export const invalidWebhookToken = () => discordError(401, 50027, 'Invalid Webhook Token');
export const unknownMessage = () => discordError(404, 10008, 'Unknown Message');
export const unknownChannel = () => discordError(404, 10003, 'Unknown Channel');
export const emptyMessage = () => discordError(400, 50006, 'Cannot send an empty message');
export const invalidFormBody = (errors: FieldError[]) => discordError(400, 50035, 'Invalid Form Body', nestedErrors(errors));
export const tooLarge = () => discordError(413, 40005, 'Request entity too large');
export const notFound = () => discordError(404, 0, '404: Not Found');
export const forumNeedsThread = () => discordError(400, 220001, 'Webhooks posted to forum channels must have a thread_name or thread_id');
export const forumBothThreadFields = () => discordError(400, 220002, 'Webhooks posted to forum channels cannot have both a thread_name and thread_id');
export const threadsOnlyInForums = () => discordError(400, 220003, 'Webhooks can only create threads in forum channels');

export const rateLimited = (retryAfter: number, global: boolean): Answer =>
  ({ status: 429, body: { message: 'You are being rate limited.', retry_after: retryAfter, global, code: 0 } });
