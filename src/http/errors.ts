// Every error leaves as the spec's envelope {success: false, error, code?, details?}; bad input is
// never a 500.
import type { FastifyError, FastifyInstance } from 'fastify';
import { RequestError } from '../errors.ts';
import type { ErrorObject } from 'ajv';
import { ajvErrorsToIssues } from '../validation/ajv.ts';

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
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
    return reply.status(500).send({ success: false, error: 'Internal error', code: 'internal_error', message: 'The request failed on our side; it is safe to retry.' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody(`No route for ${request.method} ${request.url.split('?')[0]}`, 'not_found'));
  });
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
};
