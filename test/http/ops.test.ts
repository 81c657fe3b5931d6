// Operational surface: health, metrics, OpenAPI, docs, CORS, request ids, unknown routes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;

const METRICS_TOKEN = 'metrics-token-for-the-scraper-0123';

before(async () => {
  server = await startTestServer({ CRIER_METRICS_TOKEN: METRICS_TOKEN });
  org = await server.createOrg();
});
after(() => server.close());

test('/healthz answers ok without a key', async () => {
  const res = await server.request('GET', '/healthz');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { status: 'ok' });
});

test('/metrics exposes request latencies per route in Prometheus format, to the metrics token', async () => {
  await server.request('GET', '/v1/posts', { key: org.key });
  const res = await server.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /text\/plain/);
  assert.match(res.body, /crier_http_request_duration_seconds_count\{method="GET",route="\/v1\/posts",status="200"\} \d+/);
  assert.match(res.body, /process_resident_memory_bytes/);
});

test('/metrics without the token, with a wrong one or with an API key: 401, nothing of the metrics', async () => {
  for (const authorization of [undefined, `Bearer ${METRICS_TOKEN}x`, `Bearer ${org.key}`, METRICS_TOKEN]) {
    const res = await server.request('GET', '/metrics', { headers: authorization ? { authorization } : {} });
    assert.equal(res.status, 401, String(authorization));
    assert.equal(res.headers.get('www-authenticate'), 'Bearer');
    assert.equal(res.body.code, 'unauthorized');
    assert.doesNotMatch(JSON.stringify(res.body), /crier_http|process_/);
  }
});

test('without CRIER_METRICS_TOKEN, /metrics is not served at all (secure by default); /healthz stays open', async () => {
  const plain = await startTestServer();
  try {
    const res = await plain.request('GET', '/metrics');
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'not_found');
    assert.match(res.body.error, /CRIER_METRICS_TOKEN/);
    assert.equal((await plain.request('GET', '/metrics', { headers: { authorization: 'Bearer anything-at-all-here' } })).status, 404);
    assert.equal((await plain.request('GET', '/healthz')).status, 200);
  } finally {
    await plain.close();
  }
});

test('/openapi.json is OpenAPI 3.1 and documents the posts contract from the validating schemas', async () => {
  const res = await server.request('GET', '/openapi.json');
  assert.equal(res.status, 200);
  assert.equal(res.body.openapi, '3.1.0');
  const create = res.body.paths['/v1/posts'].post;
  const schema = create.requestBody.content['application/json'].schema;
  assert.deepEqual(schema.required, ['accounts']);
  for (const key of ['accounts', 'content', 'containers', 'scheduledAt', 'x', 'threads', 'tiktok', 'google_business', 'reddit']) {
    assert.ok(key in schema.properties, key);
  }
  assert.deepEqual(schema.properties.tiktok.properties.postMode.enum, ['DIRECT_POST', 'MEDIA_UPLOAD']);
  assert.ok(res.body.paths['/v1/posts'].get.parameters.some((p: any) => p.name === 'social_account_id'));
  assert.ok(res.body.paths['/v1/posts/{id}'].get);
  assert.ok(res.body.paths['/v1/social-accounts'].get);
});

test('/docs serves a browsable page', async () => {
  const res = await fetch(`${server.url}/docs`, { redirect: 'follow' });
  assert.equal(res.status, 200);
  assert.match(await res.text(), /<html/i);
});

test('CORS: preflight on /v1 is allowed without a key, and responses carry the origin', async () => {
  const preflight = await fetch(`${server.url}/v1/posts`, {
    method: 'OPTIONS',
    headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,idempotency-key' },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://app.example.com');
  assert.match(preflight.headers.get('access-control-allow-headers')!, /idempotency-key/);
  const res = await server.request('GET', '/v1/posts', { key: org.key, headers: { origin: 'https://app.example.com' } });
  assert.equal(res.headers.get('access-control-allow-origin'), 'https://app.example.com');
});

describe('CORS: every method of the API and the upload PUT, from a browser', () => {
  const origin = 'https://app.example.com';
  const preflight = (path: string, method: string) =>
    fetch(`${server.url}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type,idempotency-key' } });
  const allowed = (res: Response, header: string) => (res.headers.get(header) ?? '').split(',').map((v) => v.trim().toLowerCase());

  test('preflights of PATCH, DELETE and PUT are allowed with the headers the API reads', async () => {
    for (const [path, method] of [['/v1/posts/abc', 'PATCH'], ['/v1/posts/abc', 'DELETE'], ['/v1/webhooks/1', 'PATCH'], ['/media-uploads/1?expires=1&signature=x', 'PUT']] as const) {
      const res = await preflight(path, method);
      assert.equal(res.status, 204, `${method} ${path}`);
      assert.equal(res.headers.get('access-control-allow-origin'), origin);
      assert.ok(allowed(res, 'access-control-allow-methods').includes(method.toLowerCase()), `${method} ${path}: ${res.headers.get('access-control-allow-methods')}`);
      for (const header of ['authorization', 'content-type', 'idempotency-key']) assert.ok(allowed(res, 'access-control-allow-headers').includes(header), header);
    }
  });

  test('PATCH and DELETE answers carry the origin and expose the rate-limit, retry and replay headers', async () => {
    await server.addAccount(org, 'x', 'cors_x');
    const created = await server.request('POST', '/v1/posts', { key: org.key, body: { accounts: ['cors_x'], content: 'later', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.post.id;
    const patched = await server.request('PATCH', `/v1/posts/${id}`, { key: org.key, headers: { origin }, body: { isDraft: true } });
    const deleted = await server.request('DELETE', `/v1/posts/${id}`, { key: org.key, headers: { origin } });
    for (const res of [patched, deleted]) {
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.headers.get('access-control-allow-origin'), origin);
      const exposed = res.headers.get('access-control-expose-headers')!.split(',').map((v) => v.trim());
      for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'idempotency-replayed']) assert.ok(exposed.includes(header), header);
    }
  });

  test('the upload PUT answers with the origin, whether it succeeds or is refused', async () => {
    const started = await server.request('POST', '/v1/media/upload', { key: org.key, body: { filename: 'a.png' } });
    const url = new URL(started.body.data.upload_url);
    const put = (search: string) => fetch(`${server.url}${url.pathname}${search}`, { method: 'PUT', headers: { origin, 'content-type': 'image/png' }, body: new Uint8Array(8) });
    const ok = await put(url.search);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), origin);
    const refused = await put('?expires=1&signature=forged');
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('access-control-allow-origin'), origin);
  });

  test('routes that are not for browsers answer without CORS headers', async () => {
    const res = await fetch(`${server.url}/healthz`, { headers: { origin } });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });
});

test('every response carries a request id; a caller-supplied one is kept', async () => {
  const generated = await server.request('GET', '/v1/posts', { key: org.key });
  assert.match(generated.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
  const kept = await server.request('GET', '/v1/posts', { key: org.key, headers: { 'x-request-id': 'trace-123' } });
  assert.equal(kept.headers.get('x-request-id'), 'trace-123');
});

test('an unknown route is a 404 in the error envelope', async () => {
  const res = await server.request('GET', '/v1/nothing', { key: org.key });
  assert.equal(res.status, 404);
  assert.equal(res.body.success, false);
});
