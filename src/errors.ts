// A request the domain refuses: carries the HTTP-visible status, message, code and per-field details.
// Domain folders throw it; http/ turns it into the error envelope.
import type { FieldIssue } from './networks/types.ts';

export class RequestError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: FieldIssue[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, options: { code?: string; details?: FieldIssue[]; headers?: Record<string, string> } = {}) {
    super(message);
    this.status = status;
    this.code = options.code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export function validationError(details: FieldIssue[], message = 'Validation failed'): RequestError {
  return new RequestError(400, message, { code: 'validation_error', details });
}
