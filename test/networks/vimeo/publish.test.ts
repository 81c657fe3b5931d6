// Publishing to Vimeo over real HTTP: Crier's API and worker (the registry's Vimeo adapter), the Vimeo
// emulator as the network, videos uploaded to Crier. Each test checks what Vimeo received — the video's
// name, description and privacy, the tus PATCHes and HEADs with their offsets, the bytes (by sha256),
// the comments and their order — and what Crier reports.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startVimeoEmulator, type VimeoEmulator } from '../../../emulators/vimeo/server.ts';
import { VIMEO_ACCEPT, VIMEO_SCOPES } from '../../../src/networks/vimeo/oauth.ts';
import { decodeId } from '../../../src/core/ids.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';
import { makeVideo, paddedVideo, startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';

const APP = { clientId: 'crier-vimeo', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };
const MiB = 1024 * 1024;
const CHUNK = 16 * MiB;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('publishing to Vimeo', () => {
  let vm: VimeoEmulator;
  let h: MediaHarness & { stack: PublishingStack };
  let org: TestOrg;
  let ada: TestAccount & { userId: string };
  let clip: Buffer;

  const addMember = async (name: string, account = 'pro') => {
    const user = vm.addUser({ name, account });
    const token = vm.oauth.issue(user.id, APP.clientId, VIMEO_SCOPES).accessToken;
    return { ...(await h.server.addAccount(org, 'vimeo', user.username, { networkUniqueId: user.id, accessToken: token })), userId: user.id };
  };

  before(async () => {
    vm = await startVimeoEmulator();
    vm.addApp(APP);
    vm.setTranscodeReads(0);
    h = await startMediaPublishing({ CRIER_VIMEO_BASE_URL: vm.url });
    org = await h.server.createOrg();
    ada = await addMember('Ada Lovelace');
    clip = await makeVideo({ seconds: 1, size: '160x120', rate: 10 });
  });
  after(async () => {
    await h.close();
    await vm.close();
  });

  const create = async (body: object) => {
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [ada.id], ...body } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.post.id as string;
  };
  const publish = async (body: object, account: TestAccount = ada) => {
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], ...body } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return h.stack.waitForPost(org, created.body.post.id, undefined, 60_000);
  };
  const media = async (filename: string, bytes = clip) => ({ url: (await h.upload(org, filename, bytes, 'video/mp4')).url as string, filename });
  const published = (post: any) => {
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'published', destination.error);
    return vm.videos().find((v) => v.id === destination.platformPostId)!;
  };
  const failed = (post: any) => {
    assert.equal(post.socialAccounts[0].status, 'failed');
    return post.socialAccounts[0].error as string;
  };

  it('every block field reaches POST /me/videos; the bytes go by tus in 16 MiB chunks, each after a HEAD', async () => {
    const bytes = await paddedVideo(40 * MiB);
    const file = await media('film.mp4', bytes);
    const post = await publish({
      containers: [{ content: 'shared text', media: [file] }],
      vimeo: { title: 'My film', description: 'What it is about', content: 'the override', privacyView: 'unlisted', privacyEmbed: 'private' },
    });
    const video = published(post);
    assert.deepEqual([video.name, video.description, video.privacy.view, video.privacy.embed], ['My film', 'What it is about', 'unlisted', 'private']);
    assert.equal(video.sha256, sha256(bytes), 'Vimeo received the file exactly');
    assert.equal(post.socialAccounts[0].platformPostUrl, video.link);
    assert.match(video.link, new RegExp(`^https://vimeo\\.com/${video.id}/[0-9a-f]+$`), 'an unlisted video\'s link carries its hash');

    const creation = vm.requests().find((r) => r.method === 'POST' && r.path === '/me/videos' && (r.json as any)?.name === 'My film')!;
    assert.deepEqual(creation.json, {
      name: 'My film', description: 'What it is about', privacy: { view: 'unlisted', embed: 'private' }, upload: { approach: 'tus', size: String(40 * MiB) },
    });
    assert.equal(creation.accept, VIMEO_ACCEPT);
    assert.equal(creation.auth, 'bearer');

    const patches = vm.patches().filter((p) => p.videoId === video.id);
    assert.deepEqual(patches.map((p) => [p.uploadOffset, p.received, p.status]), [['0', CHUNK, 204], [String(CHUNK), CHUNK, 204], [String(2 * CHUNK), 8 * MiB, 204]]);
    assert.ok(patches.every((p) => p.contentType === 'application/offset+octet-stream' && p.tusResumable === '1.0.0' && p.auth === 'none'), JSON.stringify(patches));
    assert.deepEqual(vm.heads().filter((x) => x.videoId === video.id).map((x) => x.uploadOffset), [0, CHUNK, 2 * CHUNK], 'one HEAD before each chunk');
  });

  it('the description: the block\'s content when no description is set, and the title defaults to the file name', async () => {
    const video = published(await publish({ containers: [{ content: 'shared text', media: [await media('holiday.mp4')] }], vimeo: { content: 'for Vimeo' } }));
    assert.deepEqual([video.name, video.description, video.privacy.view], ['holiday', 'for Vimeo', 'anybody']);
    const request = vm.requests().filter((r) => r.path === '/me/videos' && r.method === 'POST').at(-1)!;
    assert.equal((request.json as any).privacy, undefined, 'no privacy is sent when the block sets none: the member\'s default applies');
  });

  it('the description: the container\'s text when the block has neither description nor content', async () => {
    const video = published(await publish({ containers: [{ content: 'the shared body', media: [await media('plain.mp4')] }], vimeo: { title: 'Plain' } }));
    assert.deepEqual([video.name, video.description], ['Plain', 'the shared body']);
  });

  it('a thread: the video, then each later container a comment on it, in order', async () => {
    const post = await publish({ containers: [{ content: 'root', media: [await media('thread.mp4')] }, { content: 'First comment' }, { content: 'Second comment' }] });
    const video = published(post);
    assert.deepEqual(video.comments.map((c) => [c.userId, c.text]), [[ada.userId, 'First comment'], [ada.userId, 'Second comment']]);
    const { rows } = await h.server.db.query(
      'SELECT p.position, p.platform_id FROM target_parts p JOIN targets t ON t.id = p.target_id WHERE t.post_id = $1 ORDER BY p.position',
      [decodeId(post.id)],
    );
    assert.deepEqual(rows.map((r) => r.platform_id), [video.id, video.comments[0]!.id, video.comments[1]!.id]);
  });

  it('a transcode in progress is waited on without a worker, then published', async () => {
    vm.setTranscodeReads(2);
    try {
      const postId = await create({ containers: [{ content: 'slow', media: [await media('slow.mp4')] }], vimeo: { title: 'Slow transcode' } });
      const post = await h.stack.waitForPost(org, postId, undefined, 30_000);
      const video = published(post);
      const statusReads = vm.requests().filter((r) => r.method === 'GET' && r.path === `/videos/${video.id}`);
      assert.equal(statusReads.length, 3, 'in_progress twice, then complete');
      assert.equal(statusReads[0]!.query.fields, 'uri,link,status,upload.status,transcode.status');
      const { rows } = await h.server.db.query(`SELECT count(*)::int AS n FROM attempts a JOIN targets t ON t.id = a.target_id WHERE t.post_id = $1 AND a.outcome = 'waiting'`, [decodeId(postId)]);
      assert.ok(rows[0].n >= 3, `created, uploaded, then waited on the transcode: ${rows[0].n} waits`);
    } finally {
      vm.setTranscodeReads(0);
    }
  });

  it('a transcode that ends in error fails the destination with Vimeo\'s status', async () => {
    vm.failNextTranscode();
    const error = failed(await publish({ containers: [{ content: 'broken', media: [await media('broken.mp4')] }] }));
    assert.match(error, /^vimeo: Vimeo could not transcode \/videos\/\d+ \(transcode\.status error, status transcoding_error\)/);
  });

  it('a video deleted on Vimeo before it was transcoded fails the destination as not found', async () => {
    vm.failNext({ status: 404, method: 'GET', path: '/videos/', body: { error: 'The requested video couldn\'t be found.', link: null, developer_message: 'The requested video couldn\'t be found.', error_code: 5000 } });
    const error = failed(await publish({ containers: [{ content: 'gone', media: [await media('gone.mp4')] }] }));
    assert.equal(error, 'vimeo: The requested video couldn\'t be found. (5000)');
  });

  it('a file larger than the upload quota\'s free space fails before any video is created', async () => {
    const bob = await addMember('Bob Full');
    vm.setUploadQuota(bob.userId, { free: 1000, max: 500_000_000, resetDate: '2026-12-01T00:00:00+00:00' });
    const created = vm.videos().length;
    const error = failed(await publish({ containers: [{ content: 'too big', media: [await media('big.mp4')] }] }, bob));
    assert.equal(error, `vimeo: big.mp4 is ${(clip.length / 1e6).toFixed(1)} MB but the account's upload quota has 0.0 MB left; it resets on 2026-12-01T00:00:00+00:00`);
    assert.equal(vm.videos().length, created, 'no video was created');
    assert.equal(vm.requests().filter((r) => r.path === '/me' && r.query.fields === 'upload_quota').length >= 1, true);
  });

  it('Vimeo\'s own quota refusal (403 4102) fails the destination as a quota failure', async () => {
    vm.failNext({ status: 403, method: 'POST', path: '/me/videos', body: { error: 'Your upload quota has been reached.', link: null, developer_message: 'The user has reached the weekly upload quota.', error_code: 4102 } });
    const error = failed(await publish({ containers: [{ content: 'refused', media: [await media('refused.mp4')] }] }));
    assert.equal(error, 'vimeo: the account\'s upload quota is spent (Your upload quota has been reached. (4102: The user has reached the weekly upload quota.))');
  });

  it('an invalid parameter (2204: unlisted for a Vimeo Basic member) fails with Vimeo\'s words', async () => {
    const basic = await addMember('Basil Basic', 'basic');
    const error = failed(await publish({ containers: [{ content: 'x', media: [await media('basic.mp4')] }], vimeo: { privacyView: 'unlisted' } }, basic));
    assert.match(error, /^vimeo: You have provided an invalid parameter\. .* \(2204: The parameter "privacy\.view" cannot be unlisted for a Vimeo Basic member\.\)$/);
  });

  it('over the rate limit: the 429 is retried at X-RateLimit-Reset, an ISO date', async () => {
    const carol = await addMember('Carol Busy');
    vm.setRateLimit({ limit: 1, windowMs: 120_000 });
    try {
      const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [carol.id], containers: [{ content: 'busy', media: [await media('busy.mp4')] }] } });
      const target = await waitForRetry(created.body.post.id);
      assert.equal(target.status, 'pending');
      assert.match(target.error, /^vimeo: rate limited \(Too many API requests\. Please wait and try again\. \(9000: The rate limit for this user was exceeded\.\)\)$/);
      const inMs = new Date(target.due_at).getTime() - Date.now();
      assert.ok(inMs > 100_000 && inMs <= 121_000, `due again in ${inMs} ms: at the window's reset, 2 minutes after the first call`);
      const refused = vm.requests().filter((r) => r.path === '/me/videos').length;
      assert.equal(vm.videos().filter((v) => v.ownerId === carol.userId).length, 0, `nothing created (${refused} creations seen)`);
    } finally {
      vm.setRateLimit({ limit: 1000, windowMs: 60_000 });
    }
  });

  it('a 429 in the middle (on the transcode status) is waited out, and the same video is resumed', async () => {
    const reset = new Date(Date.now() + 2000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    vm.failNext({ status: 429, method: 'GET', path: '/videos/', headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset } });
    const post = await publish({ containers: [{ content: 'paced', media: [await media('paced.mp4')] }], vimeo: { title: 'Paced' } });
    const video = published(post);
    assert.equal(vm.videos().filter((v) => v.name === 'Paced').length, 1, 'one video');
    assert.equal(vm.patches().filter((p) => p.videoId === video.id).length, 1, 'its bytes sent once');
    const { rows } = await h.server.db.query(`SELECT a.error FROM attempts a JOIN targets t ON t.id = a.target_id WHERE t.post_id = $1 AND a.outcome = 'retry'`, [decodeId(post.id)]);
    assert.match(rows[0].error, /^vimeo: rate limited \(Too many API requests/);
  });

  it('a chunk answered with a 5xx is sent again from the offset HEAD reports, into the same video', async () => {
    const bytes = await paddedVideo(20 * MiB);
    const file = await media('flaky.mp4', bytes);
    vm.failNext({ status: 503, method: 'PATCH', path: '/tus/files/' });
    const post = await publish({ containers: [{ content: 'flaky', media: [file] }], vimeo: { title: 'Flaky' } });
    const video = published(post);
    assert.equal(vm.videos().filter((v) => v.name === 'Flaky').length, 1, 'one video');
    assert.equal(video.sha256, sha256(bytes));
    const patches = vm.patches().filter((p) => p.videoId === video.id || p.status === 503);
    assert.deepEqual(patches.map((p) => [p.uploadOffset, p.status, p.received]), [['0', 503, 0], ['0', 204, CHUNK], [String(CHUNK), 204, 4 * MiB]]);
    assert.deepEqual(vm.heads().filter((x) => x.videoId === video.id).map((x) => x.uploadOffset), [0, 0, CHUNK], 'the retry asked first');
    const { rows } = await h.server.db.query(`SELECT a.outcome, a.error FROM attempts a JOIN targets t ON t.id = a.target_id WHERE t.post_id = $1 AND a.outcome = 'retry'`, [decodeId(post.id)]);
    assert.match(rows[0].error, /^vimeo: server error 503/);
  });

  it('a revoked token (8003) fails the destination and disconnects the account', async () => {
    const dan = await addMember('Dan Revoked');
    vm.revokeUser(dan.userId);
    const error = failed(await publish({ containers: [{ content: 'never', media: [await media('never.mp4')] }] }, dan));
    assert.match(error, /^vimeo: the access token was refused \(The user credentials are invalid\. \(8003: .*\)\); reconnect the account/);
    const listed = await h.server.request('GET', `/v1/social-accounts/${dan.id}`, { key: org.key });
    assert.equal(listed.body.data.isActive, 0);
    assert.equal(vm.videos().filter((v) => v.ownerId === dan.userId).length, 0);
  });

  it('a root without exactly one video is refused at creation, naming the account, before any call to Vimeo', async () => {
    const image = { url: `${h.stack.media.url}/cat.png`, filename: 'cat.png' };
    const file = await media('alone.mp4');
    const videosBefore = vm.videos().length;
    const refusal = async (body: object) => {
      const res = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [ada.id], ...body } });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.details.length, 1);
      assert.equal(res.body.details[0].field, 'socialAccounts[0]');
      return res.body.details[0].message;
    };
    assert.equal(await refusal({ content: 'text alone' }), 'vimeo: the first container has 0 media; Vimeo publishes exactly one video');
    assert.equal(await refusal({ containers: [{ content: 'a picture', media: [image] }] }), 'vimeo: cat.png is an image; Vimeo publishes exactly one video');
    assert.equal(await refusal({ containers: [{ content: 'two', media: [file, file] }] }), 'vimeo: the first container has 2 media; Vimeo publishes exactly one video');
    assert.equal(vm.videos().length, videosBefore, 'nothing was created on Vimeo');
  });

  it('what Vimeo cannot publish in later containers is refused at creation, field by field', async () => {
    const image = { url: `${h.stack.media.url}/cat.png`, filename: 'cat.png' };
    const refused = async (body: object) => {
      const res = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [ada.id], ...body } });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      return (res.body.details as { field: string }[]).map((d) => d.field).sort();
    };
    const file = await media('ok.mp4');
    assert.deepEqual(await refused({ containers: [{ content: 'root', media: [file] }, { content: 'media', media: [image] }] }), ['containers[1].media']);
    assert.deepEqual(await refused({ containers: [{ content: 'root', media: [file] }, { media: [image] }] }), ['containers[1].content', 'containers[1].media']);
    assert.deepEqual(await refused({ containers: [{ content: 'root', media: [file] }], vimeo: { privacyView: 'password' } }), ['vimeo.privacyView']);
  });

  async function waitForRetry(postId: string) {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const { rows } = await h.server.db.query(
        `SELECT t.status, t.due_at, a.error FROM targets t JOIN attempts a ON a.target_id = t.id WHERE t.post_id = $1 AND a.outcome = 'retry'`, [decodeId(postId)],
      );
      if (rows[0]) return rows[0];
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('no retry recorded');
  }
});
