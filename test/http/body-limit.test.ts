// A body over its limit is answered 413 to every client, every time: the answer waits for the body
// (read and discarded, up to a bound) instead of closing the connection while the client still writes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DRAIN_MAX_BYTES } from '../../src/http/body-drain.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { rawRequest } from '../helpers/raw-http.ts';

const MB = 1_000_000;
const ATTEMPTS = 30;
/** 2 to 5 MB: over both limits below (1 MiB), so the answer comes from Content-Length, before the body is read. */
const sizeOf = (attempt: number) => (2 + (attempt % 4)) * MB;

let server: TestServer;
let org: TestOrg;

before(async () => {
  server = await startTestServer({ CRIER_BODY_LIMIT_BYTES: String(1024 * 1024), CRIER_MEDIA_MAX_UPLOAD_BYTES: String(1024 * 1024) });
  org = await server.createOrg();
});
after(() => server.close());

/** A signed upload URL of this server (the URL names PUBLIC_BASE_URL, which is not where the test server listens). */
async function uploadPath(): Promise<string> {
  const res = await server.request('POST', '/v1/media/upload', { key: org.key, body: { filename: 'clip.mp4' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const url = new URL(res.body.data.upload_url);
  return `${url.pathname}${url.search}`;
}

const targets = [
  { name: 'POST /v1/posts', method: 'POST', path: async () => '/v1/posts', headers: () => ({ authorization: `Bearer ${org.key}`, 'content-type': 'application/json' }) },
  { name: 'the upload PUT', method: 'PUT', path: uploadPath, headers: () => ({ 'content-type': 'video/mp4' }) },
];

for (const target of targets) {
  describe(`${target.name} over its limit`, () => {
    test(`a client that writes its whole body before reading gets the 413, ${ATTEMPTS} times out of ${ATTEMPTS}`, async () => {
      const path = await target.path();
      const head = Object.entries(target.headers()).map(([name, value]) => `${name}: ${value}`);
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const size = sizeOf(attempt);
        const res = await rawRequest(server.url, [`${target.method} ${path} HTTP/1.1`, 'Host: crier', `Content-Length: ${size}`, ...head].join('\r\n'), size);
        assert.equal(res.writeError, undefined, `attempt ${attempt} (${size} bytes): the connection closed while the body was being sent`);
        assert.equal(res.status, 413, `attempt ${attempt}`);
        assert.equal(res.body.code, 'payload_too_large');
      }
    });

    test(`Node's fetch gets the 413, ${ATTEMPTS} times out of ${ATTEMPTS}`, async () => {
      const path = await target.path();
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const res = await fetch(server.url + path, { method: target.method, headers: target.headers(), body: new Uint8Array(sizeOf(attempt)) });
        assert.equal(res.status, 413, `attempt ${attempt}`);
        assert.equal((await res.json()).code, 'payload_too_large');
      }
    });
  });
}

test('a body declared larger than the drain bound is answered at once, without waiting for it', async () => {
  const res = await rawRequest(server.url, `POST /v1/posts HTTP/1.1\r\nHost: crier\r\nAuthorization: Bearer ${org.key}\r\nContent-Type: application/json\r\nContent-Length: ${DRAIN_MAX_BYTES + 1}`);
  assert.equal(res.status, 413);
  assert.equal(res.headers.connection, 'close');
});
