// Every error a client can meet leaves in Crier's envelope {success: false, error, code}, including
// those raised before a route is found: a request Node's HTTP parser refuses, a malformed URL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { rawRequest, type RawResponse } from '../helpers/raw-http.ts';

let server: TestServer;
let org: TestOrg;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
});
after(() => server.close());

function assertEnvelope(res: RawResponse, status: number, code: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(res.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(res.body.success, false);
  assert.equal(typeof res.body.error, 'string');
  assert.equal(res.body.code, code);
}

describe('errors before routing use the envelope', () => {
  test('a control character in the Idempotency-Key header', async () => {
    const res = await rawRequest(server.url, `GET /v1/posts HTTP/1.1\r\nHost: crier\r\nAuthorization: Bearer ${org.key}\r\nIdempotency-Key: a\u0001b`);
    assertEnvelope(res, 400, 'invalid_header');
    assert.match(res.body.error, /header/);
  });

  test('a request that is not HTTP', async () => {
    assertEnvelope(await rawRequest(server.url, 'HELLO THERE'), 400, 'bad_request');
  });

  test('headers over the size limit', async () => {
    assertEnvelope(await rawRequest(server.url, `GET /v1/posts HTTP/1.1\r\nHost: crier\r\nX-Filler: ${'a'.repeat(20_000)}`), 431, 'headers_too_large');
  });

  test('a URL whose percent-encoding is invalid', async () => {
    const res = await server.request('GET', '/v1/posts/%', { key: org.key });
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body).sort(), ['code', 'error', 'success']);
    assert.equal(res.body.code, 'invalid_url');
  });
});
