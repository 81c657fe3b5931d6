// Instagram with real `crier worker` processes: a worker killed with SIGKILL while a carousel's item
// containers are processing is taken over by another, which resumes polling the containers whose ids
// the checkpoint holds — none created again — and publishes the carousel once; and one killed while
// media_publish is unanswered is followed by one that asks the container's status and publishes once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../../emulators/facebook/server.ts';
import { decodeId } from '../../../src/core/ids.ts';
import { INSTAGRAM_SCOPES } from '../../../src/networks/instagram/oauth.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { workerProcesses } from '../../helpers/process.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';
import { until } from '../../helpers/until.ts';
import { makeJpeg, makeVideo, startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';

const APP = { clientId: 'crier-meta', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };

let fb: FacebookEmulator;
let h: MediaHarness & { stack: PublishingStack };
let org: TestOrg;
let account: TestAccount;
let igId: string;
const workers = workerProcesses(() => h.stack.env);

before(async () => {
  fb = await startFacebookEmulator();
  fb.addApp(APP);
  const user = fb.addUser({ pages: [{ instagram: { username: 'acme' } }] });
  const page = fb.addPage(user.id, { instagram: { username: 'acme_two' } });
  igId = page.instagram!.id;
  const token = fb.issuePageToken(page.id, APP.clientId, INSTAGRAM_SCOPES);
  h = await startMediaPublishing({ CRIER_INSTAGRAM_BASE_URL: fb.url }, { worker: false });
  fb.trustMediaCa(h.front.ca);
  fb.trustMediaCa(h.stack.media.ca);
  org = await h.server.createOrg();
  account = await h.server.addAccount(org, 'instagram', 'acme_two', { networkUniqueId: igId, accessToken: token });
});
after(async () => {
  workers.killAll();
  await h.close();
  await fb.close();
});

const worker = () => workers.start();

describe('Instagram with real worker processes', { concurrency: false }, () => {
  test('killed while a carousel\'s items are processing: another worker resumes polling them, nothing is created or posted twice', async () => {
    const image = await h.upload(org, 'a.jpg', await makeJpeg(), 'image/jpeg');
    const video = await h.upload(org, 'b.mp4', await makeVideo({ seconds: 3, size: '160x284', rate: 24 }), 'video/mp4');
    fb.instagram.hold();
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], containers: [
      { content: 'Crash-proof carousel', media: [{ url: image.url, filename: 'a.jpg' }, { url: video.url, filename: 'b.mp4' }, { url: `${h.stack.media.url}/cat.png`, filename: 'cat.png' }] },
      { content: 'and a comment' },
    ] } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const rawId = decodeId(created.body.post.id)!;

    const doomed = await worker();
    // The items exist and the checkpoint holds their ids; the worker is polling them.
    const stored = await until(async () => {
      const { rows } = await h.server.db.query('SELECT checkpoint FROM targets WHERE post_id = $1', [rawId]);
      return rows[0]?.checkpoint?.items?.length === 3 ? rows[0].checkpoint as { items: string[] } : undefined;
    });
    await until(() => (fb.instagram.calls().some((c) => c.path === `/${stored.items[0]}` && c.params.fields === 'status_code,status') ? true : undefined));
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const itemsCreated = () => fb.instagram.containers().filter((c) => c.igUserId === igId && c.carouselItem).length;
    assert.equal(itemsCreated(), 3);

    fb.instagram.hold(false);
    const healthy = await worker();
    const post = await h.stack.waitForPost(org, created.body.post.id, undefined, 90_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.equal(itemsCreated(), 3, 'the items were polled again, not created again');
    const published = fb.instagram.published().filter((m) => m.igUserId === igId);
    assert.equal(published.length, 1, 'one carousel on the account');
    assert.deepEqual(published[0]!.children.map((c) => c.id), stored.items, 'the carousel is made of the containers created before the crash, in order');
    assert.equal(fb.instagram.calls().filter((c) => c.path === `/${igId}/media_publish`).length, 1, 'media_publish was called once');
    assert.deepEqual(fb.instagram.comments(published[0]!.id).map((c) => c.text), ['and a comment']);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed while media_publish is unanswered: the next worker finds the container unpublished (FINISHED) and publishes it once', async () => {
    const image = await h.upload(org, 'c.jpg', await makeJpeg(), 'image/jpeg');
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], containers: [{ content: 'Published once', media: [{ url: image.url, filename: 'c.jpg' }] }] } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const rawId = decodeId(created.body.post.id)!;
    // The publishing call gets no answer: the worker dies waiting for it.
    fb.failNext({ status: 500, method: 'POST', path: `/v23.0/${igId}/media_publish`, delayMs: 20_000 });
    const doomed = await worker();
    await until(async () => {
      const { rows } = await h.server.db.query('SELECT checkpoint FROM targets WHERE post_id = $1', [rawId]);
      return rows[0]?.checkpoint?.ready === true ? true : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const callsAtKill = fb.instagram.calls().length;

    const healthy = await worker();
    const post = await h.stack.waitForPost(org, created.body.post.id, undefined, 60_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const mine = fb.instagram.published().filter((m) => m.caption === 'Published once');
    assert.equal(mine.length, 1, 'published once');
    assert.equal(post.socialAccounts[0].platformPostId, mine[0]!.id);
    const container = fb.instagram.containers().find((c) => c.params.caption === 'Published once')!;
    assert.ok(fb.instagram.calls().slice(callsAtKill).some((c) => c.path === `/${container.id}` && c.params.fields === 'status_code,status'), 'the container\'s status was asked after the crash');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});
