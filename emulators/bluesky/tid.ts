// Timestamp identifiers (TIDs): 13 base32-sortable characters holding microseconds since the
// epoch (53 bits) and a 10-bit clock id. Posts use them as record keys; commits as revisions.

const S32 = '234567abcdefghijklmnopqrstuvwxyz';
export const TID_PATTERN = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;

export class TidGenerator {
  #lastMicros = 0;
  readonly #clockId = Math.floor(Math.random() * 1024);

  /** Strictly increasing even when called twice within the same microsecond. */
  next(nowMs: number): string {
    const micros = Math.max(nowMs * 1000, this.#lastMicros + 1);
    this.#lastMicros = micros;
    let value = (BigInt(micros) << 10n) | BigInt(this.#clockId);
    let out = '';
    for (let i = 0; i < 13; i++) {
      out = S32[Number(value & 31n)] + out;
      value >>= 5n;
    }
    return out;
  }
}
