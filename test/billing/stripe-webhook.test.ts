// Stripe subscription webhooks drive the 402 gate: each signed event closes or reopens every /v1
// endpoint; a bad signature changes nothing.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import Stripe from 'stripe';
import { encodeId } from '../../src/core/ids.ts';
import { startTestServer, type ApiResponse, type TestOrg, type TestServer } from '../helpers/harness.ts';

const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const BILLING_URL = 'https://billing.crier.example/portal';
const stripe = new Stripe('sk_test_crier');

let server: TestServer;
let org: TestOrg;
let eventCounter = 0;

before(async () => {
  server = await startTestServer({ STRIPE_SECRET_KEY: 'sk_test_crier', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, CRIER_BILLING_URL: BILLING_URL });
  org = await server.createOrg();
  await server.addAccount(org, 'x', 'billing_x');
});
after(() => server.close());

interface Subscription {
  id: string;
  customer: string;
  status: string;
  metadata?: Record<string, string>;
}

/** A Stripe event as Stripe sends it; `created` (seconds) defaults to now. */
function event(type: string, subscription: Subscription, created = Math.floor(Date.now() / 1000)): string {
  eventCounter += 1;
  return JSON.stringify({
    id: `evt_test_${eventCounter}`,
    object: 'event',
    api_version: '2025-01-01',
    created,
    livemode: false,
    type,
    data: { object: { object: 'subscription', metadata: {}, ...subscription } },
  });
}

function send(payload: string, signature: string | undefined = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })): Promise<ApiResponse> {
  return server.request('POST', '/billing/stripe/webhook', { rawBody: payload, headers: { 'content-type': 'application/json; charset=utf-8', ...(signature ? { 'stripe-signature': signature } : {}) } });
}

async function status(orgId: number): Promise<string> {
  const { rows } = await server.db.query<{ subscription_status: string }>('SELECT subscription_status FROM orgs WHERE id = $1', [orgId]);
  return rows[0]!.subscription_status;
}

const ENDPOINTS: [string, string, unknown?][] = [
  ['GET', '/v1/posts'],
  ['POST', '/v1/posts', { accounts: ['billing_x'], content: 'paid' }],
  ['GET', '/v1/social-accounts'],
  ['GET', '/v1/api-keys'],
  ['POST', '/v1/api-keys', { name: 'while paying' }],
];

async function assertOpen(key: string, open: boolean): Promise<void> {
  for (const [method, path, body] of ENDPOINTS) {
    const res = await server.request(method, path, { key, body });
    if (open) {
      assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    } else {
      assert.equal(res.status, 402, `${method} ${path}`);
      assert.equal(res.body.code, 'subscription_inactive');
      assert.equal(res.body.billingUrl, BILLING_URL);
    }
  }
}

describe('subscription events', () => {
  test('active -> past_due -> active: each signed event closes or reopens every endpoint', async () => {
    const customer = `cus_${randomBytes(4).toString('hex')}`;
    const subscription = { id: `sub_${randomBytes(4).toString('hex')}`, customer };
    // The first event names the org in metadata; it links the customer, so later events need not.
    const created = await send(event('customer.subscription.created', { ...subscription, status: 'active', metadata: { crier_org_id: encodeId(org.orgId) } }));
    assert.deepEqual([created.status, created.body], [200, { received: true, applied: true }]);
    await assertOpen(org.key, true);

    const pastDue = await send(event('customer.subscription.updated', { ...subscription, status: 'past_due' }));
    assert.deepEqual([pastDue.status, pastDue.body.applied], [200, true]);
    assert.equal(await status(org.orgId), 'past_due');
    await assertOpen(org.key, false);

    const paid = await send(event('customer.subscription.updated', { ...subscription, status: 'active' }));
    assert.deepEqual([paid.status, paid.body.applied], [200, true]);
    await assertOpen(org.key, true);
    const { rows } = await server.db.query('SELECT stripe_customer_id, stripe_subscription_id FROM orgs WHERE id = $1', [org.orgId]);
    assert.deepEqual(rows[0], { stripe_customer_id: customer, stripe_subscription_id: subscription.id });
  });

  test("Stripe's statuses map onto the API's six; a deleted subscription is canceled", async () => {
    const other = await server.createOrg();
    const customer = `cus_${randomBytes(4).toString('hex')}`;
    const subscription = { id: `sub_${randomBytes(4).toString('hex')}`, customer, metadata: { crier_org_id: String(other.orgId) } };
    const cases: [string, string, string][] = [
      ['customer.subscription.created', 'trialing', 'trialing'],
      ['customer.subscription.updated', 'incomplete', 'incomplete'],
      ['customer.subscription.updated', 'unpaid', 'unpaid'],
      ['customer.subscription.updated', 'paused', 'unpaid'],
      ['customer.subscription.updated', 'incomplete_expired', 'canceled'],
      ['customer.subscription.updated', 'active', 'active'],
      ['customer.subscription.deleted', 'active', 'canceled'],
    ];
    for (const [type, stripeStatus, expected] of cases) {
      const res = await send(event(type, { ...subscription, status: stripeStatus }));
      assert.equal(res.status, 200);
      assert.equal(await status(other.orgId), expected, `${type} ${stripeStatus}`);
    }
    assert.equal((await server.request('GET', '/v1/posts', { key: other.key })).status, 402);
  });

  test('an event older than the last one applied changes nothing (Stripe does not deliver in order)', async () => {
    const other = await server.createOrg();
    const subscription = { id: `sub_${randomBytes(4).toString('hex')}`, customer: `cus_${randomBytes(4).toString('hex')}`, metadata: { crier_org_id: encodeId(other.orgId) } };
    const now = Math.floor(Date.now() / 1000);
    await send(event('customer.subscription.updated', { ...subscription, status: 'active' }, now));
    const late = await send(event('customer.subscription.updated', { ...subscription, status: 'past_due' }, now - 60));
    assert.deepEqual([late.status, late.body.applied], [200, false]);
    assert.equal(await status(other.orgId), 'active');
  });

  test("after a plan change, the old subscription's deletion does not lock the org out", async () => {
    const other = await server.createOrg();
    const customer = `cus_${randomBytes(4).toString('hex')}`;
    const metadata = { crier_org_id: encodeId(other.orgId) };
    await send(event('customer.subscription.created', { id: 'sub_old_plan', customer, status: 'active', metadata }));
    await send(event('customer.subscription.created', { id: 'sub_new_plan', customer, status: 'active', metadata }));
    const res = await send(event('customer.subscription.deleted', { id: 'sub_old_plan', customer, status: 'canceled', metadata }));
    assert.equal(res.body.applied, false);
    assert.equal(await status(other.orgId), 'active');
    assert.equal((await server.request('GET', '/v1/posts', { key: other.key })).status, 200);
  });

  test('events for an unknown customer, and other event types, are acknowledged and change nothing', async () => {
    const before = (await server.db.query('SELECT id, subscription_status FROM orgs ORDER BY id')).rows;
    const stranger = await send(event('customer.subscription.updated', { id: 'sub_stranger', customer: 'cus_nobody', status: 'canceled' }));
    assert.deepEqual([stranger.status, stranger.body], [200, { received: true, applied: false }]);
    const invoice = JSON.stringify({ id: 'evt_invoice', object: 'event', created: Math.floor(Date.now() / 1000), type: 'invoice.paid', data: { object: { object: 'invoice' } } });
    assert.deepEqual((await send(invoice)).body, { received: true, applied: false });
    assert.deepEqual((await server.db.query('SELECT id, subscription_status FROM orgs ORDER BY id')).rows, before);
  });
});

describe('signatures', () => {
  test('a bad, missing, stale or mismatched signature is a 400 and changes nothing', async () => {
    const victim = await server.createOrg();
    const payload = event('customer.subscription.updated', { id: 'sub_forged', customer: 'cus_forged', status: 'canceled', metadata: { crier_org_id: encodeId(victim.orgId) } });
    const signatures: [string, string | undefined][] = [
      ['wrong secret', stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_ours' })],
      ['signed for another body', stripe.webhooks.generateTestHeaderString({ payload: payload.replace('canceled', 'active'), secret: WEBHOOK_SECRET })],
      ['ten minutes old (replay)', stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 600 })],
      ['garbage', 'not-a-signature'],
      ['missing', undefined],
    ];
    for (const [label, signature] of signatures) {
      const res = signature === undefined
        ? await server.request('POST', '/billing/stripe/webhook', { rawBody: payload, headers: { 'content-type': 'application/json' } })
        : await send(payload, signature);
      assert.equal(res.status, 400, label);
      assert.equal(res.body.success, false, label);
      assert.equal(res.body.code, 'invalid_signature', label);
    }
    assert.equal(await status(victim.orgId), 'active');
    const { rows } = await server.db.query('SELECT stripe_customer_id FROM orgs WHERE id = $1', [victim.orgId]);
    assert.equal(rows[0].stripe_customer_id, null);
    assert.equal((await server.request('GET', '/v1/posts', { key: victim.key })).status, 200);
  });

  test('the body is verified byte for byte: the same event re-serialised with other spacing is refused', async () => {
    const victim = await server.createOrg();
    const payload = event('customer.subscription.updated', { id: 'sub_spacing', customer: 'cus_spacing', status: 'canceled', metadata: { crier_org_id: encodeId(victim.orgId) } });
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const respaced = JSON.stringify(JSON.parse(payload), null, 2);
    assert.equal((await send(respaced, signature)).status, 400);
    assert.equal(await status(victim.orgId), 'active');
    assert.equal((await send(payload, signature)).status, 200, 'the exact bytes pass');
    assert.equal(await status(victim.orgId), 'canceled');
  });
});

test('without Stripe configured the endpoint is a 404 and nothing changes', async () => {
  const plain = await startTestServer();
  try {
    const target = await plain.createOrg();
    const payload = event('customer.subscription.updated', { id: 'sub_x', customer: 'cus_x', status: 'canceled', metadata: { crier_org_id: String(target.orgId) } });
    const res = await plain.request('POST', '/billing/stripe/webhook', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) } });
    assert.equal(res.status, 404);
    assert.equal(res.body.success, false);
    assert.equal((await plain.request('GET', '/v1/posts', { key: target.key })).status, 200);
  } finally {
    await plain.close();
  }
});
