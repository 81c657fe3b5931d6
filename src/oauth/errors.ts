// What the OAuth endpoints refuse with: RFC 6749's error answer ({error, error_description}, §5.2),
// which OAuth clients parse by its `error` code, not Crier's own envelope. Registration uses RFC
// 7591's codes (invalid_redirect_uri, invalid_client_metadata) in the same shape.
import type { FastifyError, FastifyInstance } from 'fastify';
import { RequestError } from '../core/errors.ts';

export class OAuthError extends Error {
  /** The RFC's error code: invalid_request, invalid_client, invalid_grant, unsupported_grant_type... */
  readonly error: string;
  readonly status: number;

  constructor(error: string, description: string, status = 400) {
    super(description);
    this.error = error;
    this.status = status;
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}

/** A refused token request that is the grant's fault (RFC 6749 §5.2): the client starts again at authorization. */
export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);

/** The client_id is unknown (401: RFC 6749 §5.2); the SDK client then registers again. */
export const invalidClient = (description: string) => new OAuthError('invalid_client', description, 401);

export const invalidRequest = (description: string) => new OAuthError('invalid_request', description);

/**
 * The error answers of the OAuth endpoints' Fastify scope: an OAuthError as itself, any other
 * refusal of the input (malformed JSON, a NUL character, too large a body) as `invalid_request`,
 * and only a fault of Crier's own as the 500 `server_error`.
 */
export function answerOAuthErrors(scope: FastifyInstance): void {
  scope.setErrorHandler((error: FastifyError | OAuthError | RequestError, request, reply) => {
    reply.header('cache-control', 'no-store');
    if (error instanceof OAuthError) return reply.status(error.status).send(error.body());
    const status = error instanceof RequestError ? error.status : error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      const details = error instanceof RequestError && error.details ? `: ${error.details.map((d) => `${d.field} ${d.message}`).join('; ')}` : '';
      return reply.status(status === 413 ? 413 : 400).send(invalidRequest(`${error.message}${details}`).body());
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: 'server_error', error_description: 'The request failed on our side; quote the x-request-id header of this answer when you report it' });
  });
}
