// The one HTTP client of network adapters (src/networks/http.ts), against a real local server: what
// the network receives, and what each kind of answer means for the post (kind, code, reason, when to
// come back).
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import { NetworkHttp, retryAfterMs, untilUtcMidnight, type NetworkAnswer } from '../../src/networks/http.ts';
import { PublishError } from '../../src/core/errors.ts';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let server: Server;
let base: string;
const received: Received[] = [];
/** The next answer the server gives: status, headers, body. */
let answer: { status: number; headers?: Record<string, string>; body?: string } = { status: 200 };

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (overrides: Partial<ConstructorParameters<typeof NetworkHttp>[0]> = {}) => new NetworkHttp({
  network: 'demo',
  baseUrl: `${base}/api/`,
  headers: () => ({ authorization: 'Bearer t0k' }),
  reasonOf: (body) => (body as { message?: string } | undefined)?.message,
  ...overrides,
});

async function failure(call: Promise<unknown>): Promise<PublishError> {
  const error = await call.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof PublishError, `expected a PublishError, got ${String(error)}`);
  return error;
}

test('a JSON call carries the client headers and the body; the answer is parsed', async () => {
  received.length = 0;
  answer = { status: 201, headers: { 'content-type': 'application/json', 'x-restli-id': 'urn:li:share:1' }, body: '{"ok":true}' };
  const got = await client().call({ url: '/posts', method: 'POST', json: { text: 'hi' }, headers: { 'linkedin-version': '202610' } });
  assert.equal(got.status, 201);
  assert.deepEqual(got.body, { ok: true });
  assert.equal(got.header('x-restli-id'), 'urn:li:share:1');
  const [call] = received;
  assert.equal(call!.method, 'POST');
  assert.equal(call!.url, '/api/posts');
  assert.equal(call!.headers.authorization, 'Bearer t0k');
  assert.equal(call!.headers['linkedin-version'], '202610');
  assert.equal(call!.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(call!.body.toString()), { text: 'hi' });
});

test('a streamed body reaches the server whole, at an absolute URL', async () => {
  received.length = 0;
  answer = { status: 200, headers: { etag: '"part-1"' } };
  const bytes = Buffer.alloc(300_000, 7);
  const got = await client().call({ url: `${base}/upload/1`, method: 'PUT', body: Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]), headers: { 'content-length': String(bytes.length) } });
  assert.equal(got.header('etag'), '"part-1"');
  assert.equal(received[0]!.url, '/upload/1');
  assert.ok(received[0]!.body.equals(bytes));
});

test('each kind of refusal is classified, with the network\'s reason', async () => {
  const cases: { status: number; headers?: Record<string, string>; kind: string; code: string }[] = [
    { status: 401, kind: 'auth', code: 'auth' },
    { status: 403, kind: 'permanent', code: 'forbidden' },
    { status: 404, kind: 'permanent', code: 'not_found' },
    { status: 422, kind: 'permanent', code: 'invalid' },
    { status: 429, headers: { 'retry-after': '7' }, kind: 'retryable', code: 'rate_limited' },
    { status: 500, kind: 'retryable', code: 'server' },
    { status: 503, headers: { 'retry-after': '2' }, kind: 'retryable', code: 'server' },
  ];
  for (const c of cases) {
    answer = { status: c.status, headers: { 'content-type': 'application/json', ...c.headers }, body: JSON.stringify({ message: `no (${c.status})` }) };
    const error = await failure(client().call({ url: '/x' }));
    assert.equal(error.kind, c.kind, `${c.status}`);
    assert.equal(error.code, c.code, `${c.status}`);
    assert.match(error.message, new RegExp(`^demo: .*no \\(${c.status}\\)`));
    if (c.headers?.['retry-after']) assert.equal(error.retryAfterMs, Number(c.headers['retry-after']) * 1000);
  }
});

test('a 429 that says nothing of when is retried after a minute; a body that is not JSON is the reason', async () => {
  answer = { status: 429, body: 'slow down' };
  const error = await failure(client({ reasonOf: (body) => (typeof body === 'string' ? body : undefined) }).call({ url: '/x' }));
  assert.equal(error.retryAfterMs, 60_000);
  assert.equal(error.message, 'demo: rate limited (slow down)');
});

test('a network\'s own classification wins over the default', async () => {
  answer = { status: 422, body: JSON.stringify({ message: 'Content is a duplicate of urn:li:share:9' }) };
  const error = await failure(client({
    classify: (res: NetworkAnswer, reason) => (res.status === 422 && /duplicate/.test(reason) ? { kind: 'permanent', code: 'duplicate', reason } : undefined),
  }).call({ url: '/x' }));
  assert.equal(error.code, 'duplicate');
  assert.equal(error.message, 'demo: Content is a duplicate of urn:li:share:9');
});

test('a network that cannot be reached is retried later', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const error = await failure(client({ baseUrl: `http://127.0.0.1:${port}` }).call({ url: '/x' }));
  assert.equal(error.kind, 'retryable');
  assert.equal(error.code, 'unreachable');
  assert.match(error.message, /^demo: could not reach the API/);
});

test('when to come back: Retry-After in seconds or as a date, or a reset header', () => {
  const now = Date.parse('2026-11-24T10:00:00Z');
  const headers = (h: Record<string, string>) => ({ header: (name: string) => h[name] });
  assert.equal(retryAfterMs(headers({ 'retry-after': '30' }), now), 30_000);
  assert.equal(retryAfterMs(headers({ 'retry-after': 'Tue, 24 Nov 2026 10:02:00 GMT' }), now), 120_000);
  assert.equal(retryAfterMs(headers({ 'x-rate-limit-reset': String(now / 1000 + 90) }), now), 90_000);
  assert.equal(retryAfterMs(headers({ 'x-ratelimit-reset': '15' }), now), 15_000);
  assert.equal(retryAfterMs(headers({}), now), undefined);
  assert.equal(untilUtcMidnight(Date.parse('2026-11-24T23:59:00Z')), 60_000);
});
