// Crier's Bluesky adapter against the real reference PDS (@atproto/pds): connect with an app
// password, publish text with facets, an image with alt text and a three-container thread, then read
// every record back from the PDS and check what it stored.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestOrg } from '../../helpers/harness.ts';
import { PNG_1X1, startPublishingStack, type PublishingStack } from '../../helpers/publishing.ts';
import { pdsInstalled, startPds, INSTALL_HINT } from './pds.ts';
import { saveAccountSecrets } from '../../../src/accounts/secrets.ts';
import { decodeId } from '../../../src/core/ids.ts';
import { storedAccount } from '../../helpers/connect.ts';

type Pds = Awaited<ReturnType<typeof startPds>>;
let pds: Pds;
let stack: PublishingStack;
let org: TestOrg;
let alice: { id: string; did: string };
let bob: { did: string };

before(async () => {
  assert.ok(pdsInstalled(), INSTALL_HINT);
  pds = await startPds();
  stack = await startPublishingStack({ CRIER_BLUESKY_SERVICE: pds.url });
  org = await stack.server.createOrg();
  const a = await pds.createAccount('alice.test', 'alice-main-password');
  bob = await pds.createAccount('bob.test', 'bob-main-password');
  const appPassword = await pds.createAppPassword('alice.test', 'alice-main-password', 'crier');
  const res = await stack.server.request('POST', '/v1/social-accounts/bluesky', { key: org.key, body: { handle: 'alice.test', appPassword } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.username, 'alice.test');
  assert.equal(res.body.data.network_unique_id, a.did);
  alice = { id: res.body.data.id, did: a.did };
});

after(async () => {
  await stack?.close();
  await pds?.stop();
});

async function publish(body: object) {
  const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [alice.id], ...body } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const post = await stack.waitForPost(org, res.body.post.id, undefined, 30_000);
  assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
  return post;
}

const rkeyOf = (uri: string) => uri.split('/').pop()!;

test('a wrong app password is refused by the real PDS: 400 on appPassword', async () => {
  const res = await stack.server.request('POST', '/v1/social-accounts/bluesky', { key: org.key, body: { handle: 'alice.test', appPassword: 'aaaa-bbbb-cccc-dddd' } });
  assert.equal(res.status, 400);
  assert.equal(res.body.details[0].field, 'appPassword');
});

test('text with a mention and a link becomes facets with UTF-8 byte offsets', async () => {
  const text = 'Héllo ✨ @bob.test see https://example.com/a?b=1';
  const post = await publish({ content: text });
  const target = post.socialAccounts[0];
  assert.equal(target.platformPostUrl, `https://bsky.app/profile/alice.test/post/${rkeyOf(target.platformPostId)}`);
  const record = await pds.getRecord(target.platformPostId);
  assert.equal(record.value.text, text);
  const bytes = Buffer.from(text, 'utf8');
  const facets = record.value.facets as { index: { byteStart: number; byteEnd: number }; features: any[] }[];
  const mention = facets.find((f) => f.features[0].$type === 'app.bsky.richtext.facet#mention')!;
  assert.equal(mention.features[0].did, bob.did);
  assert.equal(bytes.subarray(mention.index.byteStart, mention.index.byteEnd).toString('utf8'), '@bob.test');
  const link = facets.find((f) => f.features[0].$type === 'app.bsky.richtext.facet#link')!;
  assert.equal(link.features[0].uri, 'https://example.com/a?b=1');
  assert.equal(bytes.subarray(link.index.byteStart, link.index.byteEnd).toString('utf8'), 'https://example.com/a?b=1');
});

test('an image is uploaded as a blob with its alt text', async () => {
  const post = await publish({ containers: [{ content: 'a cat', media: [{ url: `${stack.media.url}/cat.png`, filename: 'cat.png', altText: 'A very small cat' }] }] });
  const record = await pds.getRecord(post.socialAccounts[0].platformPostId);
  const image = record.value.embed.images[0];
  assert.equal(record.value.embed.$type, 'app.bsky.embed.images');
  assert.equal(image.alt, 'A very small cat');
  assert.equal(image.image.mimeType, 'image/png');
  const blob = await pds.getBlob(alice.did, image.image.ref.$link);
  assert.deepEqual(blob.bytes, PNG_1X1);
});

test('a three-container thread: the replies point at the root, in order', async () => {
  const post = await publish({ containers: [{ content: 'thread root' }, { content: 'second' }, { content: 'third' }] });
  const root = await pds.getRecord(post.socialAccounts[0].platformPostId);
  assert.equal(root.value.text, 'thread root');
  assert.equal(root.value.reply, undefined);
  const all = await pds.listRecords(alice.did, 'app.bsky.feed.post');
  const replies = all.filter((r: any) => r.value.reply?.root?.uri === root.uri);
  assert.deepEqual(replies.map((r: any) => r.value.text).sort(), ['second', 'third']);
  for (const reply of replies) {
    assert.deepEqual(reply.value.reply, { root: { uri: root.uri, cid: root.cid }, parent: { uri: root.uri, cid: root.cid } });
  }
});

test('over 300 graphemes fails before anything reaches the PDS', async () => {
  const before = (await pds.listRecords(alice.did, 'app.bsky.feed.post')).length;
  const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [alice.id], content: 'a'.repeat(301) } });
  const post = await stack.waitForPost(org, res.body.post.id);
  assert.equal(post.socialAccounts[0].status, 'failed');
  assert.match(post.socialAccounts[0].error, /301 characters/);
  assert.equal((await pds.listRecords(alice.did, 'app.bsky.feed.post')).length, before);
});

test('a stored session the PDS no longer takes: the adapter logs in again with the app password, publishes once, and keeps the new session', async () => {
  const rawId = decodeId(alice.id)!;
  // What a session revoked at the PDS (or a refresh token long expired) looks like to Crier.
  await saveAccountSecrets(stack.server.db, stack.server.box, rawId, { accessToken: 'not-a-valid-jwt', refreshToken: 'not-a-valid-jwt-either' });
  const post = await publish({ content: 'after the session was lost' });
  const record = await pds.getRecord(post.socialAccounts[0].platformPostId);
  assert.equal(record.value.text, 'after the session was lost');
  const texts = (await pds.listRecords(alice.did, 'app.bsky.feed.post')).map((r: any) => r.value.text);
  assert.equal(texts.filter((t: string) => t === 'after the session was lost').length, 1);
  const stored = await storedAccount(stack.server, rawId);
  assert.equal(stored.active, true);
  assert.notEqual(stored.access, 'not-a-valid-jwt', 'the new session is stored');
  assert.match(stored.access!, /^eyJ/);
});


test('engagement on the real PDS: remove deletes every record of a thread, then finds it absent; reads need an AppView', async () => {
  const { blueskyCapabilities } = await import('../../../src/networks/bluesky/capabilities.ts');
  const caps = blueskyCapabilities(pds.url);
  const post = await publish({ containers: [{ content: 'soon removed' }, { content: 'its second part' }] });
  const rootUri = post.socialAccounts[0].platformPostId as string;
  const replies = (await pds.listRecords(alice.did, 'app.bsky.feed.post')).filter((r: any) => r.value.reply?.root?.uri === rootUri);
  assert.equal(replies.length, 1);
  const parts = [rootUri, replies[0].uri].map((uri: string) => ({ platformId: uri, url: '' }));
  const published = { root: parts[0]!, parts, block: {} };
  const appPassword = await pds.createAppPassword('alice.test', 'alice-main-password', 'engagement');
  const session = {
    account: { id: 1, orgId: 1, network: 'bluesky' as const, username: 'alice.test', networkUniqueId: alice.did, serviceUrl: pds.url, accessToken: null, refreshToken: null, credential: appPassword },
    saveTokens: async () => {},
    userFetch: fetch,
  };
  assert.equal(await caps.remove!(session, published), 'removed');
  const left = (await pds.listRecords(alice.did, 'app.bsky.feed.post')).map((r: any) => r.uri);
  assert.ok(!left.includes(rootUri) && !left.includes(replies[0].uri));
  // The PDS answers a delete of a missing record without a commit.
  assert.equal(await caps.remove!(session, published), 'absent');
  // Thread reads are the AppView's: a PDS without one says so, as a permanent refusal.
  await assert.rejects(caps.comments!.list(session, published, { includeReplies: false, resolveAuthorNames: false }), /bluesky: InvalidRequest: No service configured for app\.bsky\.feed\.getPostThread/);
});
