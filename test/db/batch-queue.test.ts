// The one group-commit queue: what a caller observes of its batching, lingering and flushing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BatchQueue, type Settled } from '../../src/db/batch-queue.ts';

/** A run that records each batch and answers once `release` is called (or at once). */
function recorder(options: { hold?: boolean } = {}) {
  const batches: number[][] = [];
  let releases: (() => void)[] = [];
  const run = async (items: number[]): Promise<Settled<number>[]> => {
    batches.push(items);
    if (options.hold) await new Promise<void>((resolve) => releases.push(resolve));
    return items.map((item) => ({ ok: true, value: item * 10 }));
  };
  const release = () => { for (const resolve of releases.splice(0)) resolve(); };
  return { batches, run, release, held: () => releases.length };
}

test('idle, a request goes at once and alone; those that arrive while the slot is busy leave together', async () => {
  const r = recorder({ hold: true });
  const queue = new BatchQueue(r.run, { slots: 1, maxBatch: 10 });
  const first = queue.submit(1);
  assert.deepEqual(r.batches, [[1]]);
  const rest = [2, 3, 4].map((n) => queue.submit(n));
  assert.deepEqual(r.batches, [[1]], 'nothing else starts while the one slot is busy');
  r.release();
  assert.equal(await first, 10);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(r.batches, [[1], [2, 3, 4]]);
  r.release();
  assert.deepEqual(await Promise.all(rest), [20, 30, 40]);
});

test('maxBatch bounds a batch and slots bound the batches in flight', async () => {
  const r = recorder({ hold: true });
  const queue = new BatchQueue(r.run, { slots: 2, maxBatch: 2 });
  const all = [1, 2, 3, 4, 5, 6].map((n) => queue.submit(n));
  assert.deepEqual(r.batches, [[1], [2]], 'the first two requests each found a free slot');
  r.release();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(r.batches.slice(2), [[3, 4], [5, 6]]);
  r.release();
  assert.deepEqual(await Promise.all(all), [10, 20, 30, 40, 50, 60]);
});

test('lingerMs: from idle, a few requests wait for more and share one batch', async () => {
  const r = recorder();
  const queue = new BatchQueue(r.run, { slots: 1, maxBatch: 100, lingerMs: 20 });
  const first = queue.submit(1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = queue.submit(2);
  assert.deepEqual(await Promise.all([first, second]), [10, 20]);
  assert.deepEqual(r.batches, [[1, 2]]);
});

test('a run that throws rejects every item of its batch, and the next batch still runs', async () => {
  let calls = 0;
  const queue = new BatchQueue<number, number>(async (items) => {
    if (calls++ === 0) throw new Error('lost connection');
    return items.map((item) => ({ ok: true, value: item }));
  }, { slots: 1, maxBatch: 10 });
  await assert.rejects(queue.submit(1), /lost connection/);
  assert.equal(await queue.submit(2), 2);
});

test('per-item answers: one item refused, the others answered', async () => {
  const queue = new BatchQueue<number, number>(async (items) => items.map((item) => (item < 0 ? { ok: false, error: new Error(`bad ${item}`) } : { ok: true, value: item })), { slots: 1, maxBatch: 10 });
  const [good, bad] = await Promise.allSettled([queue.submit(1), queue.submit(-1)]);
  assert.deepEqual(good, { status: 'fulfilled', value: 1 });
  assert.equal(bad.status === 'rejected' && (bad.reason as Error).message, 'bad -1');
});

test('flushed() resolves once everything submitted so far is answered', async () => {
  const r = recorder({ hold: true });
  const queue = new BatchQueue(r.run, { slots: 1, maxBatch: 10 });
  await queue.flushed(); // idle: at once
  const answered: number[] = [];
  for (const n of [1, 2, 3]) void queue.submit(n).then((value) => answered.push(value));
  let flushed = false;
  const flushing = queue.flushed().then(() => { flushed = true; });
  r.release();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(flushed, false, 'the second batch is still held');
  r.release();
  await flushing;
  assert.deepEqual(answered, [10, 20, 30]);
});

// The waits below are ended by what the test does, long before their limits (10 s): a loaded machine
// may delay a timer by tens of milliseconds, never by seconds.
const LONG_MS = 10_000;

test('awaitExpectedMs: a batch about to start waits for the items announced, and they go with it', async () => {
  const r = recorder();
  const queue = new BatchQueue(r.run, { slots: 1, maxBatch: 100, awaitExpectedMs: LONG_MS });
  const arriving = [queue.expect(), queue.expect()];
  const started = performance.now();
  const first = queue.submit(1);
  assert.deepEqual(r.batches, [], 'the first item waits for the two announced');
  setTimeout(() => {
    arriving[0]!();
    void queue.submit(2);
  }, 10);
  setTimeout(() => {
    arriving[1]!();
    void queue.submit(3);
  }, 20);
  assert.equal(await first, 10);
  assert.deepEqual(r.batches, [[1, 2, 3]], 'one batch for the three');
  assert.ok(performance.now() - started < LONG_MS / 2, 'it left as the last announced came, not at the limit');
});

test('awaitExpectedMs: an announced item given up ends the wait', async () => {
  const r = recorder();
  const queue = new BatchQueue(r.run, { slots: 1, maxBatch: 100, awaitExpectedMs: LONG_MS });
  const givenUp = queue.expect();
  const t0 = performance.now();
  const first = queue.submit(1);
  setTimeout(givenUp, 5);
  assert.equal(await first, 10);
  assert.ok(performance.now() - t0 < LONG_MS / 2, `the wait ended when the item was given up (${(performance.now() - t0).toFixed(0)} ms)`);
  assert.deepEqual(r.batches, [[1]]);
});

test('awaitExpectedMs: an announced item that never comes costs the limit, and no more', async () => {
  const r = recorder();
  const queue = new BatchQueue(r.run, { slots: 1, maxBatch: 100, awaitExpectedMs: 60 });
  queue.expect(); // never submitted nor given up
  const t0 = performance.now();
  assert.equal(await queue.submit(1), 10);
  const waited = performance.now() - t0;
  assert.ok(waited >= 55 && waited < LONG_MS / 2, `waited the limit (${waited.toFixed(0)} ms)`);
  assert.deepEqual(r.batches, [[1]]);
});

test('awaitExpectedMs: items announced after a batch began waiting are not waited for', async () => {
  const r = recorder();
  const queue = new BatchQueue(r.run, { slots: 1, maxBatch: 100, awaitExpectedMs: LONG_MS });
  const early = queue.expect();
  const t0 = performance.now();
  const first = queue.submit(1);
  setTimeout(() => {
    queue.expect(); // a later one, still resolving when the early one arrives
    early();
    void queue.submit(2);
  }, 10);
  await first;
  assert.ok(performance.now() - t0 < LONG_MS / 2, 'the batch left once the items announced before it had come');
  assert.deepEqual(r.batches, [[1, 2]]);
});

test('without awaitExpectedMs, announcing changes nothing: an idle queue still starts at once', async () => {
  const r = recorder();
  const queue = new BatchQueue(r.run, { slots: 1, maxBatch: 100 });
  queue.expect();
  const first = queue.submit(1);
  assert.deepEqual(r.batches, [[1]]);
  assert.equal(await first, 10);
});
