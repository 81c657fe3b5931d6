// Upload through Crier, use the returned URL in a post, and check what the networks received: the
// worker reads Crier's own media from storage (anyone else's URL goes through the SSRF guard) and
// uploads the same bytes. A format a network does not take fails that destination, naming the format.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cidForBlob } from '../../emulators/bluesky/cid.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { makeJpeg, makeVideo, startMediaPublishing, type MediaHarness } from '../helpers/media.ts';
import { PNG_1X1, startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

describe('publishing uploaded media', () => {
  let h: MediaHarness & { stack: PublishingStack };
  let org: TestOrg;

  before(async () => {
    h = await startMediaPublishing();
    org = await h.server.createOrg();
  });
  after(() => h.close());

  const publish = async (accounts: string[], media: { url: string; filename: string; altText?: string }[], extra: object = {}) => {
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts, containers: [{ content: 'with media', media }], ...extra } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return h.stack.waitForPost(org, created.body.post.id);
  };

  it('a confirmed upload is published to Bluesky as a blob with the same bytes, and to X as media of the same size', async () => {
    const jpeg = await makeJpeg();
    const media = await h.upload(org, 'pattern.jpg', jpeg, 'image/jpeg');
    const bsky = await h.stack.addBlueskyAccount(org);
    const x = await h.stack.addXAccount(org);
    const post = await publish([bsky.id, x.id], [{ url: media.url, filename: media.filename, altText: 'a test pattern' }]);
    const [onBsky, onX] = post.socialAccounts;
    assert.equal(onBsky.status, 'published', onBsky.error);
    assert.equal(onX.status, 'published', onX.error);

    const record = h.stack.bsky.records(bsky.did).find((r) => r.uri === onBsky.platformPostId)!;
    const image = (record.value as any).embed.images[0];
    assert.equal(image.alt, 'a test pattern');
    assert.equal(image.image.ref.$link, cidForBlob(jpeg), 'the blob is the uploaded bytes');
    assert.equal(image.image.mimeType, 'image/jpeg');

    const tweet = h.stack.x.tweets().find((t) => t.id === onX.platformPostId)!;
    const uploaded = h.stack.x.media().find((m) => m.id === tweet.mediaIds[0]);
    assert.ok(uploaded, JSON.stringify(tweet));
    assert.equal(uploaded.size, jpeg.length);
    assert.equal(uploaded.category, 'tweet_image');
  });

  it('a format the network does not take fails that destination with an error naming the format; a kind known from the name is refused at creation', async () => {
    const webm = await makeVideo({ seconds: 1, size: '160x120', rate: 10, codec: 'libvpx', format: 'webm', audio: false });
    const media = await h.upload(org, 'clip.webm', webm);
    assert.equal(media.content_type, 'video/webm');
    const x = await h.stack.addXAccount(org);
    const bsky = await h.stack.addBlueskyAccount(org);
    const post = await publish([x.id], [{ url: media.url, filename: media.filename }]);
    const [onX] = post.socialAccounts;
    assert.equal(onX.status, 'failed');
    assert.match(onX.error, /^x: clip\.webm is video\/webm; X accepts .*MP4 or MOV video/);
    // Bluesky takes images only, and "clip.webm" says it is a video: refused when the post is created.
    const refused = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [x.id, bsky.id], containers: [{ content: 'with media', media: [{ url: media.url, filename: media.filename }] }] } });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.deepEqual(refused.body.details.map((d: any) => d.field), ['socialAccounts[1]']);
    assert.match(refused.body.details[0].message, /^bluesky: clip\.webm is not an image/);
  });
});

describe("Crier's own media is read from storage, not fetched over the network", () => {
  let h: MediaHarness & { stack: PublishingStack };
  let org: TestOrg;

  // Loopback is NOT allowed here: PUBLIC_BASE_URL (https://127.0.0.1:<front>) is an address the guard
  // refuses, as a LAN or localhost install's would be. Uploaded media must publish all the same.
  before(async () => {
    h = await startMediaPublishing({ CRIER_ALLOW_LOOPBACK_FETCH: 'false' });
    org = await h.server.createOrg();
  });
  after(() => h.close());

  it('an uploaded image publishes although its public address is loopback', async () => {
    const jpeg = await makeJpeg();
    const media = await h.upload(org, 'own.jpg', jpeg, 'image/jpeg');
    assert.match(media.url, /^https:\/\/127\.0\.0\.1:\d+\/media\//);
    const bsky = await h.stack.addBlueskyAccount(org);
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [bsky.id], containers: [{ content: 'own', media: [{ url: media.url, filename: media.filename }] }] } });
    const post = await h.stack.waitForPost(org, created.body.post.id);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const record = h.stack.bsky.records(bsky.did).find((r) => r.uri === post.socialAccounts[0].platformPostId)!;
    assert.equal((record.value as any).embed.images[0].image.ref.$link, cidForBlob(jpeg));
  });

  it('another loopback URL is still refused by the guard, as soon as the post is created', async () => {
    const bsky = await h.stack.addBlueskyAccount(org);
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [bsky.id], containers: [{ content: 'not ours', media: [{ url: `${h.stack.media.url}/cat.png`, filename: 'cat.png' }] }] } });
    assert.equal(created.status, 400);
    assert.deepEqual(created.body.details, [{ field: 'containers[0].media[0].url', message: 'must be a public https URL; address 127.0.0.1 is not allowed (loopback)' }]);
  });

  it('a URL under /media/ with an unknown token fails the destination with a clear error', async () => {
    const bsky = await h.stack.addBlueskyAccount(org);
    const url = `${h.front.url}/media/${'A'.repeat(32)}/gone.jpg`;
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [bsky.id], containers: [{ content: 'gone', media: [{ url, filename: 'gone.jpg' }] }] } });
    const post = await h.stack.waitForPost(org, created.body.post.id);
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.match(post.socialAccounts[0].error, /not \(or no longer\) available/);
  });
});

describe('an install whose PUBLIC_BASE_URL is http (a local install, the sandbox)', () => {
  const BASE = 'http://localhost:8123';
  let stack: PublishingStack;
  let dataDir: string;
  let org: TestOrg;

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-media-http-'));
    stack = await startPublishingStack({ PUBLIC_BASE_URL: BASE, CRIER_DATA_DIR: dataDir });
    org = await stack.server.createOrg();
  });
  after(async () => {
    await stack.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Upload and confirm; the signed PUT URL names PUBLIC_BASE_URL, which this test server answers under its own address. */
  async function upload(filename: string, bytes: Buffer): Promise<{ url: string }> {
    const started = await stack.server.request('POST', '/v1/media/upload', { key: org.key, body: { filename } });
    const signed = new URL(started.body.data.upload_url);
    assert.equal(signed.origin, BASE);
    const put = await fetch(`${stack.server.url}${signed.pathname}${signed.search}`, { method: 'PUT', body: new Uint8Array(bytes) });
    assert.equal(put.status, 200);
    const confirmed = await stack.server.request('POST', `/v1/media/${started.body.data.id}/confirm`, { key: org.key });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    return confirmed.body.data;
  }

  it('its own http media URL is accepted and published: X has the image', async () => {
    const media = await upload('dot.png', PNG_1X1);
    assert.ok(media.url.startsWith(`${BASE}/media/`), media.url);
    const xa = await stack.addXAccount(org);
    const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [xa.id], containers: [{ content: 'own http media', media: [{ url: media.url, filename: 'dot.png' }] }] } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const post = await stack.waitForPost(org, created.body.post.id);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const tweet = stack.x.tweets().find((t) => t.id === post.socialAccounts[0].platformPostId)!;
    const image = stack.x.media().find((m) => m.id === tweet.mediaIds[0]);
    assert.deepEqual([image?.category, image?.size], ['tweet_image', PNG_1X1.length]);
  });

  it('any other http media URL is still a 400 naming it, and nothing is stored', async () => {
    const xa = await stack.addXAccount(org);
    const before = (await stack.server.db.query('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [org.orgId])).rows[0].n;
    const res = await stack.server.request('POST', '/v1/posts', {
      key: org.key,
      body: { accounts: [xa.id], containers: [{ content: 'not ours', media: [{ url: 'http://cdn.example.com/a.png', filename: 'a.png' }, { url: `${BASE}/elsewhere/a.png`, filename: 'a.png' }] }] },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.success, false);
    assert.deepEqual(res.body.details, [
      { field: 'containers[0].media[0].url', message: 'must be an https URL, or the url of media uploaded to this Crier' },
      { field: 'containers[0].media[1].url', message: 'must be an https URL, or the url of media uploaded to this Crier' },
    ]);
    assert.equal((await stack.server.db.query('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [org.orgId])).rows[0].n, before);
  });
});
