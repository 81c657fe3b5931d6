// Every error leaves as the spec's envelope {success: false, error, code?, details?}; bad input is
// never a 500. That includes what fails before a route is found: a URL that is not valid
// percent-encoding (Fastify's frameworkErrors) and a request Node's HTTP parser refuses, such as a
// control character in a header value (the server's clientError).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { RequestError } from '../core/errors.ts';
import type { ErrorObject } from 'ajv';
import { ajvErrorsToIssues } from '../validation/ajv.ts';

/** Fastify options: errors raised before routing answer the envelope too. */
export const earlyErrorOptions = {
  frameworkErrors: sendError,
  clientErrorHandler: answerClientError,
} satisfies Partial<FastifyServerOptions>;

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(sendError);

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody(`No route for ${request.method} ${request.url.split('?')[0]}`, 'not_found'));
  });
}

function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof RequestError) {
    return reply.status(error.status).headers(error.headers).send(errorBody(error.message, error.code, error.details));
  }
  if (error.validation) {
    return reply.status(400).send(errorBody('Validation failed', 'validation_error', ajvErrorsToIssues(error.validation as ErrorObject[])));
  }
  const mapped = FASTIFY_ERRORS[error.code];
  if (mapped) return reply.status(mapped.status).send(errorBody(mapped.message, mapped.code));
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return reply.status(error.statusCode).send(errorBody(error.message, 'bad_request'));
  }
  request.log.error({ err: error }, 'unhandled error');
  if (isTransient(error)) return reply.status(500).header('retry-after', '1').send(TRANSIENT_FAILURE);
  return reply.status(500).send(INTERNAL_ERROR);
}

// Only a failure that passes by itself is worth retrying; an unexpected exception fails the same way
// again, so its answer must not invite the client to retry in a loop.
const TRANSIENT_FAILURE = {
  success: false,
  error: 'Temporary failure',
  code: 'temporarily_unavailable',
  message: 'The request failed on our side for a temporary reason (the database was unreachable or busy); retry it in a moment. A create retried with the same Idempotency-Key is not applied twice.',
};
const INTERNAL_ERROR = {
  success: false,
  error: 'Internal error',
  code: 'internal_error',
  message: 'The request failed on our side because of an unexpected error; sending it again will most likely fail the same way. Quote the x-request-id header of this answer when you report it.',
};

/** SQLSTATEs of failures a retry gets past: serialization failure, deadlock, too many connections, the server shutting down or starting. */
const TRANSIENT_SQLSTATES = new Set(['40001', '40P01', '53300', '57P01', '57P02', '57P03']);
/** The database (or Redis) could not be reached, or the connection dropped. */
const TRANSIENT_SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

function isTransient(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? '';
    // Class 08: connection exceptions. pg's own errors for a lost or unobtainable connection have no code.
    if (/^08[0-9A-Z]{3}$/.test(code) || TRANSIENT_SQLSTATES.has(code) || TRANSIENT_SOCKET_ERRORS.has(code)) return true;
    if (/^Connection terminated|timeout exceeded when trying to connect/.test(cause.message)) return true;
  }
  return false;
}

/**
 * A request Node's HTTP parser refused never reaches Fastify: the answer is written to the socket
 * here, which is then closed (what follows on the connection cannot be trusted to be a request).
 */
function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException & { reason?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message, code } = clientErrorAnswer(error);
  this.log.debug({ err: error }, 'refused a malformed HTTP request');
  const body = JSON.stringify(errorBody(message, code));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function clientErrorAnswer(error: NodeJS.ErrnoException & { reason?: string }): { status: number; message: string; code: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'The request did not arrive in time', code: 'request_timeout' };
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'The request headers are too large', code: 'headers_too_large' };
  if (error.code === 'HPE_INVALID_HEADER_TOKEN') {
    return { status: 400, message: 'A request header holds a character HTTP does not allow (control characters are refused in header names and values)', code: 'invalid_header' };
  }
  return { status: 400, message: `The request is not valid HTTP${error.reason ? ` (${error.reason})` : ''}`, code: 'bad_request' };
}

export function errorBody(error: string, code?: string, details?: unknown) {
  return { success: false as const, error, ...(code ? { code } : {}), ...(details ? { details } : {}) };
}

const FASTIFY_ERRORS: Record<string, { status: number; message: string; code: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'Malformed JSON in the request body', code: 'invalid_json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'The request body is empty; send a JSON object', code: 'invalid_json' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'The request body is too large', code: 'payload_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Send the body as application/json', code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'Content-Length does not match the body', code: 'bad_request' },
  FST_ERR_BAD_URL: { status: 400, message: "The URL is malformed: a '%' does not start a valid percent-encoded character", code: 'invalid_url' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: 'A part of the URL path is too long', code: 'uri_too_long' },
};
