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

describe('a 500 invites a retry only when the failure is temporary', () => {
  test('an unexpected error (a table missing) says a retry would fail the same way', async () => {
    await server.db.query('ALTER TABLE webhooks RENAME TO webhooks_moved');
    try {
      const res = await server.request('GET', '/v1/webhooks', { key: org.key });
      assert.equal(res.status, 500);
      assert.equal(res.body.success, false);
      assert.equal(res.body.code, 'internal_error');
      assert.doesNotMatch(res.body.message, /safe to retry|retry it/);
      assert.match(res.body.message, /fail the same way/);
      assert.equal(res.headers.get('retry-after'), null);
    } finally {
      await server.db.query('ALTER TABLE webhooks_moved RENAME TO webhooks');
    }
  });

  test('the database connection lost mid-request (a restart) invites a retry', async () => {
    // Hold a lock the request will wait on, then end its database sessions as a restart would.
    const holder = await server.db.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE webhooks IN ACCESS EXCLUSIVE MODE');
    try {
      let answered = false;
      const pending = server.request('GET', '/v1/webhooks', { key: org.key }).finally(() => { answered = true; });
      // Outside the holder's transaction, which would keep seeing its first snapshot of pg_stat_activity.
      // Every waiter is ended until the request answers: the route reads with two queries at once, and
      // one ended before the other reached the lock must not leave the request waiting behind the holder.
      await until(async () => {
        await server.db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
        return answered;
      });
      const res = await pending;
      assert.equal(res.status, 500);
      assert.equal(res.body.code, 'temporarily_unavailable');
      assert.match(res.body.message, /retry it in a moment/);
      assert.equal(res.headers.get('retry-after'), '1');
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    assert.equal((await server.request('GET', '/v1/webhooks', { key: org.key })).status, 200, 'the next request works again');
  });
});

async function until(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not met in 10 s');
}
