// GET /v1/events over real HTTP against a started Crier: a publishing run's webhook deliveries and
// the feed name the same events one for one (same id, type, timestamp and data); the cursor pages
// through every event once, even when transactions commit out of order; types and limit filter;
// bad query fields are each named; another organization's events never appear.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { emitEvent } from '../../src/webhooks/outbox.ts';
import { purgeExpiredEvents } from '../../src/webhooks/retention.ts';
import { startWebhookDeliverer, type WebhookDeliverer } from '../../src/webhooks/worker.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startHttpsServer, type TestHttpsServer } from '../helpers/https-server.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import { TIME_SCALE, waitUntil } from '../helpers/webhooks.ts';

let stack: PublishingStack;
let receiver: TestHttpsServer;
let deliverer: WebhookDeliverer;
const arrivals: { headers: Record<string, unknown>; body: any }[] = [];

before(async () => {
  // The receiver's certificate is the media server's (one per test process), so the stack's CA file covers it.
  stack = await startPublishingStack({ CRIER_WEBHOOK_TIME_SCALE: String(TIME_SCALE) });
  receiver = await startHttpsServer();
  receiver.route('/crier', (req, res, body) => {
    arrivals.push({ headers: req.headers, body: JSON.parse(body.toString('utf8')) });
    res.writeHead(200).end();
  });
  deliverer = await startWebhookDeliverer(stack.server.config, { db: stack.server.db, box: stack.server.box, logger: createLogger('silent') });
});
after(async () => {
  await deliverer.stop();
  await stack.close();
  await receiver.close();
});

const feed = (org: TestOrg, query = '') => stack.server.request('GET', `/v1/events${query}`, { key: org.key });

/** Every event after `cursor`, following `next` page by page as a client would. */
async function readAll(org: TestOrg, query = '', cursor: string | null = null): Promise<{ events: any[]; next: string | null }> {
  const events: any[] = [];
  for (;;) {
    const res = await feed(org, `?limit=2${query}${cursor ? `&after=${cursor}` : ''}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    events.push(...res.body.data);
    cursor = res.body.next;
    if (!res.body.hasMore) return { events, next: cursor };
  }
}

const withoutCursor = ({ cursor: _cursor, ...event }: any) => event;

async function webhookFor(org: TestOrg, events: string[]): Promise<number> {
  const res = await stack.server.request('POST', '/v1/webhooks', { key: org.key, body: { name: 'app', url: `${receiver.url}/crier`, events } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.id;
}

describe('GET /v1/events', () => {
  test("a publishing run's deliveries and the feed name the same events, one for one", async () => {
    const org = await stack.server.createOrg();
    const webhookId = await webhookFor(org, ['post.published', 'post.error', 'test']);
    const xa = await stack.addXAccount(org);
    const published = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [xa.id], content: 'to the feed' } });
    const ba = await stack.addBlueskyAccount(org);
    // Over Bluesky's 300 graphemes: accepted, then refused by the network (post.error).
    const failing = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [ba.id], content: 'é'.repeat(301) } });
    await stack.waitForPost(org, published.body.post.id);
    await stack.waitForPost(org, failing.body.post.id);
    assert.equal((await stack.server.request('POST', `/v1/webhooks/${webhookId}/test`, { key: org.key })).status, 202);

    const ours = () => arrivals.filter((a) => a.body.data.orgId === published.body.post.orgId || a.body.data.endpointId === webhookId);
    await waitUntil(() => ours().length === 3, 'three deliveries');
    const { events } = await readAll(org);
    assert.deepEqual(events.map((e) => e.event).sort(), ['post.error', 'post.published', 'test']);
    assert.deepEqual(
      [...ours()].map((a) => a.body).sort((a, b) => a.id.localeCompare(b.id)),
      events.map(withoutCursor).sort((a, b) => a.id.localeCompare(b.id)),
      'each delivery body is the feed event, id, type, timestamp and data alike',
    );
    for (const arrival of ours()) assert.equal(arrival.headers['webhook-id'], arrival.body.id, 'the webhook-id header names the event');
    const logged = (await stack.server.request('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`, { key: org.key })).body.data;
    assert.deepEqual(logged.map((a: any) => a.eventId).sort(), events.map((e) => e.id).sort(), 'the delivery log names the same event ids');
  });

  test('the cursor pages oldest first and never repeats or skips an event; types filter', async () => {
    const org = await stack.server.createOrg();
    for (let i = 0; i < 5; i += 1) await emitEvent(stack.server.db, org.orgId, i % 2 ? 'test' : 'import.completed', { n: i });
    const { events, next } = await readAll(org);
    assert.deepEqual(events.map((e) => e.data.n), [0, 1, 2, 3, 4]);
    for (let i = 1; i < events.length; i += 1) assert.ok(events[i].timestamp >= events[i - 1].timestamp);

    const empty = await feed(org, `?after=${next}`);
    assert.deepEqual({ data: empty.body.data, next: empty.body.next, hasMore: empty.body.hasMore }, { data: [], next, hasMore: false }, 'at the end: nothing new, the same cursor');
    await emitEvent(stack.server.db, org.orgId, 'test', { n: 5 });
    assert.deepEqual((await feed(org, `?after=${next}`)).body.data.map((e: any) => e.data.n), [5], 'only what came after');

    const tests = await feed(org, '?types=test,post.error');
    assert.deepEqual(tests.body.data.map((e: any) => e.data.n), [1, 3, 5]);
    const fromMiddle = await feed(org, `?after=${events[2].cursor}&types=import.completed`);
    assert.deepEqual(fromMiddle.body.data.map((e: any) => e.data.n), [4]);
    assert.equal((await feed(org)).body.data.length, 6, 'the default limit (20) takes them all');
  });

  test('an event committed after a later one is still read: the feed waits for the older transaction', async () => {
    const org = await stack.server.createOrg();
    await emitEvent(stack.server.db, org.orgId, 'test', { n: 'before' });
    const seen: any[] = [];
    let cursor: string | null = null;
    const poll = async () => {
      const res = await feed(org, cursor ? `?after=${cursor}` : '');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      seen.push(...res.body.data);
      cursor = res.body.next;
    };
    await poll();

    const slow = await stack.server.db.connect();
    try {
      await slow.query('BEGIN');
      await emitEvent(slow, org.orgId, 'test', { n: 'slow' }); // written first, committed last
      await emitEvent(stack.server.db, org.orgId, 'test', { n: 'fast' });
      await poll();
      assert.deepEqual(seen.map((e) => e.data.n), ['before'], 'the committed later event waits while an older transaction is open');
      await slow.query('COMMIT');
    } finally {
      slow.release();
    }
    await poll();
    assert.deepEqual(seen.map((e) => e.data.n), ['before', 'slow', 'fast'], 'each event once, none skipped');
  });

  test("another organization's events never appear", async () => {
    const mine = await stack.server.createOrg();
    const theirs = await stack.server.createOrg();
    await emitEvent(stack.server.db, theirs.orgId, 'test', { n: 'theirs' });
    await emitEvent(stack.server.db, mine.orgId, 'test', { n: 'mine' });
    const { events } = await readAll(mine);
    assert.deepEqual(events.map((e) => e.data.n), ['mine']);
    const theirCursor = (await readAll(theirs)).events[0].cursor;
    const afterTheirs = (await feed(mine, `?after=${theirCursor}`)).body.data;
    assert.deepEqual(afterTheirs.map((e: any) => e.data.n), ['mine'], "another org's cursor only positions: it reveals nothing of theirs");
  });

  test('a bad cursor, types or limit is a 400 naming each field', async () => {
    const org = await stack.server.createOrg();
    const res = await feed(org, '?after=not-a-cursor!&types=post.published,nope&limit=0');
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_error');
    assert.deepEqual(res.body.details.map((d: any) => d.field), ['after', 'types', 'limit']);
    assert.match(res.body.details[1].message, /"nope"/);
    for (const query of ['?limit=101', '?limit=abc', '?types=', '?limit=2&limit=3', `?after=${Buffer.from('1.x').toString('base64url')}`]) {
      const bad = await feed(org, query);
      assert.equal(bad.status, 400, `${query}: ${JSON.stringify(bad.body)}`);
      assert.equal(bad.body.details.length, 1);
    }
  });

  test('an event leaves the feed when the delivery log\'s retention deletes it', async () => {
    const org = await stack.server.createOrg();
    const old = await emitEvent(stack.server.db, org.orgId, 'test', { n: 'old' });
    await emitEvent(stack.server.db, org.orgId, 'test', { n: 'recent' });
    await stack.server.db.query(`UPDATE events SET created_at = now() - interval '31 days' WHERE id = $1`, [old]);
    await purgeExpiredEvents(stack.server.db, 30);
    assert.deepEqual((await readAll(org)).events.map((e) => e.data.n), ['recent']);
  });

  test('authenticated and rate limited like every /v1 route, and described in /openapi.json', async () => {
    assert.equal((await stack.server.request('GET', '/v1/events')).status, 401);
    const counted = await feed(await stack.server.createOrg());
    assert.ok(Number(counted.headers.get('x-ratelimit-remaining')) >= 0 && counted.headers.get('x-ratelimit-limit'), 'the rate limit counts it');
    const spec = (await stack.server.request('GET', '/openapi.json')).body;
    const operation = spec.paths['/v1/events'].get;
    assert.equal(operation.operationId, 'listEvents');
    assert.deepEqual(operation.parameters.map((p: any) => p.name).sort(), ['after', 'limit', 'types']);
  });
});
