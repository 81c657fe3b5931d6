// Operational surface: health, metrics, OpenAPI, docs, CORS, request ids, unknown routes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
after(() => server.close());

test('/healthz answers ok without a key', async () => {
  const res = await server.request('GET', '/healthz');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { status: 'ok' });
});

test('/metrics exposes request latencies per route in Prometheus format', async () => {
  await server.request('GET', '/v1/posts', { key: org.key });
  const res = await server.request('GET', '/metrics');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /text\/plain/);
  assert.match(res.body, /crier_http_request_duration_seconds_count\{method="GET",route="\/v1\/posts",status="200"\} \d+/);
  assert.match(res.body, /process_resident_memory_bytes/);
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
