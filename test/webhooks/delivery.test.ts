// What a receiver gets: the envelope, Crier's headers and custom ones, both signatures checked with
// independent implementations (plain node:crypto for X-Service-Signature, the `standardwebhooks`
// package for the Standard Webhooks headers), fan-out to exactly the subscribed, enabled webhooks of
// the event's organization, and redelivery of the same event.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { TestOrg } from '../helpers/harness.ts';
import { emitEvent } from '../../src/webhooks/outbox.ts';
import { createSchedule } from '../../src/webhooks/schedule.ts';
import { sleep, startWebhookStack, waitUntil, type Arrival, type WebhookStack } from '../helpers/webhooks.ts';

let stack: WebhookStack;
let org: TestOrg;
let routeCounter = 0;

/**
 * Attempt timeout 3 s, first retry after 1 s: these tests count deliveries exactly, so a loaded
 * machine must not turn a slow answer into a timeout and a retry.
 */
const SCALE = 0.1;
const schedule = createSchedule(SCALE);

before(async () => {
  stack = await startWebhookStack({ CRIER_WEBHOOK_TIME_SCALE: String(SCALE) });
  org = await stack.server.createOrg();
  await stack.startDeliverer();
});
after(() => stack.close());

/** A fresh receiver path and a webhook pointing at it. */
async function endpoint(body: Record<string, unknown>, owner = org, respond?: Parameters<WebhookStack['receive']>[1]) {
  const path = `/hook-${++routeCounter}`;
  const arrivals = stack.receive(path, respond);
  const webhook = await stack.createWebhook(owner, { name: `hook ${routeCounter}`, url: stack.receiver.url + path, events: ['post.published'], ...body });
  return { webhook, arrivals };
}

async function sendTest(webhookId: number, message?: string) {
  const res = await stack.server.request('POST', `/v1/webhooks/${webhookId}/test`, { key: org.key, body: message ? { message } : undefined });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body.data.eventId as string;
}

/** X-Service-Signature as the spec tells receivers to check it: HMAC of the raw body, constant-time compare. */
function serviceSignatureValid(secret: string, rawBody: string, header: string | string[] | undefined): boolean {
  const expected = Buffer.from('sha256=' + createHmac('sha256', secret).update(rawBody).digest('hex'));
  const given = Buffer.from(String(header));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function flipOneByte(text: string): string {
  const i = Math.floor(text.length / 2);
  return text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ 1) + text.slice(i + 1);
}

const headersOf = (arrival: Arrival) => arrival.headers as Record<string, string>;

describe('envelope and headers', () => {
  test('the test event: envelope {id, event, timestamp, data}, Crier’s headers, custom headers', async () => {
    const before = Date.now();
    const { webhook, arrivals } = await endpoint({ secret: 'plain-shared-secret-1234', headers: { 'X-Tenant': 'acme', Authorization: 'Bearer for-the-receiver' } });
    const eventId = await sendTest(webhook.id, 'hello receiver');
    const [arrival] = await waitUntil(() => arrivals.length && arrivals, 'the test event');
    const envelope = JSON.parse(arrival!.body);
    assert.deepEqual(Object.keys(envelope), ['id', 'event', 'timestamp', 'data']);
    assert.equal(envelope.id, eventId);
    assert.equal(envelope.event, 'test');
    assert.deepEqual(envelope.data, { message: 'hello receiver', endpointId: webhook.id });
    assert.match(envelope.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(Math.abs(Date.parse(envelope.timestamp) - before) < 5000);

    const h = headersOf(arrival!);
    assert.equal(h['content-type'], 'application/json');
    assert.equal(h['user-agent'], 'Service-Webhooks/1.0');
    assert.equal(h['x-tenant'], 'acme');
    assert.equal(h.authorization, 'Bearer for-the-receiver');
    assert.equal(h['webhook-id'], eventId);
    assert.ok(Math.abs(Number(h['webhook-timestamp']) - Date.now() / 1000) < 5, 'webhook-timestamp is the send time in unix seconds');
  });

  test('a plain secret: both signatures verify, and fail once one byte of the body changes', async () => {
    const secret = 'plain-shared-secret-5678';
    const { webhook, arrivals } = await endpoint({ secret });
    await sendTest(webhook.id);
    const [arrival] = await waitUntil(() => arrivals.length && arrivals, 'the test event');
    const h = headersOf(arrival!);
    assert.match(h['x-service-signature']!, /^sha256=[0-9a-f]{64}$/);
    assert.ok(serviceSignatureValid(secret, arrival!.body, h['x-service-signature']));
    // A non-whsec_ secret is used as its own bytes: the library's "raw" format.
    const standard = new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
    assert.deepEqual(standard.verify(arrival!.body, h), JSON.parse(arrival!.body));

    const tampered = flipOneByte(arrival!.body);
    assert.equal(serviceSignatureValid(secret, tampered, h['x-service-signature']), false);
    assert.throws(() => standard.verify(tampered, h), /No matching signature/);
    assert.equal(serviceSignatureValid('plain-shared-secret-5679', arrival!.body, h['x-service-signature']), false, 'another secret fails');
    assert.throws(() => standard.verify(arrival!.body, { ...h, 'webhook-id': flipOneByte(h['webhook-id']!) }), /No matching signature/, 'the id is signed');
  });

  test('a generated whsec_ secret verifies with the library’s default format; X-Service-Signature uses the whole string', async () => {
    const { webhook, arrivals } = await endpoint({ generateSecret: true });
    await sendTest(webhook.id);
    const [arrival] = await waitUntil(() => arrivals.length && arrivals, 'the test event');
    const h = headersOf(arrival!);
    assert.ok(serviceSignatureValid(webhook.secret, arrival!.body, h['x-service-signature']));
    const standard = new Webhook(webhook.secret);
    assert.equal((standard.verify(arrival!.body, h) as any).id, h['webhook-id']);
    assert.throws(() => standard.verify(flipOneByte(arrival!.body), h));
  });

  test('without a secret nothing is signed, but webhook-id and webhook-timestamp are sent', async () => {
    const { webhook, arrivals } = await endpoint({});
    const eventId = await sendTest(webhook.id);
    const [arrival] = await waitUntil(() => arrivals.length && arrivals, 'the test event');
    const h = headersOf(arrival!);
    assert.equal(h['x-service-signature'], undefined);
    assert.equal(h['webhook-signature'], undefined);
    assert.equal(h['webhook-id'], eventId);
    assert.match(h['webhook-timestamp']!, /^\d{10}$/);
  });

  test('the delivery log shows the attempt: status, latency, event, response body', async () => {
    const { webhook, arrivals } = await endpoint({}, org, (_req, res) => res.writeHead(202, { 'content-type': 'text/plain' }).end('queued on our side'));
    const eventId = await sendTest(webhook.id);
    await waitUntil(() => arrivals.length, 'the test event');
    const [logged] = await waitUntil(async () => {
      const rows = await stack.attempts(org, webhook.id);
      return rows.length && rows[0].finishedAt && rows;
    }, 'the attempt on record');
    assert.equal(logged.eventId, eventId);
    assert.equal(logged.event, 'test');
    assert.equal(logged.attempt, 1);
    assert.equal(logged.statusCode, 202);
    assert.equal(logged.responseBody, 'queued on our side');
    assert.equal(logged.succeeded, true);
    assert.equal(logged.errorKind, null);
    assert.equal(logged.deliveryState, 'delivered');
    assert.ok(logged.latencyMs >= 0 && logged.latencyMs < 5000);
    assert.equal(logged.redelivery, false);
  });
});

describe('fan-out', () => {
  test('an event reaches every enabled webhook of its org subscribed to its type, and no other', async () => {
    const other = await stack.server.createOrg();
    const a = await endpoint({ events: ['post.published'] });
    const b = await endpoint({ events: ['post.published', 'post.error'] });
    const c = await endpoint({ events: ['account.token_expired'] });
    const disabled = await endpoint({ events: ['post.published', 'post.error'], enabled: false });
    const foreign = await endpoint({ events: ['post.published', 'post.error'] }, other);

    const published = await emitEvent(stack.server.db, org.orgId, 'post.published', { postId: 'p1', orgId: 'o1', socialAccounts: [] });
    const failed = await emitEvent(stack.server.db, org.orgId, 'post.error', { postId: 'p2', orgId: 'o1', socialAccounts: [] });
    await waitUntil(() => a.arrivals.length >= 1 && b.arrivals.length >= 2, 'the subscribed webhooks');
    await sleep(500); // a misrouted event would have arrived by now: it would be a first attempt, sent at once

    const ids = (arrivals: Arrival[]) => arrivals.map((x) => JSON.parse(x.body).id).sort();
    assert.deepEqual(ids(a.arrivals), [published]);
    assert.deepEqual(ids(b.arrivals), [published, failed].sort());
    assert.deepEqual(c.arrivals, []);
    assert.deepEqual(disabled.arrivals, [], 'a disabled webhook receives nothing');
    assert.deepEqual(foreign.arrivals, [], 'another org never receives this org’s events');
    assert.deepEqual(JSON.parse(a.arrivals[0]!.body).data, { postId: 'p1', orgId: 'o1', socialAccounts: [] });
  });

  test('events of another org never reach this org’s webhooks', async () => {
    const other = await stack.server.createOrg();
    const mine = await endpoint({ events: ['post.published'] });
    const theirs = await endpoint({ events: ['post.published'] }, other);
    const id = await emitEvent(stack.server.db, other.orgId, 'post.published', { postId: 'theirs', orgId: 'x', socialAccounts: [] });
    await waitUntil(() => theirs.arrivals.length, 'their webhook');
    await sleep(300);
    assert.equal(JSON.parse(theirs.arrivals[0]!.body).id, id);
    assert.deepEqual(mine.arrivals, []);
  });

  test('a webhook created after an event does not receive it', async () => {
    const id = await emitEvent(stack.server.db, org.orgId, 'post.published', { postId: 'early', orgId: 'o', socialAccounts: [] });
    const late = await endpoint({ events: ['post.published'] });
    await sleep(400);
    assert.ok(late.arrivals.every((x) => JSON.parse(x.body).id !== id));
  });

  test('an event emitted in a transaction that rolls back is never delivered', async () => {
    const hook = await endpoint({ events: ['post.error'] });
    const client = await stack.server.db.connect();
    try {
      await client.query('BEGIN');
      await emitEvent(client, org.orgId, 'post.error', { postId: 'rolled-back', orgId: 'o', socialAccounts: [] });
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    const kept = await emitEvent(stack.server.db, org.orgId, 'post.error', { postId: 'kept', orgId: 'o', socialAccounts: [] });
    await waitUntil(() => hook.arrivals.length, 'the committed event');
    await sleep(300);
    assert.deepEqual(hook.arrivals.map((x) => JSON.parse(x.body).id), [kept]);
  });
});

describe('disabling and redelivering', () => {
  test('disabling a webhook drops its scheduled retries: nothing more arrives', async () => {
    let disabledAt = 0;
    const { webhook, arrivals } = await endpoint({}, org, async (_req, res) => {
      if (!disabledAt) {
        const patch = await stack.server.request('PATCH', `/v1/webhooks/${webhook.id}`, { key: org.key, body: { enabled: false } });
        assert.equal(patch.status, 200);
        disabledAt = Date.now();
      }
      res.writeHead(500).end('down');
    });
    await emitEvent(stack.server.db, org.orgId, 'post.published', { postId: 'p', orgId: 'o', socialAccounts: [] });
    await waitUntil(() => disabledAt, 'the first attempt');
    await sleep(schedule.retryDelayMs(1, 1) + 500); // past the first retry's time
    assert.equal(arrivals.length, 1);
    const [logged] = await stack.attempts(org, webhook.id);
    assert.equal(logged.deliveryState, 'cancelled');
    assert.equal(logged.statusCode, 500, 'the attempt in flight is still on record');
    const test = await stack.server.request('POST', `/v1/webhooks/${webhook.id}/test`, { key: org.key });
    assert.equal(test.status, 409, 'the Test action refuses a disabled webhook');
    const redeliver = await stack.server.request('POST', `/v1/webhooks/deliveries/${logged.id}/redeliver`, { key: org.key });
    assert.equal(redeliver.status, 409);
    await sleep(300);
    assert.equal(arrivals.length, 1);
  });

  test('events that occur while a webhook is disabled are not delivered when it is enabled again', async () => {
    const { webhook, arrivals } = await endpoint({ enabled: false });
    await emitEvent(stack.server.db, org.orgId, 'post.published', { postId: 'while-off', orgId: 'o', socialAccounts: [] });
    await sleep(300);
    const enable = await stack.server.request('PATCH', `/v1/webhooks/${webhook.id}`, { key: org.key, body: { enabled: true } });
    assert.equal(enable.status, 200);
    const after = await emitEvent(stack.server.db, org.orgId, 'post.published', { postId: 'while-on', orgId: 'o', socialAccounts: [] });
    await waitUntil(() => arrivals.length, 'the event after re-enabling');
    await sleep(400);
    assert.deepEqual(arrivals.map((x) => JSON.parse(x.body).id), [after]);
  });

  test('redelivery sends the same event id and body again and appends an attempt to the log', async () => {
    const secret = 'redelivery-secret-0001';
    const { webhook, arrivals } = await endpoint({ secret });
    const eventId = await emitEvent(stack.server.db, org.orgId, 'post.published', { postId: 'again', orgId: 'o', socialAccounts: [] });
    await waitUntil(() => arrivals.length, 'the first delivery');
    const [first] = await waitUntil(async () => {
      const rows = await stack.attempts(org, webhook.id);
      return rows[0]?.finishedAt && rows;
    }, 'the first attempt on record');

    const intruder = await stack.server.createOrg();
    const stolen = await stack.server.request('POST', `/v1/webhooks/deliveries/${first.id}/redeliver`, { key: intruder.key });
    const missing = await stack.server.request('POST', `/v1/webhooks/deliveries/${first.id + 100_000}/redeliver`, { key: intruder.key });
    assert.equal(stolen.status, 404, 'another org cannot redeliver it');
    assert.deepEqual(stolen.body, missing.body);

    const res = await stack.server.request('POST', `/v1/webhooks/deliveries/${first.id}/redeliver`, { key: org.key });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, { eventId, webhookId: webhook.id });
    await waitUntil(() => arrivals.length === 2, 'the redelivery');
    assert.equal(arrivals[1]!.body, arrivals[0]!.body, 'the same envelope, byte for byte');
    assert.equal(arrivals[1]!.headers['webhook-id'], eventId);
    assert.ok(serviceSignatureValid(secret, arrivals[1]!.body, arrivals[1]!.headers['x-service-signature']));

    const rows = await waitUntil(async () => {
      const all = await stack.attempts(org, webhook.id);
      return all.length === 2 && all[0].finishedAt && all;
    }, 'the appended attempt');
    assert.deepEqual(rows.map((r: any) => [r.eventId, r.attempt, r.redelivery, r.succeeded]), [[eventId, 2, true, true], [eventId, 1, false, true]]);
    const filtered = await stack.attempts(org, webhook.id, `&eventId=${eventId}`);
    assert.equal(filtered.length, 2);
  });
});
