// Receivers that fail, as a receiver would see it and as the delivery log records it: a receiver that
// always fails gets exactly 6 attempts on the spec's growing schedule (shrunk by the test time scale),
// a hanging one is cut at the attempt timeout, a redirect is a failure whose target is never called,
// a receiver that is down for a while gets every event once it is back, a URL the guard refuses
// at delivery time is never dialled, and a name that does not resolve (yet) is a delivery failure,
// not a refusal at registration.
import assert from 'node:assert/strict';
import type { Server } from 'node:https';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../../src/db/embedded.ts';
import { emitEvent } from '../../src/webhooks/outbox.ts';
import { createSchedule } from '../../src/webhooks/schedule.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { closeServer, listenOn, sleep, startWebhookStack, TIME_SCALE, waitUntil, type WebhookStack } from '../helpers/webhooks.ts';

let stack: WebhookStack;
let org: TestOrg;
const schedule = createSchedule(TIME_SCALE);

before(async () => {
  stack = await startWebhookStack();
  org = await stack.server.createOrg();
  await stack.startDeliverer();
});
after(() => stack.close());

const publish = (postId: string) => emitEvent(stack.server.db, org.orgId, 'post.published', { postId, orgId: 'o', socialAccounts: [] });
const webhookTo = (url: string) => stack.createWebhook(org, { name: 'failing', url, events: ['post.published'] });
const finished = (rows: any[]) => rows.filter((r) => r.finishedAt);

describe('retries', () => {
  test('a receiver that always fails gets exactly 6 attempts, each wait longer, within the schedule', async () => {
    const answer = 'x'.repeat(5000);
    const arrivals = stack.receive('/always-500', (_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end(answer));
    const webhook = await webhookTo(`${stack.receiver.url}/always-500`);
    await publish('doomed');
    await waitUntil(() => arrivals.length >= 6, 'six attempts', 30_000);
    await sleep(schedule.retryDelayMs(5, 1) + 1000); // longer than any retry delay: a 7th would have come
    assert.equal(arrivals.length, 6, '1 attempt + 5 retries');

    assert.ok(new Set(arrivals.map((a) => a.headers['webhook-id'])).size === 1, 'every attempt carries the same event id');

    const rows = await stack.attempts(org, webhook.id);
    assert.deepEqual(rows.map((r: any) => r.attempt), [6, 5, 4, 3, 2, 1]);
    // Each wait, from the end of an attempt to the start of the next (the log's clock), lies within
    // that retry's bounds; each retry's least wait exceeds the previous one's most, so the waits grow.
    const log = [...rows].reverse();
    for (let retry = 1; retry <= 5; retry++) {
      const [least, most] = [schedule.retryDelayMs(retry, 0), schedule.retryDelayMs(retry, 1)];
      if (retry > 1) assert.ok(least > schedule.retryDelayMs(retry - 1, 1));
      const waited = Date.parse(log[retry]!.startedAt) - Date.parse(log[retry - 1]!.finishedAt);
      assert.ok(waited >= least - 2, `retry ${retry} started ${waited} ms after the failure, before its ${least} ms delay`);
      assert.ok(waited <= most + 1000, `retry ${retry} started ${waited} ms after the failure, long after its ${most} ms delay`);
      const gap = arrivals[retry]!.at - arrivals[retry - 1]!.at;
      assert.ok(gap >= least - 2, `the receiver saw retry ${retry} ${gap} ms after the previous attempt, before its ${least} ms delay`);
    }
    for (const row of rows) {
      assert.equal(row.errorKind, 'http_status');
      assert.equal(row.statusCode, 500);
      assert.equal(row.succeeded, false);
      assert.equal(row.deliveryState, 'failed');
      assert.equal(row.nextAttemptAt, null);
      assert.ok(Buffer.byteLength(row.responseBody) <= 1024 && answer.startsWith(row.responseBody) && row.responseBody.length > 1000, 'the first 1 KB of the answer');
    }
  });

  test('a 4xx is retried like a 5xx, and the next success ends the delivery', async () => {
    let calls = 0;
    const arrivals = stack.receive('/flaky', (_req, res) => res.writeHead(++calls <= 2 ? 429 : 200).end());
    const webhook = await webhookTo(`${stack.receiver.url}/flaky`);
    await publish('flaky');
    const rows = await waitUntil(async () => {
      const all = await stack.attempts(org, webhook.id);
      return all[0]?.succeeded && all;
    }, 'the success');
    await sleep(500);
    assert.equal(arrivals.length, 3);
    assert.deepEqual(rows.map((r: any) => [r.attempt, r.statusCode, r.errorKind, r.deliveryState]), [[3, 200, null, 'delivered'], [2, 429, 'http_status', 'delivered'], [1, 429, 'http_status', 'delivered']]);
  });
});

describe('timeouts, redirects, outages', () => {
  test('a hanging receiver is cut at the attempt timeout; the attempt is recorded as a timeout and retried', async () => {
    const arrivals = stack.receive('/hang-once', (_req, res) => {
      if (arrivals.length > 1) res.writeHead(200).end('ok'); // the first request is never answered
    });
    const webhook = await webhookTo(`${stack.receiver.url}/hang-once`);
    await publish('slow');
    const rows = await waitUntil(async () => {
      const all = await stack.attempts(org, webhook.id);
      return all[0]?.succeeded && all;
    }, 'the retry');
    const [second, first] = rows;
    assert.equal(first.errorKind, 'timeout');
    assert.equal(first.statusCode, null);
    assert.ok(first.latencyMs >= schedule.timeoutMs - 5 && first.latencyMs < schedule.timeoutMs + 1000, `cut after ${first.latencyMs} ms`);
    assert.equal(second.succeeded, true);
    assert.equal(arrivals.length, 2);
    const gap = Date.parse(second.startedAt) - Date.parse(first.startedAt);
    assert.ok(gap >= schedule.timeoutMs + schedule.retryDelayMs(1, 0) - 2, `the retry started ${gap} ms after the hung attempt did`);
  });

  test('a redirect is a failure, and its target is never called', async () => {
    const target = stack.receive('/redirect-target');
    const arrivals = stack.receive('/redirecting', (_req, res) => res.writeHead(307, { location: `${stack.receiver.url}/redirect-target` }).end());
    const webhook = await webhookTo(`${stack.receiver.url}/redirecting`);
    await publish('moved');
    const rows = await waitUntil(async () => {
      const all = finished(await stack.attempts(org, webhook.id));
      return all.length >= 2 && all;
    }, 'two attempts');
    await stack.server.request('DELETE', `/v1/webhooks/${webhook.id}`, { key: org.key }); // no need to wait out the schedule
    for (const row of rows) {
      assert.equal(row.errorKind, 'redirect');
      assert.equal(row.succeeded, false);
      assert.match(row.error, /307/);
    }
    assert.ok(arrivals.length >= 2);
    assert.equal(target.length, 0);
  });

  test('a receiver that is down for a while, then up, receives every event', async () => {
    const port = await freePort();
    const webhook = await webhookTo(`https://127.0.0.1:${port}/hook`);
    const sent = await Promise.all(['d1', 'd2', 'd3', 'd4', 'd5'].map(publish));
    await waitUntil(async () => {
      const { rows } = await stack.server.db.query("SELECT count(*)::int AS n FROM webhook_attempts WHERE webhook_id = $1 AND error_kind = 'connect'", [webhook.id]);
      return rows[0].n >= 10;
    }, 'two refused connections per event');
    const received: string[] = [];
    let server: Server | undefined;
    try {
      server = await listenOn(port, (_req, res, body) => {
        received.push(JSON.parse(body).id);
        res.writeHead(200).end();
      });
      await waitUntil(() => sent.every((id) => received.includes(id)), 'every event after the outage', 20_000);
    } finally {
      if (server) await closeServer(server);
    }
    // The receiver answers before the worker records the answer: wait for the log to catch up.
    const rows = await waitUntil(async () => {
      const all = await stack.attempts(org, webhook.id);
      return all.filter((r: any) => r.deliveryState === 'delivered' && r.succeeded).length === sent.length && all;
    }, 'every success on record');
    for (const id of sent) {
      const mine = rows.filter((r: any) => r.eventId === id);
      assert.equal(mine[0].succeeded, true, id);
      assert.ok(mine.slice(1).every((r: any) => r.errorKind === 'connect'), `the earlier attempts of ${id} were refused connections`);
    }
  });
});

describe('the SSRF guard at delivery time', () => {
  let guarded: WebhookStack;
  before(async () => {
    guarded = await startWebhookStack();
    // The API saved the URL with loopback allowed; the worker runs without the switch, as in production.
    await guarded.startDeliverer({ allowLoopbackFetch: false });
  });
  after(() => guarded.close());

  test('a URL whose address is refused is recorded as blocked and never dialled', async () => {
    const owner = await guarded.server.createOrg();
    const arrivals = guarded.receive('/inside');
    const webhook = await guarded.createWebhook(owner, { name: 'inside', url: `${guarded.receiver.url}/inside`, events: ['test'] });
    const res = await guarded.server.request('POST', `/v1/webhooks/${webhook.id}/test`, { key: owner.key });
    assert.equal(res.status, 202);
    const rows = await waitUntil(async () => {
      const all = finished(await guarded.attempts(owner, webhook.id));
      return all.length >= 2 && all;
    }, 'two attempts');
    for (const row of rows) {
      assert.equal(row.errorKind, 'blocked');
      assert.match(row.error, /127\.0\.0\.1/);
    }
    assert.equal(arrivals.length, 0);
    assert.equal(guarded.receiver.connections, 0, 'not even a TCP connection');
  });
});

describe('a receiver whose name does not resolve yet', () => {
  test('is registered (201), and each delivery fails as "connect", on record and retried', async () => {
    const webhook = await webhookTo('https://receiver-not-set-up-yet.crier-test.invalid/hooks');
    assert.equal(webhook.url, 'https://receiver-not-set-up-yet.crier-test.invalid/hooks');
    await publish('unresolved');
    const rows = await waitUntil(async () => {
      const all = finished(await stack.attempts(org, webhook.id));
      return all.length >= 2 && all;
    }, 'two attempts');
    for (const row of rows) {
      assert.equal(row.errorKind, 'connect');
      assert.match(row.error, /could not resolve receiver-not-set-up-yet\.crier-test\.invalid/);
    }
  });

  test('literal private addresses are still refused at registration', async () => {
    const res = await stack.server.request('POST', '/v1/webhooks', { key: org.key, body: { name: 'inside', url: 'https://10.0.0.7/hooks', events: ['test'] } });
    assert.equal(res.status, 400);
    assert.match(res.body.details[0].message, /blocked_address/);
  });
});
