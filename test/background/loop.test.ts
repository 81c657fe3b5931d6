// The loop of every background queue (src/background/loop.ts), driven by a queue of our own making
// over a real PostgreSQL (for its LISTEN channel): what runs when, in which order, what a stop waits
// for, and what a notification wakes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startLoop, type JobQueue } from '../../src/background/loop.ts';
import { every } from '../../src/background/schedule.ts';
import { createPool, type Db } from '../../src/db/pool.ts';
import { createLogger } from '../../src/log.ts';
import { createTestDatabase } from '../helpers/harness.ts';
import { until } from '../helpers/until.ts';

let db: Db;
const logger = createLogger('silent');

before(async () => {
  db = createPool(await createTestDatabase(), 4);
});
after(() => db.end());

/** A queue over an array: claims take from its front; each job waits for its own release. */
function arrayQueue(jobs: number[], options: { channel?: string } = {}) {
  const claims: number[] = [];
  const started: number[] = [];
  const finished: number[] = [];
  const releases = new Map<number, () => void>();
  let running = 0;
  let mostAtOnce = 0;
  const queue: JobQueue<number> = {
    label: 'test queue',
    ...options,
    claim: async (limit) => {
      claims.push(limit);
      return jobs.splice(0, limit);
    },
    run: async (job) => {
      started.push(job);
      mostAtOnce = Math.max(mostAtOnce, ++running);
      await new Promise<void>((resolve) => releases.set(job, resolve));
      running -= 1;
      finished.push(job);
    },
  };
  const release = (job: number) => releases.get(job)?.();
  return { queue, claims, started, finished, release, mostAtOnce: () => mostAtOnce, jobs };
}

test('an ordered queue claims ahead and runs its jobs one after another, in the order claimed', async () => {
  const q = arrayQueue([1, 2, 3, 4, 5]);
  const loop = startLoop(db, logger, q.queue, { concurrency: 1, claimAhead: 3, pollMs: 20 });
  for (const job of [1, 2, 3, 4, 5]) {
    await until(() => q.started.includes(job) || undefined);
    assert.deepEqual(q.started, q.finished.concat(job), 'one at a time');
    q.release(job);
  }
  await until(() => q.finished.length === 5 || undefined);
  await loop.stop();
  assert.deepEqual(q.finished, [1, 2, 3, 4, 5]);
  assert.equal(q.mostAtOnce(), 1);
  assert.deepEqual(q.claims.slice(0, 2), [3, 3], 'claimed three ahead, then the rest');
});

test('a concurrent queue runs as many jobs as it has slots, and claims again as they free', async () => {
  const q = arrayQueue([1, 2, 3, 4, 5, 6]);
  const loop = startLoop(db, logger, q.queue, { concurrency: 4, pollMs: 20 });
  await until(() => q.started.length === 4 || undefined);
  assert.deepEqual(q.started, [1, 2, 3, 4]);
  q.release(1);
  q.release(2);
  await until(() => q.started.length === 6 || undefined);
  for (const job of [3, 4, 5, 6]) q.release(job);
  await until(() => q.finished.length === 6 || undefined);
  await loop.stop();
  assert.equal(q.mostAtOnce(), 4);
});

test('a stop waits for the jobs in flight and starts none of those claimed but not begun', async () => {
  const q = arrayQueue([1, 2, 3]);
  const loop = startLoop(db, logger, q.queue, { concurrency: 1, claimAhead: 3, pollMs: 20 });
  await until(() => q.started.includes(1) || undefined);
  let stopped = false;
  const stopping = loop.stop().then(() => (stopped = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(stopped, false, 'the job in flight holds the stop');
  q.release(1);
  await stopping;
  assert.deepEqual(q.started, [1], 'jobs 2 and 3 were claimed but never begun: their lease brings them back');
});

test('a job that throws is logged and the loop goes on with the next', async () => {
  const ran: number[] = [];
  const loop = startLoop(db, logger, {
    label: 'test queue',
    claim: async (limit) => [1, 2].filter((job) => !ran.includes(job)).slice(0, limit),
    run: async (job) => {
      ran.push(job);
      if (job === 1) throw new Error('job 1 fails');
    },
  }, { concurrency: 1, pollMs: 20 });
  await until(() => ran.length === 2 || undefined);
  await loop.stop();
  assert.deepEqual(ran, [1, 2]);
});

test("a notification on the queue's channel wakes a loop that would otherwise sleep a minute", async () => {
  const q = arrayQueue([], { channel: 'crier_test_loop' });
  const loop = startLoop(db, logger, q.queue, { concurrency: 1, idleMs: 60_000 });
  await until(() => q.claims.length >= 1 || undefined);
  await new Promise((resolve) => setTimeout(resolve, 200)); // asleep, listening
  const claimsBefore = q.claims.length;
  q.jobs.push(7);
  const sent = Date.now();
  await db.query(`SELECT pg_notify('crier_test_loop', '')`);
  await until(() => q.started.includes(7) || undefined);
  assert.ok(Date.now() - sent < 5_000, `woken ${Date.now() - sent} ms after the notification`);
  assert.equal(q.claims.length, claimsBefore + 1, 'one claim, made on the notification');
  q.release(7);
  await loop.stop();
});

test('a schedule runs at once and at each interval, never overlapping itself, and its stop waits for the pass', async () => {
  let passes = 0;
  let running = 0;
  let overlapped = false;
  let release: () => void = () => undefined;
  const schedule = every(10, 'test pass', async () => {
    passes += 1;
    overlapped ||= ++running > 1;
    await new Promise<void>((resolve) => (release = resolve));
    running -= 1;
  }, logger);
  await until(() => passes === 1 || undefined);
  await new Promise((resolve) => setTimeout(resolve, 60)); // several ticks while the first pass runs
  assert.equal(passes, 1, 'no second pass while the first runs');
  release();
  await until(() => passes === 2 || undefined);
  let stopped = false;
  const stopping = schedule.stop().then(() => (stopped = true));
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(stopped, false, 'the pass in flight holds the stop');
  release();
  await stopping;
  assert.equal(overlapped, false);
});
