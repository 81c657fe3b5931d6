// Crier killed with SIGKILL, for real: `crier worker` child processes deliver webhooks; one is killed
// while retries are scheduled, or in the middle of an attempt, and the next worker delivers every
// event anyway. Nothing in memory is needed to resume: the schedule lives in PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { emitEvent } from '../../src/webhooks/outbox.ts';
import { createSchedule } from '../../src/webhooks/schedule.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startCrierProcess, type Started } from '../helpers/process.ts';
import { sleep, startWebhookStack, waitUntil, type Arrival, type WebhookStack } from '../helpers/webhooks.ts';

/** Retries after 0.5 s and 1.5 s, attempt timeout 1.5 s: long enough to kill a worker between them. */
const SCALE = 0.05;
let stack: WebhookStack;
let org: TestOrg;
const children: Started[] = [];

before(async () => {
  stack = await startWebhookStack({ CRIER_WEBHOOK_TIME_SCALE: String(SCALE) });
  org = await stack.server.createOrg();
});
after(async () => {
  for (const child of children) child.child.kill('SIGKILL');
  await stack.close();
});

async function startWorker(): Promise<Started> {
  const child = startCrierProcess(['worker'], stack.env);
  children.push(child);
  await child.waitFor(/Crier is running/);
  return child;
}

async function kill(child: Started): Promise<void> {
  child.child.kill('SIGKILL');
  const signal = await new Promise((resolve) => (child.child.exitCode !== null || child.child.signalCode ? resolve(child.child.signalCode) : child.child.once('exit', (_c, s) => resolve(s))));
  assert.equal(signal, 'SIGKILL');
}

async function stop(child: Started): Promise<void> {
  child.child.kill('SIGTERM');
  await child.exited;
}

const idOf = (arrival: Arrival) => JSON.parse(arrival.body).id as string;

describe('a worker killed with SIGKILL', { concurrency: false }, () => {
  test('while retries are scheduled: the next worker sends them, and every event is delivered', async () => {
    const tries = new Map<string, number>();
    const arrivals = stack.receive('/third-time-lucky', (_req, res, arrival) => {
      const n = (tries.get(idOf(arrival)) ?? 0) + 1;
      tries.set(idOf(arrival), n);
      res.writeHead(n < 3 ? 503 : 200).end();
    });
    const webhook = await stack.createWebhook(org, { name: 'lucky', url: `${stack.receiver.url}/third-time-lucky`, events: ['post.published'] });
    const doomed = await startWorker();
    const events = await Promise.all(['k1', 'k2', 'k3'].map((postId) => emitEvent(stack.server.db, org.orgId, 'post.published', { postId, orgId: 'o', socialAccounts: [] })));
    await waitUntil(() => events.every((id) => tries.get(id)), 'a first, failed attempt of each event');
    await kill(doomed);

    const seenAtKill = arrivals.length;
    await sleep(createSchedule(SCALE).retryDelayMs(2, 1) + 500); // every retry falls due while no worker runs
    assert.equal(arrivals.length, seenAtKill, 'nothing is sent while no worker runs');

    const healthy = await startWorker();
    try {
      await waitUntil(() => events.every((id) => tries.get(id) === 3), 'every event acknowledged after the restart', 30_000);
    } finally {
      await stop(healthy);
    }
    const rows = await stack.attempts(org, webhook.id);
    for (const id of events) {
      const mine = rows.filter((r: any) => r.eventId === id && r.finishedAt);
      assert.equal(mine[0].succeeded, true, id);
      assert.equal(mine[0].deliveryState, 'delivered');
    }
  });

  test('in the middle of an attempt: the attempt is marked interrupted and the event is sent again', async () => {
    let hung = false;
    const arrivals = stack.receive('/hangs-first', (_req, res) => {
      if (!hung) {
        hung = true; // never answered: the worker dies while waiting for it
        return;
      }
      res.writeHead(200).end('ok');
    });
    const webhook = await stack.createWebhook(org, { name: 'hangs', url: `${stack.receiver.url}/hangs-first`, events: ['post.error'] });
    const doomed = await startWorker();
    const eventId = await emitEvent(stack.server.db, org.orgId, 'post.error', { postId: 'mid', orgId: 'o', socialAccounts: [] });
    await waitUntil(() => hung, 'the attempt to reach the receiver');
    await kill(doomed);

    const healthy = await startWorker();
    try {
      // The dead worker's claim lapses at the end of its lease (the attempt timeout plus 5 s).
      await waitUntil(() => arrivals.length === 2, 'the attempt after the lease lapsed', 30_000);
    } finally {
      await stop(healthy);
    }
    assert.deepEqual(arrivals.map(idOf), [eventId, eventId], 'the same event, again');
    const rows = await waitUntil(async () => {
      const all = await stack.attempts(org, webhook.id);
      return all[0]?.finishedAt && all;
    }, 'the second attempt on record');
    assert.deepEqual(rows.map((r: any) => [r.attempt, r.errorKind, r.succeeded]), [[2, null, true], [1, 'interrupted', false]]);
  });
});
