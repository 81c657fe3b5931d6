// Time-based ids as X (snowflakes) and LinkedIn (share, activity and asset ids) make them: the
// millisecond of creation, less the network's epoch, shifted left 22 bits, plus a sequence within the
// millisecond. Read from the emulator's clock, so ids sort as the network's do.
import type { Clock } from './clock.ts';

export class TimeIds {
  readonly #clock: Clock;
  readonly #epochMs: number;
  #lastMs = 0;
  #sequence = 0;

  constructor(clock: Clock, epochMs = 0) {
    this.#clock = clock;
    this.#epochMs = epochMs;
  }

  next(): string {
    const now = this.#clock.now();
    this.#sequence = now === this.#lastMs ? this.#sequence + 1 : 0;
    this.#lastMs = now;
    return ((BigInt(now - this.#epochMs) << 22n) | BigInt(this.#sequence & 0x3fffff)).toString();
  }
}
