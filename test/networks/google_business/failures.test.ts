// What Crier reports when Google Business Profile says no, over real HTTP against the Google emulator:
// each refusal classified (failed for good, retried later, the account disconnected) with Google's own
// words, and what Google was left with (nothing created). Bad blocks are refused at create time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { until } from '../../helpers/until.ts';
import { failedWith, startGbpStack, type GbpStack } from './setup.ts';

describe('Google Business Profile refusals', () => {
  let s: GbpStack;

  before(async () => {
    s = await startGbpStack();
  });
  after(async () => {
    await s.close();
  });

  const postsOn = (parent: string) => s.google.business.posts().filter((p) => p.parent === parent);
  const accountActive = async (id: string) => (await s.h.server.request('GET', `/v1/social-accounts/${id}`, { key: s.org.key })).body.data.isActive;

  it('an unverified location fails with Google\'s FAILED_PRECONDITION and its reason', async () => {
    const shop = await s.connectLocation('Unverified Shop');
    s.google.business.setLocationState(shop.location, 'UNVERIFIED');
    const error = failedWith(await s.publish(shop, { content: 'Hello' }));
    assert.equal(error, `google_business: the location ${shop.parent} cannot post now (Location is not verified. (FAILED_PRECONDITION, LOCATION_NOT_VERIFIED)); verify or reinstate it in Business Profile Manager`);
    assert.equal(postsOn(shop.parent).length, 0);
    assert.equal(await accountActive(shop.id), 1, 'the account stays connected');
  });

  it('a suspended location fails the same way, naming the suspension', async () => {
    const shop = await s.connectLocation('Suspended Shop');
    s.google.business.setLocationState(shop.location, 'SUSPENDED');
    const error = failedWith(await s.publish(shop, { content: 'Hello' }));
    assert.match(error, /cannot post now \(Location is suspended\. \(FAILED_PRECONDITION, LOCATION_SUSPENDED\)\)/);
    assert.equal(postsOn(shop.parent).length, 0);
  });

  it('a location the user no longer manages fails with PERMISSION_DENIED, the account kept', async () => {
    const shop = await s.connectLocation('Former Shop');
    s.google.business.stopManaging(shop.userId, shop.location);
    const error = failedWith(await s.publish(shop, { content: 'Hello' }));
    assert.equal(error, `google_business: the account does not manage the location ${shop.parent} any more (The caller does not have permission (PERMISSION_DENIED)); reconnect it with a user who manages the location`);
    assert.equal(postsOn(shop.parent).length, 0);
    assert.equal(await accountActive(shop.id), 1);
  });

  it('a location Google does not know fails as not found', async () => {
    const gone = await s.h.server.addAccount(s.org, 'google_business', 'Gone Shop', { networkUniqueId: 'accounts/1/locations/2', accessToken: (await s.connectLocation('Token Donor')).token });
    assert.equal(failedWith(await s.publish(gone, { content: 'Hello' })),
      'google_business: the location accounts/1/locations/2 was not found (Requested entity was not found. (NOT_FOUND)); it may have been removed');
  });

  it('a photo Google cannot fetch fails with PHOTO_FETCH_FAILED; nothing is created', async () => {
    const shop = await s.connectLocation('Broken Photo');
    const url = `${s.h.stack.media.url}/missing.png`;
    const error = failedWith(await s.publish(shop, { containers: [{ content: 'Look', media: [{ url, filename: 'missing.png' }] }] }));
    assert.equal(error, `google_business: Google could not take the photo (Request contains an invalid argument. (INVALID_ARGUMENT): media.source_url: Fetching image failed. (HTTP 404) (PHOTO_FETCH_FAILED))`);
    assert.equal(postsOn(shop.parent).length, 0);
  });

  it('a revoked grant (401) fails the destination and disconnects the account', async () => {
    const shop = await s.connectLocation('Revoked Shop');
    s.google.revokeUser(shop.userId);
    const error = failedWith(await s.publish(shop, { content: 'Never' }));
    assert.match(error, /^google_business: the access token was refused \(Request had invalid authentication credentials\. .*\(UNAUTHENTICATED\)\); reconnect the account/);
    assert.equal(postsOn(shop.parent).length, 0);
    assert.equal(await accountActive(shop.id), 0);
  });

  it('a token without business.manage (403 ACCESS_TOKEN_SCOPE_INSUFFICIENT) is an auth failure', async () => {
    const shop = await s.connectLocation('Scopeless Shop', ['https://www.googleapis.com/auth/youtube.readonly']);
    const error = failedWith(await s.publish(shop, { content: 'Never' }));
    assert.equal(error, 'google_business: the token lacks the business.manage scope (Request had insufficient authentication scopes. (PERMISSION_DENIED, ACCESS_TOKEN_SCOPE_INSUFFICIENT)); reconnect the account');
    assert.equal(await accountActive(shop.id), 0);
  });

  it('429 RESOURCE_EXHAUSTED is retried a minute later, nothing created meanwhile', async () => {
    const shop = await s.connectLocation('Busy Shop');
    const quota = { error: { code: 429, message: 'Quota exceeded for quota metric \'Requests\' and limit \'Requests per minute\' of service \'mybusiness.googleapis.com\'.', status: 'RESOURCE_EXHAUSTED' } };
    s.google.failNext({ status: 429, method: 'POST', path: `/v4/${shop.parent}/localPosts`, body: quota });
    const postId = await s.create(shop, { content: 'Later' });
    const target = await until(async () => {
      const { rows } = await s.h.server.db.query(
        `SELECT t.status, t.due_at, a.error FROM targets t JOIN attempts a ON a.target_id = t.id WHERE t.post_id = $1 AND a.outcome = 'retry'`, [decodeId(postId)],
      );
      return rows[0];
    });
    assert.equal(target.status, 'pending');
    assert.equal(target.error, `google_business: rate limited (${quota.error.message} (RESOURCE_EXHAUSTED))`);
    const inMs = new Date(target.due_at).getTime() - Date.now();
    assert.ok(inMs > 50_000 && inMs <= 60_000, `due again in ${inMs} ms`);
    assert.equal(postsOn(shop.parent).length, 0);
  });

  it('bad blocks and media are refused at create time, field by field', async () => {
    const shop = await s.connectLocation('Strict Shop');
    const res = await s.h.server.request('POST', '/v1/posts', { key: s.org.key, body: {
      accounts: [shop.id],
      containers: [{ content: 'x'.repeat(1501), media: [{ url: 'https://cdn.example/a.jpg', filename: 'a.jpg' }, { url: 'https://cdn.example/b.mp4', filename: 'b.mp4' }] }],
      google_business: {
        topicType: 'EVENT',
        event: { title: 't'.repeat(59), startDate: { year: 2030, month: 2, day: 30 }, startTime: { hours: 25, minutes: 0 }, endDate: { year: 2030, month: 1, day: 1 }, endTime: { hours: 9, minutes: 0 } },
      },
    } });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    const fields = res.body.details.map((d: any) => d.field).sort();
    assert.deepEqual(fields, ['containers[0].content', 'containers[0].media', 'google_business.event.startDate', 'google_business.event.startTime', 'google_business.event.title']);
    const ended = await s.h.server.request('POST', '/v1/posts', { key: s.org.key, body: {
      accounts: [shop.id], containers: [{ media: [{ url: 'https://cdn.example/c.gif', filename: 'c.gif' }] }],
      google_business: { topicType: 'EVENT', event: { title: 'Backwards', startDate: { year: 2030, month: 5, day: 2 }, startTime: { hours: 9, minutes: 0 }, endDate: { year: 2030, month: 5, day: 1 }, endTime: { hours: 9, minutes: 0 } } },
    } });
    assert.equal(ended.status, 400);
    assert.deepEqual(ended.body.details.map((d: any) => d.field).sort(), ['containers[0].media[0].filename', 'google_business.event.endDate']);
    assert.equal(postsOn(shop.parent).length, 0);
  });
});
