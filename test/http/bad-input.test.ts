// Input that no route can store or safely walk is a 400 naming the field on every route, never a
// 500, and stores nothing: NUL characters, unpaired UTF-16 surrogates, numbers beyond double range
// and bodies nested thousands of levels deep, in bodies, query strings, path parameters and keys.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { countRows, startTestServer, type ApiResponse, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let webhookId: number;

const TABLES = ['posts', 'idempotency_keys', 'webhooks', 'events', 'api_keys', 'social_networks', 'oauth_states'];

before(async () => {
  server = await startTestServer({ CRIER_ALLOW_LOOPBACK_FETCH: 'true' });
  org = await server.createOrg();
  await server.addAccount(org, 'x', 'bad_x');
  await server.addAccount(org, 'threads', 'bad_threads');
  await server.addAccount(org, 'tiktok', 'bad_tiktok');
  const webhook = await server.request('POST', '/v1/webhooks', { key: org.key, body: { name: 'hook', url: 'https://127.0.0.1:9/in', events: ['post.published'] } });
  assert.equal(webhook.status, 201, JSON.stringify(webhook.body));
  webhookId = webhook.body.data.id;
  const app = await server.request('POST', '/v1/social-networks', { key: org.key, body: { network: 'linkedin', client_key: 'ck', client_secret: 'cs' } });
  assert.ok(app.status < 300, JSON.stringify(app.body));
});
after(() => server.close());

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = await countRows(server.db, table, org.orgId);
  return counts;
}

/** Sends the request and checks the answer: 400, the envelope, `field` named with a message matching `message`, nothing stored. */
async function refused(send: () => Promise<ApiResponse>, field: string, message: RegExp): Promise<void> {
  const before = await rowCounts();
  const res = await send();
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.success, false);
  assert.equal(res.body.code, 'validation_error');
  assert.ok(
    res.body.details.some((d: { field: string; message: string }) => d.field === field && message.test(d.message)),
    `no detail on ${field} matching ${message}: ${JSON.stringify(res.body.details)}`,
  );
  assert.deepEqual(await rowCounts(), before, 'a refused request stored something');
}

const NUL = /NUL character/;
const SURROGATE = /unpaired UTF-16 surrogate/;
const post = (body: unknown, headers: Record<string, string> = {}) => () => server.request('POST', '/v1/posts', { key: org.key, body, headers });
const get = (path: string) => () => server.request('GET', path, { key: org.key });

describe('a NUL character anywhere is a 400 naming the field', () => {
  test('in a post: content, a container, a block, an accounts entry, a key', async () => {
    await refused(post({ accounts: ['bad_x'], content: 'a\u0000b' }), 'content', NUL);
    await refused(post({ accounts: ['bad_x'], containers: [{ content: 'fine' }, { content: 'x\u0000' }] }), 'containers[1].content', NUL);
    await refused(post({ accounts: ['bad_threads'], content: 'root', threads: { content: 'over\u0000ride' } }), 'threads.content', NUL);
    await refused(post({ accounts: ['bad_x', 'bad\u0000x'], content: 'hi' }), 'accounts[1]', NUL);
    await refused(post({ accounts: ['bad_x'], content: 'hi', 'odd\u0000key': 1 }), 'odd\u0000key', /has a name that contains a NUL character/);
  });

  test('in the names of a webhook and an API key, an app client_key, a redirect_uri, a test message', async () => {
    await refused(() => server.request('POST', '/v1/webhooks', { key: org.key, body: { name: 'h\u0000', url: 'https://127.0.0.1:9/x', events: ['post.published'] } }), 'name', NUL);
    await refused(() => server.request('PATCH', `/v1/webhooks/${webhookId}`, { key: org.key, body: { name: 'h\u0000' } }), 'name', NUL);
    await refused(() => server.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'ci\u0000' } }), 'name', NUL);
    await refused(() => server.request('POST', '/v1/social-networks', { key: org.key, body: { network: 'linkedin', client_key: 'k\u0000', client_secret: 's' } }), 'client_key', NUL);
    await refused(() => server.request('POST', '/v1/social-networks/linkedin/auth-url', { key: org.key, body: { redirect_uri: 'https://app.example.com/\u0000' } }), 'redirect_uri', NUL);
    await refused(() => server.request('POST', `/v1/webhooks/${webhookId}/test`, { key: org.key, body: { message: 'ping\u0000' } }), 'message', NUL);
  });

  test('in query filters and path parameters', async () => {
    await refused(get('/v1/posts?tenant_id=%00'), 'tenant_id', NUL);
    await refused(get('/v1/social-accounts?username=%00'), 'username', NUL);
    await refused(get('/v1/social-accounts?tenantId=a%00b'), 'tenantId', NUL);
    await refused(get('/v1/social-accounts?networkUniqueId=%00'), 'networkUniqueId', NUL);
    await refused(get('/v1/posts/%00'), 'id', NUL);
  });
});

describe('an unpaired surrogate in any stored string is a 400 naming the field', () => {
  test('high and low surrogates alone, in values and keys', async () => {
    await refused(post({ accounts: ['bad_x'], content: 'a\ud800' }), 'content', SURROGATE);
    await refused(post({ accounts: ['bad_x'], containers: [{ content: '\udc00b' }] }), 'containers[0].content', SURROGATE);
    await refused(post({ accounts: ['bad_x'], content: 'hi', x: { ['k\ud800']: 1 } }), 'x.k\ud800', /has a name that contains an unpaired/);
    await refused(() => server.request('POST', '/v1/webhooks', { key: org.key, body: { name: '\udc00', url: 'https://127.0.0.1:9/x', events: ['post.published'] } }), 'name', SURROGATE);
  });

  test('a well-formed pair (an emoji) is accepted and stored as sent', async () => {
    const res = await post({ accounts: ['bad_x'], content: 'ok \ud83d\ude00' })();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.post.containers[0].content, 'ok 😀');
  });
});

describe('numbers and nesting', () => {
  test('videoCoverTimestampMs: 1e400 (Infinity once parsed) is a 400, not a null stored', async () => {
    const raw = (value: string) => () =>
      server.request('POST', '/v1/posts', {
        key: org.key,
        rawBody: `{"accounts":["bad_tiktok"],"containers":[{"content":"v","media":[{"url":"https://cdn.example.com/v.mp4","filename":"v.mp4"}]}],"tiktok":{"videoCoverTimestampMs":${value}}}`,
      });
    await refused(raw('1e400'), 'tiktok.videoCoverTimestampMs', /finite number/);
    await refused(raw('-1e400'), 'tiktok.videoCoverTimestampMs', /finite number/);
    assert.equal((await raw('1500')()).status, 200);
  });

  test('a body nested 10,000 levels deep, with an Idempotency-Key, is a 400', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    await refused(
      () => server.request('POST', '/v1/posts', { key: org.key, rawBody: `{"accounts":["bad_x"],"content":"hi","extra":${deep}}`, headers: { 'idempotency-key': 'deep-1' } }),
      `extra${'[0]'.repeat(31)}`,
      /nests deeper than 32 levels/,
    );
    const objects = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    await refused(() => server.request('POST', '/v1/webhooks', { key: org.key, rawBody: objects }), `${'a.'.repeat(31)}a`, /nests deeper/);
  });

  test('nesting as deep as a real request is accepted', async () => {
    const res = await post({ accounts: ['bad_x'], content: 'hi', extra: JSON.parse(`${'['.repeat(20)}${']'.repeat(20)}`) })();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.warnings, ['Unknown key "extra" was ignored']);
  });
});

describe('keys named like members of Object.prototype are ordinary unknown keys', () => {
  test('__proto__, constructor and toString are dropped with a warning, at the top and inside a block, and pollute nothing', async () => {
    const members = '"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"toString":"x"';
    const res = await server.request('POST', '/v1/posts', {
      key: org.key,
      rawBody: `{"accounts":["bad_x"],"content":"hi",${members},"x":{${members},"content":"for x"}}`,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.warnings, ['__proto__', 'constructor', 'toString', 'x.__proto__', 'x.constructor', 'x.toString'].map((key) => `Unknown key "${key}" was ignored`));
    const { rows } = await server.db.query('SELECT network_options FROM posts WHERE org_id = $1 ORDER BY id DESC LIMIT 1', [org.orgId]);
    assert.deepEqual(rows[0].network_options, { x: { content: 'for x' } });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.toString.call([]), '[object Array]');
  });
});
