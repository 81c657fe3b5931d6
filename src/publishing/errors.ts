// How a network said no. Adapters classify; the engine decides what happens next.
//  retryable: try again later (429, 5xx, connection refused before sending), honouring retryAfterMs
//  auth:      the account's token is expired or revoked: the account becomes inactive
//  permanent: the content or the request is refused for good (validation, policy)
//  unknown:   the network may or may not have published it, and we cannot find out
export type PublishErrorKind = 'retryable' | 'auth' | 'permanent' | 'unknown';

export class PublishError extends Error {
  readonly kind: PublishErrorKind;
  readonly retryAfterMs: number | undefined;

  constructor(kind: PublishErrorKind, message: string, retryAfterMs?: number) {
    super(message);
    this.kind = kind;
    this.retryAfterMs = retryAfterMs;
  }
}
