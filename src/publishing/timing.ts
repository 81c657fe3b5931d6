// Two small tools of the worker loop: a sleep that can be cut short or brought forward, and a counting
// semaphore.

/** A sleep until a deadline that `wakeAt` can bring forward; a wake-up that comes while awake is kept. */
export class WakeTimer {
  /** Epoch ms the next sleep must end by (Infinity: no wake-up pending). */
  private pending = Number.POSITIVE_INFINITY;
  private deadline = Number.POSITIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;

  /** Sleeps `ms`, or less if a wake-up was asked for sooner (before or during the sleep). */
  async sleep(ms: number): Promise<void> {
    const until = Math.min(Date.now() + ms, this.pending);
    this.pending = Number.POSITIVE_INFINITY;
    if (until > Date.now()) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.arm(until);
      });
    }
    clearTimeout(this.timer);
    this.wake = undefined;
    this.deadline = Number.POSITIVE_INFINITY;
  }

  /** Ends the current sleep by `at` (epoch ms; 0 = now), or the next one if none is running. */
  wakeAt(at: number): void {
    if (!this.wake) {
      this.pending = Math.min(this.pending, at);
      return;
    }
    if (at < this.deadline) this.arm(at);
  }

  private arm(until: number): void {
    clearTimeout(this.timer);
    this.deadline = until;
    const wake = this.wake!;
    this.timer = setTimeout(wake, Math.max(0, until - Date.now()));
  }
}

export class Semaphore {
  private free: number;
  private readonly queue: (() => void)[] = [];

  constructor(slots: number) {
    this.free = slots;
  }

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.queue.push(resolve));
  }

  release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.free++;
  }
}
