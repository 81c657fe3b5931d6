// /inbound/:network is unauthenticated until the signature is checked: what a stranger sends there is
// never a 500 (a NUL character in an account id used to fail the account lookup), and a genuinely
// signed delivery sent again (Meta's signature covers the body only: no timestamp, no delivery id, so
// a captured delivery stays valid) is acknowledged each time but stored once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { metaSignature } from '../../src/networks/meta/webhooks.ts';
import { APP, startInboundStack, type InboundStack } from '../helpers/inbound.ts';

let s: InboundStack;

before(async () => {
  s = await startInboundStack({ worker: false });
});
after(() => s.close());

const post = (network: string, body: string, secret?: string) =>
  s.server.request('POST', `/inbound/${network}`, { rawBody: body, headers: { 'content-type': 'application/json', ...(secret ? { 'x-hub-signature-256': metaSignature(body, secret) } : {}) } });

const storedWith = async (body: string) =>
  (await s.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM inbound_deliveries WHERE body = $1', [Buffer.from(body)])).rows[0]!.n;

const commentBody = (commentId: string, recipient = s.igId) => JSON.stringify({
  object: 'instagram',
  entry: [{ id: recipient, time: 1764300000, changes: [{ field: 'comments', value: { id: commentId, text: 'hello', from: { id: '5550001', username: 'fan' }, media: { id: '1799900001' } } }] }],
});

describe('an account id with a NUL character', () => {
  test('alone: ignored like any id of no connected account (200), signed or not, nothing stored', async () => {
    for (const secret of [undefined, APP.clientSecret]) {
      const body = commentBody('c-nul-1', '1784\u00001234');
      const res = await post('instagram', body, secret);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(await storedWith(body), 0);
    }
  });

  test("beside a connected account's id: the signature decides, as for any delivery", async () => {
    const body = JSON.stringify({ object: 'instagram', entry: [{ id: '\u0000' }, ...JSON.parse(commentBody('c-nul-2')).entry] });
    assert.equal((await post('instagram', body)).status, 403, 'unsigned');
    assert.equal((await post('instagram', body, 'not-the-secret')).status, 403, 'wrongly signed');
    assert.equal((await post('instagram', body, APP.clientSecret)).status, 200, 'signed');
    assert.equal(await storedWith(body), 1);
  });

  test('in a Threads reply notification, in the path or in the query string: never a 500', async () => {
    const threads = JSON.stringify({ app_id: '1', topic: 'moderate', target_id: '9', time: 1, values: { field: 'replies', value: { id: '1', username: 'u', text: 't', root_post: { id: '2', owner_id: '77\u00007', username: 'o' } } } });
    assert.equal((await post('threads', threads)).status, 200);
    assert.equal((await s.server.request('POST', '/inbound/insta%00gram', { rawBody: '{}', headers: { 'content-type': 'application/json' } })).status, 400);
    assert.equal((await s.server.request('POST', '/inbound/instagram?x=%00', { rawBody: '{}', headers: { 'content-type': 'application/json' } })).status, 400);
    assert.equal((await s.server.request('GET', '/inbound/instagram?hub.mode=subscribe&hub.verify_token=%00&hub.challenge=1')).status, 400);
  });
});

describe('a signed delivery sent again', () => {
  test('is answered 200 each time and stored once', async () => {
    const body = commentBody('c-replay-1');
    for (let i = 0; i < 3; i++) {
      const res = await post('instagram', body, APP.clientSecret);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { success: true });
    }
    assert.equal(await storedWith(body), 1);
  });

  test("the emulator's byte-for-byte redelivery too; a different delivery is stored as its own row", async () => {
    const contact = s.fb.instagramMessaging.addContact({ username: 'repeat_fan' });
    const { delivery } = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799900002', from: contact.id, text: 'once' });
    const again = await s.fb.instagramMessaging.redeliver();
    assert.deepEqual([delivery.status, again.status], [200, 200]);
    assert.equal(await storedWith(delivery.body), 1);
    const other = commentBody('c-replay-2');
    assert.equal((await post('instagram', other, APP.clientSecret)).status, 200);
    assert.equal(await storedWith(other), 1);
  });

  test('the same body concurrently: every answer 200, one row', async () => {
    const body = commentBody('c-replay-3');
    const answers = await Promise.all(Array.from({ length: 5 }, () => post('instagram', body, APP.clientSecret)));
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200]);
    assert.equal(await storedWith(body), 1);
  });
});
