// One post, a two-container thread with an image, to six networks at once over real HTTP: Instagram,
// a Facebook Page, Threads, LinkedIn, X and Bluesky, each on its emulator. Every destination is
// published, each network got the root and then its reply in the network's own form (a comment on
// Instagram, the Page and LinkedIn; a reply to the root on Threads, X and Bluesky), and one
// post.published event lists the six with their URLs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../emulators/facebook/server.ts';
import { startLinkedInEmulator, type LinkedInEmulator } from '../../emulators/linkedin/server.ts';
import { startThreadsEmulator, type ThreadsEmulator } from '../../emulators/threads/server.ts';
import { FACEBOOK_SCOPES } from '../../src/networks/facebook/oauth.ts';
import { INSTAGRAM_SCOPES } from '../../src/networks/instagram/oauth.ts';
import { LINKEDIN_SCOPES } from '../../src/networks/linkedin/oauth.ts';
import { THREADS_SCOPES } from '../../src/networks/threads/oauth.ts';
import type { TestOrg } from '../helpers/harness.ts';
import type { PublishingStack } from '../helpers/publishing.ts';
import { makeJpeg, startMediaPublishing, type MediaHarness } from '../helpers/media.ts';

const APP = { clientId: 'crier-cross', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };

let fb: FacebookEmulator;
let li: LinkedInEmulator;
let th: ThreadsEmulator;
let h: MediaHarness & { stack: PublishingStack };
let org: TestOrg;
const ids: Record<string, string> = {};
const remote: Record<string, string> = {};

before(async () => {
  [fb, li, th] = await Promise.all([startFacebookEmulator(), startLinkedInEmulator(), startThreadsEmulator()]);
  h = await startMediaPublishing({ CRIER_FACEBOOK_BASE_URL: fb.url, CRIER_INSTAGRAM_BASE_URL: fb.url, CRIER_LINKEDIN_BASE_URL: li.url, CRIER_THREADS_BASE_URL: th.url });
  for (const ca of [h.front.ca, h.stack.media.ca]) {
    fb.trustMediaCa(ca);
    th.trustCa(ca);
  }
  org = await h.server.createOrg();

  fb.addApp(APP);
  const metaUser = fb.addUser({ pages: [{ name: 'Acme', username: 'acme', instagram: { username: 'acme_ig' } }] });
  const pageId = metaUser.pageIds[0]!;
  const igToken = fb.issuePageToken(pageId, APP.clientId, INSTAGRAM_SCOPES);
  const igId = (await (await fetch(`${fb.url}/v23.0/${pageId}?fields=instagram_business_account&access_token=${igToken}`)).json() as any).instagram_business_account.id;
  ids.instagram = (await h.server.addAccount(org, 'instagram', 'acme_ig', { networkUniqueId: igId, accessToken: igToken })).id;
  ids.facebook = (await h.server.addAccount(org, 'facebook', 'acme', { networkUniqueId: pageId, accessToken: fb.issuePageToken(pageId, APP.clientId, FACEBOOK_SCOPES) })).id;

  const threadsUser = th.addUser({ username: 'ada_threads' });
  ids.threads = (await h.server.addAccount(org, 'threads', 'ada_threads', { networkUniqueId: threadsUser.id, accessToken: th.issueLongLived(threadsUser.id, APP.clientId, THREADS_SCOPES) })).id;

  li.addApp(APP);
  const member = li.addUser({ name: 'Ada Lovelace' });
  ids.linkedin = (await h.server.addAccount(org, 'linkedin', 'ada_li', { networkUniqueId: `urn:li:person:${member.sub}`, accessToken: li.oauth.issue(member.sub, APP.clientId, LINKEDIN_SCOPES).accessToken })).id;

  const xAccount = await h.stack.addXAccount(org);
  ids.x = xAccount.id;
  remote.x = xAccount.userId;
  const bluesky = await h.stack.addBlueskyAccount(org);
  ids.bluesky = bluesky.id;
  remote.bluesky = bluesky.did;
});
after(async () => {
  await h.close();
  await Promise.all([fb.close(), li.close(), th.close()]);
});

test('a two-container thread with an image to six networks: each root published, each reply in its network\'s form, one post.published listing all six', async () => {
  const image = await h.upload(org, 'photo.jpg', await makeJpeg('640x640'), 'image/jpeg');
  const networks = ['instagram', 'facebook', 'threads', 'linkedin', 'x', 'bluesky'];
  const created = await h.server.request('POST', '/v1/posts', {
    key: org.key,
    body: {
      accounts: networks.map((n) => ids[n]),
      containers: [{ content: 'One launch, six networks', media: [{ url: image.url, filename: 'photo.jpg' }] }, { content: 'and the details below' }],
    },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const post = await h.stack.waitForPost(org, created.body.post.id, undefined, 60_000);
  const by = Object.fromEntries(post.socialAccounts.map((a: any) => [a.network, a]));
  for (const network of networks) assert.equal(by[network].status, 'published', `${network}: ${by[network].error}`);

  // Each root, and its reply as the network has it.
  const ig = fb.instagram.published().find((m) => m.id === by.instagram.platformPostId)!;
  assert.equal(ig.caption, 'One launch, six networks');
  assert.deepEqual(fb.instagram.comments(ig.id).map((c) => c.text), ['and the details below']);
  const page = fb.pages.posts().find((p) => p.id === by.facebook.platformPostId)!;
  assert.equal(page.message, 'One launch, six networks');
  assert.deepEqual(fb.pages.comments(page.id).map((c) => c.message), ['and the details below']);
  const threadsRoot = th.published().find((m) => m.id === by.threads.platformPostId)!;
  assert.equal(threadsRoot.text, 'One launch, six networks');
  assert.deepEqual(th.published().filter((m) => m.replyToId === threadsRoot.id).map((m) => m.text), ['and the details below']);
  assert.ok(li.posts().some((p) => p.urn === by.linkedin.platformPostId));
  assert.deepEqual(li.comments(by.linkedin.platformPostId).map((c) => c.text), ['and the details below']);
  const tweets = h.stack.x.tweets().filter((t) => t.authorId === remote.x);
  assert.deepEqual(tweets.map((t) => [t.text, t.inReplyToTweetId ?? null]), [['One launch, six networks', null], ['and the details below', by.x.platformPostId]]);
  const records = h.stack.bsky.records(remote.bluesky).filter((r) => r.collection === 'app.bsky.feed.post');
  assert.deepEqual(records.map((r) => r.value.text), ['One launch, six networks', 'and the details below']);
  assert.equal((records[1]!.value.reply as any).root.uri, by.bluesky.platformPostId);

  // One event for the post, naming the six with their public URLs.
  const events = (await h.stack.events(org.orgId)).filter((e) => e.data.postId === created.body.post.id);
  assert.deepEqual(events.map((e) => e.type), ['post.published']);
  const listed = events[0]!.data.socialAccounts as { network: string; platformPostId: string; platformPostUrl: string }[];
  assert.deepEqual(listed.map((a) => a.network).sort(), [...networks].sort());
  for (const entry of listed) {
    assert.equal(entry.platformPostId, by[entry.network].platformPostId);
    assert.match(entry.platformPostUrl, /^https:\/\//, entry.network);
  }
});
