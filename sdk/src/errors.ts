// What a failed call throws: Crier's error body ({ success: false, error, code?, details? }) with
// the HTTP status, typed so callers can branch on `code` and show `details` next to each field.

/** One problem of a request, by field path (`containers[0].media[1].url`, `instagram.collaborators`). */
export interface CrierFieldIssue {
  field: string;
  message: string;
}

export class CrierError extends Error {
  override readonly name = 'CrierError';
  /** The HTTP status; 0 when no answer came (network error, timeout). */
  readonly status: number;
  /** Crier's machine-readable code (`validation_error`, `not_found`, `rate_limited`…), when it gave one. */
  readonly code: string | undefined;
  /** Per-field problems of a 4xx (always an array: empty when Crier gave none). */
  readonly details: CrierFieldIssue[];
  readonly requestId: string | undefined;
  /** Seconds Crier asked to wait (Retry-After), when it did. */
  readonly retryAfter: number | undefined;

  constructor(status: number, message: string, options: { code?: string; details?: CrierFieldIssue[]; requestId?: string; retryAfter?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.code = options.code;
    this.details = options.details ?? [];
    this.requestId = options.requestId;
    this.retryAfter = options.retryAfter;
  }
}

function issuesOf(details: unknown): CrierFieldIssue[] {
  if (!Array.isArray(details)) return [];
  return details
    .filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null)
    .map((d) => ({ field: String(d.field ?? ''), message: String(d.message ?? '') }));
}

/** The CrierError of a non-2xx answer, whatever its body (JSON error, HTML from a proxy, nothing). */
export function errorFromResponse(response: Response, text: string, retryAfter: number | undefined): CrierError {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: the status text says what happened
  }
  const message = typeof body.error === 'string' ? body.error : `HTTP ${response.status} ${response.statusText}`.trim();
  return new CrierError(response.status, message, {
    code: typeof body.code === 'string' ? body.code : undefined,
    details: issuesOf(body.details),
    requestId: response.headers.get('x-request-id') ?? undefined,
    retryAfter,
  });
}
