// A clock the tests can move forward: token expiry, rate-limit windows, media processing and
// duplicate windows all read it, so a test can jump two hours ahead without waiting.
export class Clock {
  #offsetMs = 0;

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  nowSecs(): number {
    return Math.floor(this.now() / 1000);
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(ms: number): void {
    this.#offsetMs += ms;
  }
}
