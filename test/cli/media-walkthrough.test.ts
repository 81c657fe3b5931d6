// The README's "Media" steps, as written, against `crier start --sandbox` (npm run demo): upload, PUT
// the bytes, confirm, and use the confirmed url in a post. On a local install that url is
// http://localhost:<port>/media/…: Crier's own media is accepted whatever its scheme and read from
// storage when publishing, so the post reaches the sandbox accounts with the image.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../../src/db/embedded.ts';
import { startCrierProcess } from '../helpers/process.ts';
import { PNG_1X1 } from '../helpers/publishing.ts';

let dataDir: string;
let env: Record<string, string | undefined>;

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-media-walkthrough-'));
  env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PUBLIC_BASE_URL: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
});
after(() => rm(dataDir, { recursive: true, force: true }));

test("the README's media walk-through runs as written in the sandbox: the uploaded image is published", async (t) => {
  const crier = startCrierProcess(['start', '--sandbox'], env);
  t.after(async () => { crier.child.kill('SIGTERM'); await crier.exited; });
  // Whatever the wording around it, the run's key is on the line that says "API key".
  const [, key] = await crier.waitFor(/API key[^\n]*?\b(crier_[A-Za-z0-9_-]+)/);
  const base = `http://localhost:${env.PORT}`;
  const api = async (pathname: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(`${base}${pathname}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${key}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  // 1. POST /v1/media/upload {"filename": …} -> {data: {id, upload_url, expires_in}}
  const started = await api('/v1/media/upload', { method: 'POST', body: { filename: 'cat.png' } });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  // 2. PUT <upload_url> with the bytes
  const put = await fetch(started.body.data.upload_url, { method: 'PUT', body: new Uint8Array(PNG_1X1) });
  assert.equal(put.status, 200, await put.text());
  // 3. POST /v1/media/<id>/confirm -> {data: {id, url, ...}}
  const confirmed = await api(`/v1/media/${started.body.data.id}/confirm`, { method: 'POST' });
  assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
  const { url, content_type: contentType } = confirmed.body.data;
  assert.match(url, new RegExp(`^http://localhost:${env.PORT}/media/[A-Za-z0-9_-]{32}/cat\\.png$`), 'a local install serves its media over http');
  assert.equal(contentType, 'image/png');
  // 4. use url in a post's containers[].media
  const created = await api('/v1/posts', {
    method: 'POST',
    body: { accounts: ['sandbox_x', 'sandbox.test'], containers: [{ content: 'a cat, uploaded to Crier', media: [{ url, filename: 'cat.png', altText: 'a cat' }] }] },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.equal(created.body.post.containers[0].media[0].url, url);

  let post: any;
  for (let i = 0; i < 100; i++) {
    post = (await api(`/v1/posts/${created.body.post.id}`)).body.post;
    if (post.socialAccounts.every((a: any) => a.status !== 'pending' && a.status !== 'publishing')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(post.socialAccounts.map((a: any) => [a.username, a.status, a.error]), [['sandbox_x', 'published', null], ['sandbox.test', 'published', null]]);
  const served = await fetch(url);
  assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG_1X1, 'the url serves the uploaded bytes');
});
