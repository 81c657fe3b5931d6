// One connection LISTENing on a channel, for a loop that also polls (the publishing worker, the
// webhook deliverer, the inbound processor): a lost connection is dropped and a new one taken on the
// loop's next turn, polling covering the gap. And the loop's sleep, which a notification cuts short.
import type { Logger } from 'pino';
import type { Db, Tx } from './pool.ts';

export class ChannelListener {
  readonly #db: Db;
  readonly #channel: string;
  readonly #onNotify: (payload: string | undefined) => void;
  readonly #logger: Logger;
  readonly #who: string;
  #connection: Tx | undefined;

  /** `who` names the loop in the log line said when it cannot listen ("webhook deliverer"). */
  constructor(db: Db, channel: string, onNotify: (payload: string | undefined) => void, logger: Logger, who: string) {
    this.#db = db;
    this.#channel = channel;
    this.#onNotify = onNotify;
    this.#logger = logger;
    this.#who = who;
  }

  /** The listening connection, when there is one (otherwise idle: a lease renewal may use it). */
  get connection(): Tx | undefined {
    return this.#connection;
  }

  /** Listens, unless already listening. Never throws: without a connection the loop polls. */
  async listen(): Promise<void> {
    if (this.#connection) return;
    try {
      const connection = await this.#db.connect();
      connection.on('notification', (message) => this.#onNotify(message.payload || undefined));
      connection.on('error', () => {
        if (this.#connection !== connection) return;
        this.close();
        // Woken as by a notification: the loop looks now and listens again, rather than after its sleep.
        this.#onNotify(undefined);
      });
      this.#connection = connection;
      await connection.query(`LISTEN ${this.#channel}`);
    } catch (error) {
      this.close();
      this.#logger.debug({ err: error }, `${this.#who} cannot listen for notifications; polling`);
    }
  }

  /** The connection is closed, not returned to the pool: it would stay subscribed to the channel. */
  close(): void {
    const connection = this.#connection;
    this.#connection = undefined;
    connection?.release(true);
  }
}

/** A loop's sleep, cut short by `ring` (a notification, a finished task, stop); a ring that arrives while awake is kept for the next sleep. */
export class Alarm {
  private rung = false;
  private wake: (() => void) | undefined;

  ring(): void {
    this.rung = true;
    this.wake?.();
  }

  async sleep(ms: number): Promise<void> {
    if (!this.rung) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        this.wake = done;
        function done() {
          clearTimeout(timer);
          resolve();
        }
      });
      this.wake = undefined;
    }
    this.rung = false;
  }
}
