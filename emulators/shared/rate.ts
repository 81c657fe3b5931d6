// Fixed-window counters, the model both X (15-minute windows) and the Bluesky PDS use.

export interface LimitResult {
  ok: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds at which the window resets. */
  reset: number;
  windowSecs: number;
}

export class WindowLimiter {
  #windows = new Map<string, { start: number; used: number }>();

  /** Spends `points` from `key`'s window; a refused request spends nothing. */
  consume(key: string, limit: number, windowMs: number, now: number, points = 1): LimitResult {
    let window = this.#windows.get(key);
    if (!window || now >= window.start + windowMs) {
      window = { start: now, used: 0 };
      this.#windows.set(key, window);
    }
    const ok = window.used + points <= limit;
    if (ok) window.used += points;
    return {
      ok,
      limit,
      remaining: Math.max(0, limit - window.used),
      reset: Math.ceil((window.start + windowMs) / 1000),
      windowSecs: Math.round(windowMs / 1000),
    };
  }
}
