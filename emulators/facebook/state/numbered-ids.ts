// The numbered ids Instagram's objects carry (media, comments, messages), given out in order, and the
// emulator's clock, for the stores that make them.
import type { Clock } from '../../shared/clock.ts';

export class NumberedIds {
  readonly #clock: Clock;
  #seq = startOfIds();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  now(): number {
    return this.#clock.now();
  }

  nextId(prefix: string): string {
    this.#seq += 1;
    return `${prefix}${String(this.#seq).padStart(10, '0')}`;
  }
}

/**
 * Where an emulator's numbered ids start: at its start time (tenths of a millisecond), so a restart
 * never gives out an id of the previous run. Crier keeps what it was sent (the comment ids it has seen,
 * the media it published) across sandbox runs while the emulator starts empty, and an id given out again
 * would be a comment already seen. It also makes ids as long as Instagram's (17 to 18 digits).
 */
export function startOfIds(): number {
  return Date.now() * 10;
}
