// Files downloaded from outside, kept a while after the attempt that downloaded them. A chunked
// upload is many attempts, one per chunk (each ends in a checkpointed wait and comes back at once),
// and each opens the post's media again: without this, a 300 MB video from another URL would be
// downloaded again for every chunk. Destinations opening the same URL at once share one download.
// Entries no attempt holds are removed after IDLE_MS, the oldest first when the idle ones together
// pass MAX_IDLE_BYTES, and all of them when the process exits.
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';

/** A downloaded file: where it is, its size and its media type. */
export interface Downloaded {
  file: string;
  size: number;
  contentType: string;
}

interface Entry {
  download: Promise<Downloaded>;
  users: number;
  idleSince: number;
  timer: NodeJS.Timeout | undefined;
}

/** Every kept file of every cache of the process, removed when it exits (synchronously: it is exiting). */
const keptFiles = new Set<string>();
let exitHook = false;
function keep(file: string): void {
  keptFiles.add(file);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const kept of keptFiles) rmSync(kept, { force: true });
  });
}

/** Long enough for the next step of the same upload, which is due at once. */
const IDLE_MS = 5 * 60_000;
const MAX_IDLE_BYTES = 2 * 1024 ** 3;

export class DownloadCache {
  readonly #entries = new Map<string, Entry>();
  readonly #idleMs: number;
  readonly #maxIdleBytes: number;

  constructor(options: { idleMs?: number; maxIdleBytes?: number } = {}) {
    this.#idleMs = options.idleMs ?? IDLE_MS;
    this.#maxIdleBytes = options.maxIdleBytes ?? MAX_IDLE_BYTES;
  }

  /**
   * The file of `url`: the one kept from an earlier attempt, the one another destination is
   * downloading, or a new download (`download`). A failed download is not kept. Call `release`
   * once done with the file; it stays until no one holds it and it has been idle a while.
   */
  async acquire(url: string, download: () => Promise<Downloaded>): Promise<{ downloaded: Downloaded; release: () => void }> {
    let entry = this.#entries.get(url);
    if (!entry) {
      const created: Entry = { download: download(), users: 0, idleSince: 0, timer: undefined };
      this.#entries.set(url, created);
      created.download.then(({ file }) => keep(file), () => this.#entries.get(url) === created && this.#entries.delete(url));
      entry = created;
    }
    entry.users += 1;
    clearTimeout(entry.timer);
    let downloaded: Downloaded;
    try {
      downloaded = await entry.download;
    } catch (error) {
      entry.users -= 1;
      throw error;
    }
    const held = entry;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      held.users -= 1;
      if (held.users === 0) this.#idle(url, held);
    };
    return { downloaded, release };
  }

  /** How many files are kept (tests). */
  get size(): number {
    return this.#entries.size;
  }

  #idle(url: string, entry: Entry): void {
    entry.idleSince = Date.now();
    entry.timer = setTimeout(() => void this.#remove(url, entry), this.#idleMs).unref();
    void this.#trim();
  }

  /** The idle files over the budget go, the longest idle first. */
  async #trim(): Promise<void> {
    const idle = [];
    for (const [url, entry] of this.#entries) {
      if (entry.users === 0) idle.push({ url, entry, size: (await entry.download).size });
    }
    let total = idle.reduce((sum, e) => sum + e.size, 0);
    for (const { url, entry, size } of idle.sort((a, b) => a.entry.idleSince - b.entry.idleSince)) {
      if (total <= this.#maxIdleBytes) break;
      total -= size;
      await this.#remove(url, entry);
    }
  }

  async #remove(url: string, entry: Entry): Promise<void> {
    if (entry.users > 0 || this.#entries.get(url) !== entry) return;
    this.#entries.delete(url);
    clearTimeout(entry.timer);
    const { file } = await entry.download;
    keptFiles.delete(file);
    await rm(file, { force: true });
  }
}
