// Publishing to Threads over real HTTP: Crier's API and worker (the registry's Threads adapter), the
// Threads emulator as the network — which fetches the media URLs it is given, from Crier behind its
// HTTPS front or from another HTTPS host — and what Crier reports. Each test checks what Threads
// received (containers, their parameters, the publish calls and their order) and what was published.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startThreadsEmulator, type ThreadsEmulator } from '../../../emulators/threads/server.ts';
import { THREADS_SCOPES } from '../../../src/networks/threads/oauth.ts';
import { createThreadsAdapter } from '../../../src/networks/threads/adapter.ts';
import type { PublishError } from '../../../src/core/errors.ts';
import type { PublishInput } from '../../../src/networks/contract.ts';
import { decodeId } from '../../../src/core/ids.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';
import { makeJpeg, makeVideo, startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';
import { until } from '../../helpers/until.ts';

const CLIENT_ID = 'crier-threads';

describe('publishing to Threads', () => {
  let th: ThreadsEmulator;
  let h: MediaHarness & { stack: PublishingStack };
  let org: TestOrg;
  let ada: TestAccount & { userId: string };

  const addProfile = async (username: string) => {
    const user = th.addUser({ username });
    const token = th.issueLongLived(user.id, CLIENT_ID, THREADS_SCOPES);
    return { ...(await h.server.addAccount(org, 'threads', username, { networkUniqueId: user.id, accessToken: token })), userId: user.id };
  };

  before(async () => {
    th = await startThreadsEmulator();
    h = await startMediaPublishing({ CRIER_THREADS_BASE_URL: th.url });
    th.trustCa(h.front.ca);
    th.trustCa(h.stack.media.ca);
    org = await h.server.createOrg();
    ada = await addProfile('ada');
  });
  after(async () => {
    await h.close();
    await th.close();
  });

  const create = async (body: object) => {
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.post.id as string;
  };
  const publish = async (body: object) => h.stack.waitForPost(org, await create(body), undefined, 30_000);
  const publishedOf = (post: any, index = 0) => {
    const destination = post.socialAccounts[index];
    assert.equal(destination.status, 'published', destination.error);
    return th.published().find((p) => p.id === destination.platformPostId)!;
  };
  const publishCalls = () => th.calls().filter((c) => c.method === 'POST' && c.path.endsWith('/threads_publish'));
  const containerCalls = () => th.calls().filter((c) => c.method === 'POST' && c.path.endsWith('/threads'));

  it('a thread: the root with threads.content, reply_control and countries; later containers replies to the root, in order', async () => {
    const post = await publish({
      accounts: [ada.id],
      containers: [{ content: 'shared root text' }, { content: 'first reply' }, { content: 'second reply' }],
      threads: { content: 'Threads root text', reply_control: 'mentioned_only', countries: ['US', 'CA'] },
    });
    const root = publishedOf(post);
    assert.equal(root.text, 'Threads root text');
    assert.equal(root.mediaType, 'TEXT_POST');
    assert.equal(root.replyControl, 'mentioned_only');
    assert.deepEqual(root.allowlistedCountryCodes, ['US', 'CA']);
    assert.equal(root.replyToId, undefined);
    assert.equal(post.socialAccounts[0].platformPostUrl, root.permalink);
    assert.match(root.permalink, /^https:\/\/www\.threads\.com\/@ada\/post\/[\w-]+$/);
    const replies = th.published().filter((p) => p.rootId === root.id && p.id !== root.id);
    assert.deepEqual(replies.map((r) => [r.text, r.replyToId, r.replyControl, r.allowlistedCountryCodes]), [
      ['first reply', root.id, 'everyone', undefined], ['second reply', root.id, 'everyone', undefined],
    ]);
    assert.ok(replies[0]!.publishedAt <= replies[1]!.publishedAt);
  });

  it('an image from another HTTPS host, with its alt text: Threads fetched it by URL', async () => {
    const url = `${h.stack.media.url}/cat.png`;
    const post = await publish({ accounts: [ada.id], containers: [{ content: 'A cat', media: [{ url, filename: 'cat.png', altText: 'a tiny cat' }] }] });
    const sent = publishedOf(post);
    assert.equal(sent.mediaType, 'IMAGE');
    assert.deepEqual(sent.media, [{ mediaType: 'IMAGE', url, altText: 'a tiny cat', mime: 'image/png' }]);
    assert.equal(sent.text, 'A cat');
    const created = containerCalls().find((c) => c.params.image_url === url)!;
    assert.deepEqual({ media_type: created.params.media_type, alt_text: created.params.alt_text }, { media_type: 'IMAGE', alt_text: 'a tiny cat' });
  });

  it('a video uploaded to Crier: fetched from Crier\'s public URL, polled while IN_PROGRESS, published once FINISHED', async () => {
    const video = await makeVideo({ seconds: 1, size: '160x120', rate: 25 });
    const media = await h.upload(org, 'clip.mp4', video, 'video/mp4');
    const post = await publish({ accounts: [ada.id], containers: [{ content: 'A clip', media: [{ url: media.url, filename: 'clip.mp4' }] }] });
    const sent = publishedOf(post);
    assert.equal(sent.mediaType, 'VIDEO');
    assert.equal(sent.media[0]!.mime, 'video/mp4');
    assert.ok(sent.media[0]!.url.startsWith(h.front.url), `fetched from Crier: ${sent.media[0]!.url}`);
    const polls = th.calls().filter((c) => c.method === 'GET' && c.path.endsWith(`/${sent.containerId}`));
    assert.ok(polls.length >= 2, `the status was asked until FINISHED (${polls.length} polls)`);
    assert.ok(polls.every((c) => c.params.fields === 'status,error_message'));
    assert.equal(publishCalls().filter((c) => c.params.creation_id === sent.containerId).length, 1);
  });

  it('a carousel of images and a video: item containers in order, polled until all are FINISHED, then the carousel with its children and text, published as one post', async () => {
    const jpeg = await makeJpeg('64x64');
    const media = await h.upload(org, 'a.jpg', jpeg, 'image/jpeg');
    const clip = await h.upload(org, 'c.mp4', await makeVideo({ seconds: 1, size: '160x120', rate: 25 }), 'video/mp4');
    const other = `${h.stack.media.url}/cat.png`;
    const post = await publish({ accounts: [ada.id], containers: [{ content: 'Two pictures and a clip', media: [
      { url: media.url, filename: 'a.jpg', altText: 'first' }, { url: other, filename: 'cat.png', altText: 'second' }, { url: clip.url, filename: 'c.mp4', altText: 'third' },
    ] }] });
    const sent = publishedOf(post);
    assert.equal(sent.mediaType, 'CAROUSEL_ALBUM');
    assert.deepEqual(sent.media.map((m) => [m.mediaType, m.altText, m.mime]), [['IMAGE', 'first', 'image/jpeg'], ['IMAGE', 'second', 'image/png'], ['VIDEO', 'third', 'video/mp4']]);
    const carousel = th.containers().find((c) => c.id === sent.containerId)!;
    const items = carousel.children.map((id) => th.containers().find((c) => c.id === id)!);
    assert.ok(items.every((i) => i.isCarouselItem && i.text === undefined));
    assert.equal(carousel.text, 'Two pictures and a clip');
    const calls = th.calls();
    const carouselCreated = calls.findIndex((c) => c.method === 'POST' && c.params.media_type === 'CAROUSEL' && c.params.children === carousel.children.join(','));
    const videoFinished = calls.findIndex((c) => c.method === 'GET' && c.path.endsWith(`/${items[2]!.id}`) && c.status === 200);
    assert.ok(videoFinished >= 0 && videoFinished < carouselCreated, 'the items were polled before the carousel was created');
    assert.equal(publishCalls().filter((c) => items.some((i) => i.id === c.params.creation_id)).length, 0, 'items are never published on their own');
  });

  it('a container Threads fails to process fails the destination with its error_message; nothing is published', async () => {
    const video = await makeVideo({ seconds: 1, size: '160x120', rate: 25 });
    const media = await h.upload(org, 'bad.mp4', video, 'video/mp4');
    th.failNextContainer('INVALID_BIT_RATE');
    const before = th.published().length;
    const post = await publish({ accounts: [ada.id], containers: [{ content: 'Bad clip', media: [{ url: media.url, filename: 'bad.mp4' }] }] });
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.match(post.socialAccounts[0].error, /^threads: Threads could not process container \d+ \(INVALID_BIT_RATE\)$/);
    assert.equal(th.published().length, before);
  });

  it('an image URL Threads cannot fetch fails the destination with Meta\'s download error', async () => {
    const post = await publish({ accounts: [ada.id], containers: [{ content: 'Gone', media: [{ url: `${h.stack.media.url}/missing.png`, filename: 'missing.png' }] }] });
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.match(post.socialAccounts[0].error, /threads: Threads could not download the media from its URL \(Media download has failed\. .*\(code 1\/2207052\)\)/);
  });

  it('a container reported FINISHED whose publish answers "Media Not Found" is published again after a short wait, once', async () => {
    th.notFoundOnPublish(1);
    const post = await publish({ accounts: [ada.id], content: 'Found on the second try' });
    const sent = publishedOf(post);
    const calls = publishCalls().filter((c) => c.params.creation_id === sent.containerId);
    assert.deepEqual(calls.map((c) => c.status), [400, 200]);
    assert.equal(th.published().filter((p) => p.text === 'Found on the second try').length, 1);
  });

  it('"Media Not Found" on every try is given up after three more publishes, failing the destination', async () => {
    th.notFoundOnPublish(4);
    const post = await publish({ accounts: [ada.id], content: 'Never found' });
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.match(post.socialAccounts[0].error, /^threads: Threads reported container \d+ ready but answered "Media Not Found" to 4 publish attempts \(The requested resource does not exist: The media with id \d+ cannot be found\. \(code 24\/4279009\)\)$/);
    const container = th.containers().find((c) => c.text === 'Never found')!;
    assert.deepEqual(publishCalls().filter((c) => c.params.creation_id === container.id).map((c) => c.status), [400, 400, 400, 400]);
    assert.equal(th.published().filter((p) => p.text === 'Never found').length, 0);
  });

  it('against the real Threads, Crier media at a PUBLIC_BASE_URL the internet cannot reach is refused before any call', async () => {
    const adapter = createThreadsAdapter({ apiUrl: th.url, publicUrl: { publicBaseUrl: h.front.url, realNetwork: true } });
    const calls = th.calls().length;
    const input = {
      account: { id: 1, orgId: 1, network: 'threads', username: 'ada', networkUniqueId: ada.userId, serviceUrl: null, accessToken: 'token', refreshToken: null, credential: null },
      containers: [{ content: 'From Crier', media: [{ url: `${h.front.url}/media/x/photo.png`, filename: 'photo.png' }] }],
      block: undefined,
    } as unknown as PublishInput;
    await assert.rejects(adapter.prepare(input), (error: PublishError) => {
      assert.equal(error.kind, 'permanent');
      assert.match(error.message, /^threads: threads downloads media from Crier at https:\/\/127\.0\.0\.1:\d+, which is not a public address; set PUBLIC_BASE_URL to a public https address/);
      return true;
    });
    assert.equal(th.calls().length, calls);
  });

  it('a 5xx from threads_publish is retried: the next attempt asks the container (FINISHED, so not published) and publishes it once', async () => {
    th.failNext({ status: 500, method: 'POST', path: /\/threads_publish$/ });
    const post = await publish({ accounts: [ada.id], content: 'After a 500' });
    const sent = publishedOf(post);
    const calls = th.calls();
    const publishes = calls.map((c, i) => [c, i] as const).filter(([c]) => c.path.endsWith('/threads_publish') && c.params.creation_id === sent.containerId);
    assert.deepEqual(publishes.map(([c]) => c.status), [500, 200]);
    const [failedAt, doneAt] = [publishes[0]![1], publishes[1]![1]];
    assert.ok(calls.slice(failedAt, doneAt).some((c) => c.method === 'GET' && c.path.endsWith(`/${sent.containerId}`)), 'reconciled between the two');
    assert.equal(th.published().filter((p) => p.text === 'After a 500').length, 1);
  });

  it('a reply published by Threads whose answer was a 500 is found among the profile\'s replies, not published again', async () => {
    th.loseNextPublishAnswer('the lost reply');
    const post = await publish({ accounts: [ada.id], containers: [{ content: 'root of a lost answer' }, { content: 'the lost reply' }, { content: 'after it' }] });
    const root = publishedOf(post);
    const replies = th.published().filter((p) => p.rootId === root.id && p.id !== root.id);
    assert.deepEqual(replies.map((r) => [r.text, r.replyToId]), [['the lost reply', root.id], ['after it', root.id]]);
    const lost = replies[0]!;
    assert.deepEqual(publishCalls().filter((c) => c.params.creation_id === lost.containerId).map((c) => c.status), [500], 'one publish, answered 500');
    assert.ok(th.calls().some((c) => c.method === 'GET' && c.path.endsWith('/replies')), 'the replies were searched');
    const { rows } = await h.server.db.query(
      `SELECT p.position, p.platform_id FROM target_parts p JOIN targets t ON t.id = p.target_id WHERE t.post_id = $1 ORDER BY p.position`, [decodeId(post.id)],
    );
    assert.deepEqual(rows.map((r) => r.platform_id), [root.id, lost.id, replies[1]!.id]);
  });

  it('a lost answer Threads cannot disambiguate (the same text posted twice in the window) ends unknown, not posted again', async () => {
    publishedOf(await publish({ accounts: [ada.id], content: 'Said twice' }));
    th.loseNextPublishAnswer('Said twice');
    const post = await publish({ accounts: [ada.id], content: 'Said twice' });
    assert.equal(post.socialAccounts[0].status, 'unknown');
    assert.match(post.socialAccounts[0].error, /^threads: could not tell whether container 1 is already posted \(2 posts since then have the same text\); check the account before posting it again$/);
    assert.equal(th.published().filter((p) => p.text === 'Said twice').length, 2, 'the second was published once, by the lost call');
  });

  it('a post with more than 5 links is refused by Threads with a clear, permanent error', async () => {
    const links = Array.from({ length: 6 }, (_, i) => `https://example.com/${i}`).join(' ');
    const post = await publish({ accounts: [ada.id], content: `Links: ${links}` });
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.match(post.socialAccounts[0].error, /^threads: Threads refuses posts with more than 5 links; remove some links \(.*LINK_LIMIT_EXCEEDED/);
    assert.deepEqual(containerCalls().filter((c) => c.params.text === `Links: ${links}`).map((c) => c.status), [400], 'refused at container creation, not retried');
    assert.equal(th.published().filter((p) => p.text === `Links: ${links}`).length, 0);
  });

  it('a spent 250-posts limit retries when the oldest post of the moving 24 h leaves it, with the reason, without calling threads_publish', async () => {
    const bob = await addProfile('bob_busy');
    th.usePublishingQuota(bob.userId, 1, { agoMs: 23 * 3600_000 }); // ages out in an hour
    th.usePublishingQuota(bob.userId, 249, { agoMs: 3600_000 });
    const publishes = publishCalls().length;
    const postId = await create({ accounts: [bob.id], content: 'Over the limit' });
    const target = await until(async () => {
      const { rows } = await h.server.db.query(
        `SELECT t.status, t.due_at, a.error FROM targets t JOIN attempts a ON a.target_id = t.id WHERE t.post_id = $1 AND a.outcome = 'retry'`, [decodeId(postId)],
      );
      return rows[0];
    });
    assert.equal(target.status, 'pending');
    assert.match(target.error, /^threads: the profile has published 250 of the 250 posts Threads allows per 24 h \(a moving window\); the oldest of them ages out at \S+Z: trying again then$/);
    const dueIn = new Date(target.due_at).getTime() - Date.now();
    assert.ok(dueIn > 55 * 60_000 && dueIn <= 60 * 60_000, `due in ${dueIn} ms`);
    const freesAt = Date.parse(/ages out at (\S+Z)/.exec(target.error)![1]!);
    assert.ok(Math.abs(freesAt - new Date(target.due_at).getTime()) < 5_000, 'due when it said');
    assert.equal(publishCalls().length, publishes);
  });

  it('throttling (Meta code 4) is retried with the wait; the post is published once', async () => {
    th.failNext({ status: 400, method: 'POST', path: /\/threads_publish$/, body: { error: { message: '(#4) Application request limit reached', type: 'OAuthException', code: 4, is_transient: true, fbtrace_id: 'x' } }, headers: { 'x-business-use-case-usage': JSON.stringify({ [ada.userId]: [{ type: 'threads', call_count: 100, total_cputime: 10, total_time: 10, estimated_time_to_regain_access: 0 }] }) } });
    const postId = await create({ accounts: [ada.id], content: 'Throttled once' });
    // Meta's wait is minutes: the test moves the retry to now once it is scheduled.
    const targetId = await until(async () => {
      const { rows } = await h.server.db.query(`SELECT t.id, a.error FROM targets t JOIN attempts a ON a.target_id = t.id WHERE t.post_id = $1 AND a.outcome = 'retry'`, [decodeId(postId)]);
      return rows[0] as { id: number; error: string } | undefined;
    });
    assert.match(targetId.error, /^threads: rate limited \(\(#4\) Application request limit reached \(code 4\)\)/);
    await h.server.db.query('UPDATE targets SET due_at = now() WHERE id = $1', [targetId.id]);
    const { notifyDue } = await import('../../../src/publishing/queue.ts');
    await notifyDue(h.server.db);
    const post = await h.stack.waitForPost(org, postId, undefined, 20_000);
    publishedOf(post);
    assert.equal(th.published().filter((p) => p.text === 'Throttled once').length, 1);
  });

  it('a revoked token (code 190) fails the destination and disconnects the account', async () => {
    const carol = await addProfile('carol_gone');
    th.revokeUser(carol.userId);
    const post = await publish({ accounts: [carol.id], content: 'Never posted' });
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.match(post.socialAccounts[0].error, /^threads: the access token was refused \(Error validating access token: The user has not authorized application\. \(code 190\/458\)\); reconnect the account/);
    const listed = await h.server.request('GET', `/v1/social-accounts/${carol.id}`, { key: org.key });
    assert.equal(listed.body.data.isActive, 0);
    assert.equal(th.published().filter((p) => p.userId === carol.userId).length, 0);
  });

  it('an expired container is created again and published', async () => {
    th.expireNextContainer();
    const post = await publish({ accounts: [ada.id], content: 'Second container' });
    const sent = publishedOf(post);
    const mine = th.containers().filter((c) => c.text === 'Second container');
    assert.deepEqual(mine.map((c) => c.status), ['EXPIRED', 'PUBLISHED']);
    assert.equal(sent.containerId, mine[1]!.id);
  });

  it('what Threads cannot publish is refused at creation, naming the account, before any call: a PDF', async () => {
    const calls = th.calls().length;
    const res = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [ada.id], containers: [{ content: 'A deck', media: [{ url: `${h.stack.media.url}/deck.pdf`, filename: 'deck.pdf' }] }] } });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.details[0].field, 'socialAccounts[0]');
    assert.match(res.body.details[0].message, /^threads: deck\.pdf is neither an image nor a video/);
    assert.equal(th.calls().length, calls);
  });
});
