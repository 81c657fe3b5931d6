// XRPC error bodies ({error, message}) with the statuses and texts the reference PDS
// (@atproto/pds with @atproto/xrpc-server) sends.
import type { Reply } from '../shared/http.ts';

export function xrpcError(status: number, error: string, message: string): Reply {
  return { status, body: { error, message } };
}

export const invalidRequest = (message: string, error = 'InvalidRequest'): Reply => xrpcError(400, error, message);
export const authMissing = (): Reply => xrpcError(401, 'AuthMissing', 'Authentication Required');
export const authRequired = (message = 'Authentication Required', error = 'AuthenticationRequired'): Reply =>
  xrpcError(401, error, message);
export const invalidToken = (message = 'Token could not be verified'): Reply => xrpcError(400, 'InvalidToken', message);
export const expiredToken = (message = 'Token has expired'): Reply => xrpcError(400, 'ExpiredToken', message);
export const rateLimitExceeded = (): Reply => xrpcError(429, 'RateLimitExceeded', 'Rate Limit Exceeded');
export const internalError = (): Reply => xrpcError(500, 'InternalServerError', 'Internal Server Error');
export const methodNotImplemented = (): Reply => xrpcError(501, 'MethodNotImplemented', 'Method Not Implemented');
export const payloadTooLarge = (): Reply => xrpcError(413, 'PayloadTooLarge', 'request entity too large');

/** Default bodies for injected faults, by status. */
export function faultBody(status: number): unknown {
  const known: Record<number, [string, string]> = {
    400: ['InvalidRequest', 'Invalid Request'],
    401: ['AuthenticationRequired', 'Authentication Required'],
    403: ['Forbidden', 'Forbidden'],
    429: ['RateLimitExceeded', 'Rate Limit Exceeded'],
    500: ['InternalServerError', 'Internal Server Error'],
    501: ['MethodNotImplemented', 'Method Not Implemented'],
    502: ['UpstreamFailure', 'Upstream Failure'],
    503: ['NotEnoughResources', 'Not Enough Resources'],
    504: ['UpstreamTimeout', 'Upstream Timeout'],
  };
  const [error, message] = known[status] ?? ['InternalServerError', 'Internal Server Error'];
  return { error, message };
}
