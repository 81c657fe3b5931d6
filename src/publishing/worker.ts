
// The publishing worker of a process: claims due targets in batches (queue.ts), publishes many at once
// (run-target.ts), and writes their steps and outcomes in group commits (durable-writes.ts). It sleeps until
// the next target is due, and wakes early when one is created due sooner (LISTEN/NOTIFY), when a slot
// frees while it is full, or when one of its own retries comes due. One lease per process, renewed
// every few seconds, covers every target it holds; a process that stops renewing it (killed) has its
// targets handed to the other workers by their sweep, and the attempt fence makes that takeover safe.
import { ChannelListener } from '../db/listen.ts';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import { mediaContext } from '../media/context.ts';
import { DownloadCache } from '../media/download-cache.ts';
import { createMediaFetcher, createMediaOpener, type MediaCap } from '../media/fetch.ts';
import { createVideoProcessor } from '../media/renditions.ts';
import type { NetworkRegistry } from '../networks/registry.ts';
import type { NetworkAdapter } from '../networks/contract.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { SecretBox } from '../security/crypto.ts';
import { createGuardedClient, guardedFetch } from '../security/ssrf.ts';
import { accountQuotas, batchedAdmissions } from './admission.ts';
import { durableWrites, type DurableWrites } from './durable-writes.ts';
import { claimsFromRows, type Claim } from './claim.ts';
import { failpoint } from './failpoints.ts';
import { recordOutcomes, type FinishedAttempt } from './finish.ts';
import { writePartSteps, type PartStep } from './parts.ts';
import { claimDue, msUntilNextDue, PUBLISH_CHANNEL, registerWorker, removeWorker, renewWorker, sweepDeadWorkers, WORKER_MAX_SLEEP_MS, type ClaimRow } from './queue.ts';
import { publishClaim, Superseded, type EngineDeps } from './run-target.ts';
import { Semaphore, WakeTimer } from './timing.ts';

export interface PublishingWorker {
  /** Stops claiming, lets what is in flight finish (up to a grace period), and gives up the lease. */
  stop(): Promise<void>;
}

export interface WorkerDeps {
  db: Db;
  box: SecretBox;
  logger: Logger;
  /** The networks with their configured sides (adapters, OAuth providers), built once at start. */
  networks: NetworkRegistry;
  /** Replaces the registry's adapters (tests). */
  adapters?: Partial<Record<NetworkId, NetworkAdapter>>;
}

/** Targets created or retried sooner than planned are noticed within this, even without a notification. */
const MAX_SLEEP_MS = WORKER_MAX_SLEEP_MS;
/** Floor between claims when due targets are held by other claims: they are released within milliseconds. */
const MIN_SLEEP_MS = 20;
/** One claim statement takes at most this many targets; one write at most this many steps or outcomes. */
const MAX_CLAIM = 256;
const MAX_WRITE = 512;
/** Without a backlog, claims are at least this far apart. */
const CLAIM_PACE_MS = 50;
/**
 * Destinations held beyond the network slots, as a share of them: claimed, their first step written,
 * waiting for a slot. A slot that frees starts the next call at once instead of waiting for the next
 * claim and step write (measured: with every held destination also a slot, those two writes kept a
 * share of the slots away from the network, and a drain well under the network's speed). Calls to
 * networks stay bounded by CRIER_PUBLISH_CONCURRENCY.
 */
const CLAIM_AHEAD_SHARE = 0.5;
/** How long an outcome may wait for others to share its write. */
const OUTCOME_LINGER_MS = 10;
/** How long stop() waits for publishes in flight; what is left is taken over once the lease lapses. */
const STOP_GRACE_MS = 30_000;

export async function startPublishingWorker(config: Config, deps: WorkerDeps): Promise<PublishingWorker> {
  const guarded = createGuardedClient({
    allowLoopback: config.allowLoopbackFetch,
    ca: config.extraCaFile ? readFileSync(config.extraCaFile) : undefined,
    maxBytes: 512 * 1024 * 1024,
    timeoutMs: 120_000,
  });
  const ownMedia = mediaContext(config, deps.db, deps.box);
  // One set of kept downloads for both forms: a file from outside is downloaded once for every step of its upload.
  const downloads = new DownloadCache();
  const fetchMedia = createMediaFetcher(guarded, ownMedia, downloads);
  const steps = durableWrites<PartStep, boolean>({ write: (items) => writePartSteps(deps.db, items), maxBatch: MAX_WRITE, logger: deps.logger, label: 'publishing steps' });
  // Nothing waits on an outcome (its publish has freed its slot): it lingers a little to share a write.
  const outcomes = durableWrites<FinishedAttempt, boolean>({
    write: (items) => recordOutcomes(deps.db, items), maxBatch: MAX_WRITE, lingerMs: OUTCOME_LINGER_MS, logger: deps.logger, label: 'publishing outcomes',
  });
  const engine: EngineDeps = {
    db: deps.db,
    box: deps.box,
    adapters: deps.adapters ?? deps.networks.adapters(),
    fetchMedia,
    openMedia: createMediaOpener(guarded, ownMedia, downloads),
    userFetch: guardedFetch(guarded),
    oauthProviders: deps.networks.oauthProviders(),
    managedApps: deps.networks.managedApps,
    prepareMedia: createVideoProcessor(config, deps.db, fetchMedia),
    logger: deps.logger,
    maxAttempts: config.publishing.maxAttempts,
    maxRefusals: config.publishing.maxRefusals,
    retryBaseMs: config.publishing.retryBaseMs,
    writeStep: (step) => steps.submit(step),
    networkSlots: new Semaphore(config.publishing.concurrency),
    networkConcurrency: networkConcurrency(deps.networks),
    mediaCaps: mediaCaps(deps.networks),
    accountQuotas: accountQuotas(deps.networks.all, config.publishing.accountQuotas),
    admit: batchedAdmissions(deps.db, deps.logger),
  };
  const loop = new PublishLoop({ ...deps, engine, outcomes, steps, config });
  await loop.start();
  return {
    async stop() {
      await loop.stop();
      await guarded.close();
    },
  };
}

/** Per network with video profiles, the largest file it takes: its largest profile's. */
function mediaCaps(networks: NetworkRegistry): Partial<Record<NetworkId, MediaCap>> {
  const caps: Partial<Record<NetworkId, MediaCap>> = {};
  for (const network of networks.all) {
    const sizes = Object.values(network.media.profiles).map((p) => p.maxBytes).filter((n): n is number => n !== undefined);
    if (sizes.length) caps[network.id] = { maxBytes: Math.max(...sizes), network: network.label };
  }
  return caps;
}

/** A semaphore per network that declares how many calls a process may have in flight to it. */
function networkConcurrency(networks: NetworkRegistry): Partial<Record<NetworkId, Semaphore>> {
  return Object.fromEntries(networks.all.filter((n) => n.limits.concurrency).map((n) => [n.id, new Semaphore(n.limits.concurrency!)]));
}

interface LoopDeps extends WorkerDeps {
  config: Config;
  engine: EngineDeps;
  steps: DurableWrites<PartStep, boolean>;
  outcomes: DurableWrites<FinishedAttempt, boolean>;
}

class PublishLoop {
  private readonly deps: LoopDeps;
  /** Destinations held at once: the network slots and those claimed ahead of them. */
  private readonly capacity: number;
  private readonly mediaSlots: Semaphore;
  private readonly timer = new WakeTimer();
  /** Publishes running or waiting for a network slot: what `capacity` bounds. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Outcomes waiting for their group commit: they hold no network slot, but are bounded too. */
  private readonly recording = new Set<Promise<void>>();
  private readonly leaseSeconds: number;
  private workerId = 0;
  private readonly listener: ChannelListener;
  private timers: NodeJS.Timeout[] = [];
  /** The loop sleeps because every slot is taken: a finished publish wakes it. */
  private full = false;
  private stopping = false;
  private running: Promise<void> | undefined;
  private lastClaimAt = 0;

  constructor(deps: LoopDeps) {
    this.deps = deps;
    this.capacity = deps.config.publishing.concurrency + Math.ceil(deps.config.publishing.concurrency * CLAIM_AHEAD_SHARE);
    this.mediaSlots = new Semaphore(deps.config.publishing.mediaConcurrency);
    this.leaseSeconds = deps.config.publishing.heartbeatSeconds;
    this.listener = new ChannelListener(deps.db, PUBLISH_CHANNEL, (payload) => this.timer.wakeAt(payload ? Number(payload) : 0), deps.logger, 'publishing worker');
  }

  async start(): Promise<void> {
    this.workerId = await registerWorker(this.deps.db);
    this.timers.push(setInterval(() => void this.renewLease(), (this.leaseSeconds * 1000) / 3).unref());
    this.timers.push(setInterval(() => void this.sweep(), this.deps.config.publishing.superviseIntervalSeconds * 1000).unref());
    // Targets of a worker that died before this one started (perhaps this process's previous life).
    await this.sweep();
    this.running = this.run().catch((error: unknown) => this.deps.logger.error({ err: error }, 'the publishing worker stopped on an error'));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.timer.wakeAt(0);
    await this.running;
    const settled = Promise.allSettled(this.inFlight).then(() => Promise.allSettled(this.recording)).then(() => true);
    const finished = await Promise.race([settled, new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_GRACE_MS).unref())]);
    await Promise.all([this.deps.steps.flushed(), this.deps.outcomes.flushed()]);
    for (const timer of this.timers) clearInterval(timer);
    this.listener.close();
    // With publishes still running, the lease is left to lapse: another worker takes them over.
    if (finished) await removeWorker(this.deps.db, this.workerId).catch(() => {});
    else this.deps.logger.warn({ inFlight: this.inFlight.size }, 'publishing worker stopped with publishes in flight; another worker takes them over once its lease lapses');
  }

  private async run(): Promise<void> {
    let backlog = false;
    while (!this.stopping) {
      await this.listener.listen();
      const free = this.capacity - this.inFlight.size - Math.max(0, this.recording.size - this.capacity);
      // With a backlog, claim in batches rather than one target per finished publish: a claim is a commit.
      const enough = backlog ? Math.ceil(this.capacity / 4) : 1;
      if (free < enough) {
        this.full = true;
        await this.timer.sleep(MAX_SLEEP_MS);
        this.full = false;
        continue;
      }
      // Without a backlog, claims are paced: under a stream of creates (each API process wakes every
      // worker), a claim then takes what arrived since the last one instead of a few posts each time.
      if (!backlog) await this.pace();
      const wanted = Math.min(free, MAX_CLAIM);
      this.lastClaimAt = Date.now();
      const claimed = await this.claim(wanted);
      if (claimed.length) failpoint('after-claim');
      for (const claim of claimsFromRows(this.deps.box, claimed)) this.track(this.inFlight, this.publish(claim));
      backlog = claimed.length === wanted;
      if (!backlog) await this.timer.sleep(await this.untilNextDue(claimed[0]));
    }
  }

  private async pace(): Promise<void> {
    const wait = this.lastClaimAt + CLAIM_PACE_MS - Date.now();
    if (wait > 0 && !this.stopping) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  private async claim(limit: number): Promise<ClaimRow[]> {
    try {
      return await claimDue(this.deps.db, this.workerId, limit);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'due targets could not be claimed; trying again');
      await this.timer.sleep(MAX_SLEEP_MS);
      return [];
    }
  }

  private async publish(claim: Claim): Promise<void> {
    const heavy = claim.containers.some((c) => c.media.length > 0);
    if (heavy) await this.mediaSlots.acquire();
    let result;
    try {
      result = await publishClaim(this.deps.engine, claim);
    } catch (error) {
      if (!(error instanceof Superseded)) throw error;
      this.deps.logger.warn({ targetId: claim.targetId, attemptId: claim.attemptId }, 'publish attempt superseded by a newer one; it stops here');
      return;
    } finally {
      if (heavy) this.mediaSlots.release();
    }
    // The network part is over: its slot is free for the next claim while the outcome waits for its
    // group commit. The target stays `publishing` under this worker's lease until it is written.
    this.track(this.recording, this.record({ claim, ...result }));
  }

  private async record(finished: FinishedAttempt): Promise<void> {
    const { claim, outcome } = finished;
    const recorded = await this.deps.outcomes.submit(finished);
    if ((outcome.status === 'retry' || outcome.status === 'wait') && recorded) this.timer.wakeAt(Date.now() + outcome.delayMs);
    this.deps.logger.info({ targetId: claim.targetId, postId: claim.postId, network: claim.account.network, outcome: outcome.status, recorded }, 'publish attempt finished');
  }

  private track(set: Set<Promise<void>>, work: Promise<void>): void {
    set.add(work);
    void work
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'publishing failed unexpectedly'))
      .finally(() => {
        set.delete(work);
        if (this.full) this.timer.wakeAt(0);
      });
  }

  /** How long to sleep: until the next target is due (the claim said, or we ask), at most MAX_SLEEP_MS. */
  private async untilNextDue(claimed: ClaimRow | undefined): Promise<number> {
    try {
      const ms = claimed ? (claimed.next_due_ms ?? undefined) : await msUntilNextDue(this.deps.db);
      return ms === undefined ? MAX_SLEEP_MS : Math.min(MAX_SLEEP_MS, Math.max(MIN_SLEEP_MS, ms));
    } catch {
      return MAX_SLEEP_MS;
    }
  }

  private async renewLease(): Promise<void> {
    try {
      // Through the listening connection when there is one: it is otherwise idle, while the pool may
      // be queued behind hundreds of publishes, and a renewal waiting there lets the lease lapse.
      if (await renewWorker(this.listener.connection ?? this.deps.db, this.workerId)) return;
      // Presumed dead and swept (a stall longer than the lease): what it held is being taken over,
      // and the fence stops those attempts. Carry on under a new lease.
      this.workerId = await registerWorker(this.deps.db);
      this.deps.logger.warn({ workerId: this.workerId }, 'the publishing worker lost its lease and took a new one');
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'the publishing worker could not renew its lease');
    }
  }

  private async sweep(): Promise<void> {
    try {
      const handed = await sweepDeadWorkers(this.deps.db, this.leaseSeconds, this.workerId);
      if (handed) {
        this.deps.logger.warn({ targets: handed }, 'targets of a worker that stopped are due again');
        this.timer.wakeAt(0);
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'the sweep for stopped workers failed');
    }
  }

}
