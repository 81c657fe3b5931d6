// Every error class of Crier, in the one module every folder may import (src/core imports nothing
// else of src/): what a request is refused with, what a network answered, what an operator reads.
// Each is translated at one edge: http/ turns RequestError into the error envelope, the publishing
// engine turns PublishError and PublishWait into an attempt's outcome, cli/ prints OperatorError and
// ConfigError (failures.ts explains the rest).

/** One problem with one field of a request; `field` is a dotted path such as `instagram.collaborators[2]`. */
export interface FieldIssue {
  field: string;
  message: string;
}

// ---- requests -----------------------------------------------------------------------------------

/** A request the domain refuses: the HTTP-visible status, message, code and per-field details. */
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

// ---- networks -----------------------------------------------------------------------------------

// How a network said no, or "not yet". Adapters classify; the engine decides what happens next.
//  retryable: try again later (429, 5xx, connection refused before sending), honouring retryAfterMs
//  auth:      the account's token is expired or revoked: the account becomes inactive
//  permanent: the content or the request is refused for good (validation, policy)
//  unknown:   the network may or may not have published it, and we cannot find out
export type PublishErrorKind = 'retryable' | 'auth' | 'permanent' | 'unknown';

/**
 * What the network's answer was, in one word, whatever the network (src/networks/http.ts). The kind
 * says what the engine does; the code says why, for adapters that react to one answer (a duplicate
 * found on the account, a quota that frees at midnight).
 */
export type FailureCode =
  | 'auth' | 'rate_limited' | 'quota' | 'duplicate' | 'media_rejected' | 'invalid' | 'forbidden' | 'not_found'
  | 'server' | 'unreachable';

export class PublishError extends Error {
  readonly kind: PublishErrorKind;
  readonly retryAfterMs: number | undefined;
  readonly code: FailureCode | undefined;

  constructor(kind: PublishErrorKind, message: string, retryAfterMs?: number, code?: FailureCode) {
    super(message);
    this.kind = kind;
    this.retryAfterMs = retryAfterMs;
    this.code = code;
  }
}

/**
 * A network's waiting step (media processing, an upload session): nothing failed, but the next step
 * can only happen later. The engine stores `checkpoint` on the target, frees the worker slot and makes
 * the target due again after `delayMs`; the next claim hands the checkpoint back to the adapter
 * (PublishInput.checkpoint), with every container published so far on record.
 */
export class PublishWait extends Error {
  readonly delayMs: number;
  /** Null: nothing to resume from (the engine's own waits, before any network call). */
  readonly checkpoint: Record<string, unknown> | null;

  constructor(delayMs: number, checkpoint: Record<string, unknown> | null, reason = 'waiting for the network') {
    super(reason);
    this.delayMs = delayMs;
    this.checkpoint = checkpoint;
  }
}

// ---- operators ----------------------------------------------------------------------------------

/** An error whose message is already written for the operator: printed as it is. */
export class OperatorError extends Error {}

/** An invalid configuration (loadConfig), printed as it is. */
export class ConfigError extends Error {}

/** A module that could not be loaded when first needed (lazy.ts). */
export class ModuleLoadError extends Error {
  constructor(what: string, cause: unknown) {
    super(`Crier could not load ${what}: ${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}`, { cause });
    this.name = 'ModuleLoadError';
  }
}
