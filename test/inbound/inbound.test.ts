// /inbound/instagram over real HTTP, with the Facebook emulator sending Meta's signed webhooks to a
// started Crier: the subscription handshake with the verify token shown on the app's record (and the
// managed app's), deliveries signed wrongly or not at all refused and not stored, and comments turned
// into comment.received once each — field by field as the spec says — whatever the redeliveries.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { encodeId } from '../../src/core/ids.ts';
import { seedPublishedPost, startInboundStack, type InboundStack } from '../helpers/inbound.ts';

let s: InboundStack;
before(async () => {
  s = await startInboundStack({ env: { CRIER_INSTAGRAM_CLIENT_ID: 'operator-app', CRIER_INSTAGRAM_CLIENT_SECRET: 'operator-secret' } });
});
after(() => s.close());

const handshake = (token: string, challenge = '1158201444') =>
  fetch(`${s.server.url}/inbound/instagram?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=${challenge}`)
    .then(async (r) => ({ status: r.status, text: await r.text() }));

const storedDeliveries = async () => (await s.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM inbound_deliveries')).rows[0]!.n;

describe('the subscription handshake', () => {
  test("the app's record shows the callback URL and verify token; Meta's handshake with it echoes the challenge", async () => {
    const app = await s.server.request('GET', `/v1/social-networks/${s.appId}`, { key: s.org.key });
    assert.equal(app.status, 200);
    const { callback_url: callbackUrl, verify_token: token } = app.body.data.inbound;
    assert.equal(callbackUrl, `${s.server.config.publicBaseUrl}/inbound/instagram`);
    assert.match(token, /^[0-9a-f]{64}$/);
    assert.deepEqual(await handshake(token), { status: 200, text: '1158201444' });
    const listed = await s.server.request('GET', '/v1/social-networks', { key: s.org.key });
    assert.equal(listed.body.data[0].inbound.verify_token, token);
  });

  test('an unknown verify token is refused (403); the managed app has its own token, derived from its secret', async () => {
    assert.equal((await handshake('not-a-token')).status, 403);
    const managed = createHmac('sha256', 'operator-secret').update('crier-inbound-verify-token:instagram').digest('hex');
    assert.deepEqual(await handshake(managed, '42'), { status: 200, text: '42' });
  });

  test('a network without inbound webhooks, or no network at all: 404', async () => {
    for (const path of ['/inbound/x', '/inbound/nope']) {
      const res = await fetch(`${s.server.url}${path}?hub.mode=subscribe&hub.verify_token=t&hub.challenge=1`);
      assert.equal(res.status, 404, path);
      const posted = await fetch(`${s.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(posted.status, 404, path);
    }
  });
});

describe('signatures', () => {
  test('unsigned and wrongly signed deliveries are refused with 403 and nothing is stored or emitted', async () => {
    const contact = s.fb.instagramMessaging.addContact({ username: 'mallory' });
    const before = await storedDeliveries();
    const unsigned = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799000001', from: contact.id, text: 'unsigned', signing: 'none' });
    assert.equal(unsigned.delivery.status, 403);
    assert.equal(JSON.parse(unsigned.delivery.responseText).code, 'invalid_signature');
    const wrong = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799000001', from: contact.id, text: 'wrong', signing: 'wrong' });
    assert.equal(wrong.delivery.status, 403);
    assert.equal(await storedDeliveries(), before);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(await s.events(['comment.received']), []);
  });

  test("another org's app secret cannot sign for this org's account", async () => {
    const other = await s.server.createOrg();
    await s.server.request('POST', '/v1/social-networks', { key: other.key, body: { network: 'instagram', client_key: 'other-app', client_secret: 'other-secret-5678' } });
    // The other org connected the same Instagram account through its own app.
    await s.server.addAccount(other, 'instagram', 'shared', { networkUniqueId: s.igId, accessToken: 'unused' });
    const contact = s.fb.instagramMessaging.addContact();
    s.fb.instagramMessaging.subscribe(`${s.server.url}/inbound/instagram`, 'other-secret-5678');
    try {
      const { delivery } = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799000002', from: contact.id, text: 'for the other org' });
      assert.equal(delivery.status, 200);
      await s.settled();
      const theirs = await s.server.db.query('SELECT data FROM events WHERE org_id = $1 AND type = $2', [other.orgId, 'comment.received']);
      assert.equal(theirs.rows.length, 1);
      assert.deepEqual((await s.events(['comment.received'])).filter((e) => e.data.text === 'for the other org'), [], 'not emitted for the org whose app did not sign');
    } finally {
      s.fb.instagramMessaging.subscribe(`${s.server.url}/inbound/instagram`, 'meta-app-secret-1234');
    }
  });
});

describe('the managed app', () => {
  test("an account connected through the operator's app is verified with that app's secret, not the org's", async () => {
    const { account, igId } = await s.addInstagram('managed_brand', false, s.org, true);
    const contact = s.fb.instagramMessaging.addContact();
    const orgSigned = await s.fb.instagramMessaging.comment({ igUserId: igId, mediaId: '1799700001', from: contact.id, text: 'signed by the org app' });
    assert.equal(orgSigned.delivery.status, 403, "the org's registered app did not connect this account");
    s.fb.instagramMessaging.subscribe(`${s.server.url}/inbound/instagram`, 'operator-secret');
    try {
      const { comment, delivery } = await s.fb.instagramMessaging.comment({ igUserId: igId, mediaId: '1799700001', from: contact.id, text: 'signed by the operator app' });
      assert.equal(delivery.status, 200);
      await s.settled();
      const [event] = (await s.events(['comment.received'])).filter((e) => e.data.commentId === comment.id);
      assert.equal(event!.data.accountId, account.id);
    } finally {
      s.fb.instagramMessaging.subscribe(`${s.server.url}/inbound/instagram`, 'meta-app-secret-1234');
    }
  });
});

describe('comment.received', () => {
  test('a comment by someone else on a post published through Crier: every field of the spec, once despite a redelivery', async () => {
    const postId = await seedPublishedPost(s.server, s.org, s.account.rawId, ['1799100001', '1799100002']);
    const contact = s.fb.instagramMessaging.addContact({ username: 'jane_doe' });
    const { comment, delivery } = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799100001', from: contact.id, text: 'Love it — très "bien" / 10' });
    assert.equal(delivery.status, 200);
    assert.match(delivery.body, /\\u00e8s/, 'Meta escapes non-ASCII: the signature is over those bytes');
    const again = await s.fb.instagramMessaging.redeliver();
    assert.equal(again.status, 200);
    await s.settled();
    const events = (await s.events(['comment.received'])).filter((e) => e.data.commentId === comment.id);
    assert.equal(events.length, 1, 'a redelivery emits nothing more');
    assert.deepEqual(events[0]!.data, {
      orgId: encodeId(s.org.orgId),
      network: 'instagram',
      accountId: s.account.id,
      postId,
      platformPostId: '1799100001',
      commentId: comment.id,
      parentCommentId: null,
      authorId: contact.id,
      authorUsername: 'jane_doe',
      text: 'Love it — très "bien" / 10',
      author: null,
    });
    const listed = await s.server.request('GET', `/v1/social-accounts?id=${s.account.id}`, { key: s.org.key });
    assert.equal(listed.body.data[0].id, events[0]!.data.accountId, 'accountId is the id GET /v1/social-accounts returns');
  });

  test('a comment whose text holds a NUL or a lone surrogate: emitted with U+FFFD in their place, the delivery processed', async () => {
    const contact = s.fb.instagramMessaging.addContact({ username: 'nul_fan' });
    const { comment, delivery } = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799100009', from: contact.id, text: 'a\u0000b\ud800c' });
    assert.equal(delivery.status, 200);
    await s.settled();
    const [event] = (await s.events(['comment.received'])).filter((e) => e.data.commentId === comment.id);
    assert.equal(event?.data.text, 'a\uFFFDb\uFFFDc');
  });

  test('a reply on a media Crier did not publish: postId null, parentCommentId set', async () => {
    const contact = s.fb.instagramMessaging.addContact({ username: 'replier' });
    const { comment } = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799200001', from: contact.id, text: 'agreed', parentId: '1790000777' });
    await s.settled();
    const [event] = (await s.events(['comment.received'])).filter((e) => e.data.commentId === comment.id);
    assert.equal(event!.data.postId, null);
    assert.equal(event!.data.parentCommentId, '1790000777');
    assert.equal(event!.data.platformPostId, '1799200001');
  });

  test("the account's own comments (API replies or from the app) are never emitted", async () => {
    const { comment, delivery } = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799100001', from: s.igId, text: 'thanks!' });
    assert.equal(delivery.status, 200);
    await s.settled();
    assert.deepEqual((await s.events(['comment.received'])).filter((e) => e.data.commentId === comment.id), []);
  });

  test('author: null until the commenter has messaged the account, then their profile as the network shows it', async () => {
    const contact = s.fb.instagramMessaging.addContact({ username: 'fan', followerCount: 5120, isVerified: true, followsAccount: true, followedByAccount: false });
    const first = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799300001', from: contact.id, text: 'first' });
    await s.settled();
    await s.fb.instagramMessaging.message({ igUserId: s.igId, from: contact.id, text: 'hello in DM' });
    await s.settled();
    const second = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799300001', from: contact.id, text: 'second' });
    await s.settled();
    const byId = new Map((await s.events(['comment.received'])).map((e) => [e.data.commentId, e.data]));
    assert.equal(byId.get(first.comment.id).author, null);
    assert.deepEqual(byId.get(second.comment.id).author, { isFollower: true, isFollowedByAccount: false, followerCount: 5120, isVerified: true });
    const lookups = s.fb.instagramMessaging.calls().filter((c) => c.method === 'GET' && c.path === `/${contact.id}`);
    assert.ok(lookups.length >= 1);
    assert.match(String((lookups[0]!.body as { fields: string }).fields), /is_user_follow_business/);
  });

  test('a delivery for an account no org connected is acknowledged and ignored', async () => {
    const before = await storedDeliveries();
    const contact = s.fb.instagramMessaging.addContact();
    const { delivery } = await s.fb.instagramMessaging.comment({ igUserId: '17840000999999', mediaId: '1', from: contact.id, text: 'nobody' });
    assert.equal(delivery.status, 200);
    assert.equal(await storedDeliveries(), before);
  });
});
