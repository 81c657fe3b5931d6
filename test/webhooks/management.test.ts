// The webhook management API as a client sees it: validation with per-field details, a secret that
// is never shown again, custom headers that cannot impersonate Crier's own, the SSRF guard at save
// time, and another organization's webhooks indistinguishable from missing ones.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { startWebhookStack, type WebhookStack } from '../helpers/webhooks.ts';

let stack: WebhookStack;
let org: TestOrg;
let url: string;

before(async () => {
  stack = await startWebhookStack();
  org = await stack.server.createOrg();
  url = `${stack.receiver.url}/hooks`;
});
after(() => stack.close());

const api = (method: string, path: string, body?: unknown, who: TestOrg = org) => stack.server.request(method, path, { key: who.key, body });
const valid = (extra: Record<string, unknown> = {}) => ({ name: 'orders', url, events: ['post.published'], ...extra });
const fields = (res: { body: any }) => (res.body.details ?? []).map((d: any) => d.field);

describe('creating and reading', () => {
  test('a webhook is created with its fields, enabled by default; the secret is reported as set, never shown', async () => {
    const res = await api('POST', '/v1/webhooks', valid({ secret: 'a-very-long-shared-secret', headers: { 'X-Tenant': 'acme' }, events: ['post.published', 'post.error', 'post.published'] }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const created = res.body.data;
    assert.equal(typeof created.id, 'number', 'ids are numbers, like the test event’s endpointId');
    assert.deepEqual(
      { name: created.name, url: created.url, events: created.events, headers: created.headers, enabled: created.enabled, hasSecret: created.hasSecret },
      { name: 'orders', url, events: ['post.published', 'post.error'], headers: { 'X-Tenant': 'acme' }, enabled: true, hasSecret: true },
    );
    const fetched = await api('GET', `/v1/webhooks/${created.id}`);
    const listed = await api('GET', '/v1/webhooks');
    for (const body of [res.body, fetched.body, listed.body]) {
      assert.doesNotMatch(JSON.stringify(body), /a-very-long-shared-secret/);
      assert.doesNotMatch(JSON.stringify(body), /"secret"/);
    }
    assert.deepEqual(fetched.body.data, created);
    assert.ok(listed.body.data.some((w: any) => w.id === created.id));
  });

  test('the secret and custom headers are encrypted at rest', async () => {
    const created = (await api('POST', '/v1/webhooks', valid({ secret: 'stored-encrypted-secret-value', headers: { Authorization: 'Bearer receiver-token' } }))).body.data;
    const { rows } = await stack.server.db.query('SELECT secret_enc, headers_enc FROM webhooks WHERE id = $1', [created.id]);
    assert.ok(rows[0].secret_enc && rows[0].headers_enc);
    assert.ok(!rows[0].secret_enc.includes('stored-encrypted-secret-value'));
    assert.ok(!rows[0].headers_enc.includes('receiver-token'));
  });

  test('generateSecret: Crier makes a whsec_ secret and shows it in that response only', async () => {
    const res = await api('POST', '/v1/webhooks', valid({ generateSecret: true }));
    assert.equal(res.status, 201);
    assert.match(res.body.data.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(res.body.data.hasSecret, true);
    const fetched = await api('GET', `/v1/webhooks/${res.body.data.id}`);
    assert.equal(fetched.body.data.secret, undefined);
    assert.equal(fetched.body.data.hasSecret, true);
  });

  test('without a secret the webhook is unsigned: hasSecret false', async () => {
    const res = await api('POST', '/v1/webhooks', valid());
    assert.equal(res.body.data.hasSecret, false);
    assert.equal(res.body.data.secret, undefined);
  });

  test('the list is paginated and counts every webhook of the org', async () => {
    const all = await api('GET', '/v1/webhooks?limit=100');
    const page = await api('GET', '/v1/webhooks?limit=2&offset=1');
    assert.equal(page.body.count, all.body.data.length);
    assert.deepEqual(page.body.data.map((w: any) => w.id), all.body.data.slice(1, 3).map((w: any) => w.id));
    assert.equal(page.body.limit, 2);
    assert.equal(page.body.offset, 1);
  });
});

describe('validation', () => {
  test('name, url and events are required, with details per field', async () => {
    const res = await api('POST', '/v1/webhooks', {});
    assert.equal(res.status, 400);
    assert.deepEqual(fields(res).sort(), ['events', 'name', 'url']);
  });

  test('events must be a non-empty list of the spec’s event types', async () => {
    const empty = await api('POST', '/v1/webhooks', valid({ events: [] }));
    assert.equal(empty.status, 400);
    assert.deepEqual(fields(empty), ['events']);
    const unknown = await api('POST', '/v1/webhooks', valid({ events: ['post.published', 'post.deleted'] }));
    assert.equal(unknown.status, 400);
    assert.deepEqual(fields(unknown), ['events[1]']);
    assert.match(unknown.body.details[0].message, /comment\.received/);
  });

  test('the URL must be HTTPS without credentials', async () => {
    for (const bad of ['http://127.0.0.1/hook', 'https://user:pass@127.0.0.1/hook', 'not a url']) {
      const res = await api('POST', '/v1/webhooks', valid({ url: bad }));
      assert.equal(res.status, 400, bad);
      assert.deepEqual(fields(res), ['url'], bad);
    }
  });

  test('private, link-local and metadata addresses are refused even with loopback allowed', async () => {
    for (const bad of ['https://10.0.0.7/hook', 'https://169.254.169.254/latest', 'https://[::ffff:192.168.1.1]/hook']) {
      const res = await api('POST', '/v1/webhooks', valid({ url: bad }));
      assert.equal(res.status, 400, bad);
      assert.deepEqual(fields(res), ['url'], bad);
      assert.match(res.body.details[0].message, /blocked_address/, bad);
    }
  });

  test('custom headers cannot override Content-Type, User-Agent, X-Service-Signature or webhook-*', async () => {
    for (const name of ['Content-Type', 'user-agent', 'X-Service-Signature', 'webhook-id', 'Webhook-Timestamp', 'webhook-signature', 'Content-Length', 'Host']) {
      const res = await api('POST', '/v1/webhooks', valid({ headers: { 'X-Fine': 'yes', [name]: 'mine' } }));
      assert.equal(res.status, 400, name);
      assert.deepEqual(fields(res), [`headers.${name}`], name);
      assert.ok(res.body.error.includes(`"${name}"`), `the message names ${name}: ${res.body.error}`);
    }
  });

  test('custom header values cannot smuggle a line break', async () => {
    const res = await api('POST', '/v1/webhooks', valid({ headers: { 'X-Evil': 'a\r\nX-Injected: 1' } }));
    assert.equal(res.status, 400);
    assert.deepEqual(fields(res), ['headers.X-Evil']);
  });

  test('a short secret, a malformed whsec_ secret, or secret with generateSecret is refused', async () => {
    for (const body of [{ secret: 'short' }, { secret: 'whsec_not base64!' }, { secret: 'whsec_AAAA' }, { secret: 'a-very-long-shared-secret', generateSecret: true }]) {
      const res = await api('POST', '/v1/webhooks', valid(body));
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(fields(res).length, 1, JSON.stringify(res.body));
    }
  });

  test('a misspelt field is refused rather than dropped (a webhook saved without its secret would be unsigned)', async () => {
    const res = await api('POST', '/v1/webhooks', valid({ secrett: 'a-very-long-shared-secret' }));
    assert.equal(res.status, 400);
    assert.deepEqual(fields(res), ['secrett']);
  });

  test('nothing is stored when validation fails', async () => {
    const before = (await api('GET', '/v1/webhooks')).body.count;
    await api('POST', '/v1/webhooks', valid({ url: 'https://10.1.2.3/' }));
    assert.equal((await api('GET', '/v1/webhooks')).body.count, before);
  });
});

describe('editing and deleting', () => {
  test('PATCH changes only the fields sent; secret null removes the secret; headers are replaced', async () => {
    const created = (await api('POST', '/v1/webhooks', valid({ secret: 'a-very-long-shared-secret', headers: { 'X-A': '1' } }))).body.data;
    const res = await api('PATCH', `/v1/webhooks/${created.id}`, { events: ['account.token_expired'], headers: { 'X-B': '2' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.events, ['account.token_expired']);
    assert.deepEqual(res.body.data.headers, { 'X-B': '2' });
    assert.equal(res.body.data.name, 'orders');
    assert.equal(res.body.data.hasSecret, true);
    const unsigned = await api('PATCH', `/v1/webhooks/${created.id}`, { secret: null, enabled: false });
    assert.equal(unsigned.body.data.hasSecret, false);
    assert.equal(unsigned.body.data.enabled, false);
    const rotated = await api('PATCH', `/v1/webhooks/${created.id}`, { generateSecret: true });
    assert.match(rotated.body.data.secret, /^whsec_/);
    assert.equal((await api('GET', `/v1/webhooks/${created.id}`)).body.data.secret, undefined);
  });

  test('PATCH validates like POST: URL guard and header rules', async () => {
    const created = (await api('POST', '/v1/webhooks', valid())).body.data;
    const badUrl = await api('PATCH', `/v1/webhooks/${created.id}`, { url: 'https://169.254.169.254/' });
    assert.equal(badUrl.status, 400);
    assert.deepEqual(fields(badUrl), ['url']);
    const badHeader = await api('PATCH', `/v1/webhooks/${created.id}`, { headers: { 'User-Agent': 'me' } });
    assert.equal(badHeader.status, 400);
    assert.deepEqual(fields(badHeader), ['headers.User-Agent']);
    const empty = await api('PATCH', `/v1/webhooks/${created.id}`, { events: [] });
    assert.equal(empty.status, 400);
    assert.equal((await api('GET', `/v1/webhooks/${created.id}`)).body.data.url, url, 'unchanged');
  });

  test('DELETE removes the webhook: it is then a 404 everywhere', async () => {
    const created = (await api('POST', '/v1/webhooks', valid())).body.data;
    assert.equal((await api('DELETE', `/v1/webhooks/${created.id}`)).status, 200);
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/test'], ['GET', '/deliveries']] as const) {
      const res = await api(method, `/v1/webhooks/${created.id}${path}`, method === 'PATCH' ? { name: 'x' } : undefined);
      assert.equal(res.status, 404, `${method} ${path}`);
    }
  });
});

describe('isolation between organizations', () => {
  test("another org's webhook id answers exactly like a missing one, on every route", async () => {
    const intruder = await stack.server.createOrg();
    const created = (await api('POST', '/v1/webhooks', valid())).body.data;
    const test = await api('POST', `/v1/webhooks/${created.id}/test`);
    assert.equal(test.status, 202);
    await stack.server.db.query("UPDATE webhook_deliveries SET state = 'cancelled' WHERE webhook_id = $1", [created.id]); // no deliverer here
    const missingId = created.id + 100_000;
    const routes: [string, string, unknown?][] = [
      ['GET', '/v1/webhooks/:id'],
      ['PATCH', '/v1/webhooks/:id', { name: 'stolen' }],
      ['DELETE', '/v1/webhooks/:id'],
      ['POST', '/v1/webhooks/:id/test'],
      ['GET', '/v1/webhooks/:id/deliveries'],
    ];
    for (const [method, path, body] of routes) {
      const theirs = await api(method, path.replace(':id', String(created.id)), body, intruder);
      const missing = await api(method, path.replace(':id', String(missingId)), body, intruder);
      assert.equal(theirs.status, 404, `${method} ${path}`);
      assert.deepEqual(theirs.body, missing.body, `${method} ${path}`);
    }
    assert.deepEqual((await api('GET', '/v1/webhooks', undefined, intruder)).body.data, []);
    assert.equal((await api('GET', `/v1/webhooks/${created.id}`)).body.data.name, 'orders', 'the owner’s webhook is untouched');
  });
});

describe('the SSRF guard at save time', () => {
  let guarded: TestServer;
  before(async () => {
    guarded = await startTestServer(); // CRIER_ALLOW_LOOPBACK_FETCH unset, as in production
  });
  after(() => guarded.close());

  test('https://127.0.0.1 and https://localhost are refused when the loopback switch is off', async () => {
    const owner = await guarded.createOrg();
    for (const target of ['https://127.0.0.1/hook', `https://localhost:${stack.receiver.port}/hook`, 'https://[::1]/hook', 'https://2130706433/hook']) {
      const res = await guarded.request('POST', '/v1/webhooks', { key: owner.key, body: { name: 'n', url: target, events: ['test'] } });
      assert.equal(res.status, 400, target);
      assert.deepEqual(fields(res), ['url'], target);
      assert.match(res.body.details[0].message, /blocked_address/, target);
    }
    assert.equal(stack.receiver.connections, 0, 'saving a URL never connects to it');
  });
  test("outside the sandbox there is no built-in inbox: its URL is refused like any http URL, and it lists nothing", async () => {
    const owner = await guarded.createOrg();
    const inbox = `${guarded.config.publicBaseUrl}/sandbox/webhook-inbox`;
    const res = await guarded.request('POST', '/v1/webhooks', { key: owner.key, body: { name: 'inbox', url: inbox, events: ['test'] } });
    assert.equal(res.status, 400);
    assert.match(res.body.details[0].message, /not_https/);
    assert.equal((await guarded.request('GET', '/v1/sandbox/webhook-inbox', { key: owner.key })).status, 404);
    assert.equal((await guarded.request('POST', '/sandbox/webhook-inbox', { body: {} })).status, 404);
  });
});
