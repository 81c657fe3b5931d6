// The fetch the sandbox hands its emulators (src/sandbox/start.ts): Crier's SSRF guard, which lets through
// exactly one kind of loopback URL, a file Crier itself serves under PUBLIC_BASE_URL. A local HTTP
// server on 127.0.0.1 stands for Crier, counting the requests that reach it.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { SsrfError } from '../../src/security/ssrf.ts';
import { ownMediaUrl, sandboxMediaFetch } from '../../src/sandbox/start.ts';

const TOKEN = 'A'.repeat(32);
let crier: Server;
let base: string;
const reached: string[] = [];

before(async () => {
  crier = createServer((req, res) => {
    reached.push(req.url!);
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    res.end('jpeg bytes');
  });
  await new Promise<void>((resolve) => crier.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(crier.address() as AddressInfo).port}`;
});
after(() => new Promise((resolve) => crier.close(resolve)));

const sandboxFetch = () => sandboxMediaFetch(() => ({ publicBaseUrl: base, allowLoopbackFetch: false, extraCaFile: undefined }));

test('a file Crier serves is fetched over plain http on loopback', async () => {
  const res = await sandboxFetch()(`${base}/media/${TOKEN}/photo.jpg`);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), 'jpeg bytes');
  assert.deepEqual(reached.splice(0), [`/media/${TOKEN}/photo.jpg`]);
});

test('any other URL of Crier\'s origin is refused before a connection: dot segments, other paths, a name for loopback', async () => {
  const fetchMedia = sandboxFetch();
  for (const url of [`${base}/media/${TOKEN}/../../v1/api-keys`, `${base}/v1/posts`, `${base}/media/${TOKEN}/a/b.jpg`]) {
    await assert.rejects(fetchMedia(url), (error: unknown) => error instanceof SsrfError && error.code === 'not_https', url);
  }
  const port = (crier.address() as AddressInfo).port;
  await assert.rejects(fetchMedia(`https://localhost:${port}/media/${TOKEN}/photo.jpg`), (error: unknown) => error instanceof SsrfError && error.code === 'blocked_address');
  assert.deepEqual(reached, [], 'nothing reached Crier');
});

test('ownMediaUrl: the URL of a served file, judged once its dot segments are resolved', () => {
  assert.equal(ownMediaUrl('http://localhost:3000', `http://localhost:3000/media/${TOKEN}/a%20b.jpg`), `http://localhost:3000/media/${TOKEN}/a%20b.jpg`);
  assert.equal(ownMediaUrl('http://localhost:3000', `http://localhost:3000/x/../media/${TOKEN}/a.jpg`), `http://localhost:3000/media/${TOKEN}/a.jpg`);
  assert.equal(ownMediaUrl('http://localhost:3000', `http://localhost:3000/media/${TOKEN}/../${TOKEN}`), undefined);
  assert.equal(ownMediaUrl('http://localhost:3000', `http://localhost:3000/media/short/a.jpg`), undefined);
  assert.equal(ownMediaUrl('http://localhost:3000', `http://localhost:3000/media/${TOKEN}/a.jpg?x=1`), undefined);
  assert.equal(ownMediaUrl('http://localhost:3000', `http://localhost:3001/media/${TOKEN}/a.jpg`), undefined);
});
