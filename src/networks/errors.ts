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

/**
 * What a network's reconcile says when it cannot tell whether a container was posted: `unknown`
 * (never a repost), naming where the user should look. `orUnknown` runs a read reconcile needs and
 * turns its failure into that.
 */
export function reconcileErrors(network: string, where: string) {
  const cannotTell = (position: number, why: string) =>
    new PublishError('unknown', `${network}: could not tell whether container ${position + 1} is already posted (${why}); check ${where} before posting it again`);
  const orUnknown = async <T>(position: number, read: () => Promise<T>): Promise<T> => {
    try {
      return await read();
    } catch (error) {
      throw cannotTell(position, (error as Error).message);
    }
  };
  return { cannotTell, orUnknown };
}
