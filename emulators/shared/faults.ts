// Fault injection shared by the emulators: a queue of canned responses that the next matching
// requests receive instead of the real handling, so tests can rehearse 429s, 5xx and auth loss.

export interface FaultSpec {
  status: number;
  /** How many matching requests get this response (default 1). */
  times?: number;
  headers?: Record<string, string>;
  /** Replaces the emulator's default body for `status`. */
  body?: unknown;
  /** Only requests with this method match (case-insensitive). */
  method?: string;
  /** Only requests whose path starts with this string (or matches this RegExp) match. */
  path?: string | RegExp;
  /** The answer comes this late (a slow network, or a request left hanging while a test kills its sender). Emulators that honour it say so. */
  delayMs?: number;
  /**
   * The request is carried out first, and this answer replaces the emulator's: an answer lost on its
   * way back (a gateway timeout after the post was made). Emulators that honour it say so.
   */
  afterHandling?: boolean;
}

interface Pending {
  spec: FaultSpec;
  remaining: number;
}

export class FaultQueue {
  #pending: Pending[] = [];

  add(spec: FaultSpec): void {
    this.#pending.push({ spec, remaining: spec.times ?? 1 });
  }

  clear(): void {
    this.#pending = [];
  }

  /** The first queued fault matching this request, consumed once; undefined when none matches. */
  take(method: string, path: string): FaultSpec | undefined {
    const index = this.#pending.findIndex(({ spec }) => matches(spec, method, path));
    if (index < 0) return undefined;
    const entry = this.#pending[index];
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.#pending.splice(index, 1);
    return entry.spec;
  }
}

function matches(spec: FaultSpec, method: string, path: string): boolean {
  if (spec.method && spec.method.toUpperCase() !== method.toUpperCase()) return false;
  if (spec.path === undefined) return true;
  return typeof spec.path === 'string' ? path.startsWith(spec.path) : spec.path.test(path);
}
