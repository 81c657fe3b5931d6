// Publishing to a Google Business Profile location over real HTTP: Crier's API and worker (the
// registry's adapter), the Google emulator as mybusiness.googleapis.com — which fetches a post's photo
// from its sourceUrl itself — and what Crier reports. Each test checks the localPost Google received
// (every block field where the v4 API expects it) and the destination's id, URL and note.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { makeJpeg } from '../../helpers/media.ts';
import { failedWith, startGbpStack, storedFor, type GbpStack } from './setup.ts';

const event = { title: 'Spring tasting', startDate: { year: 2030, month: 5, day: 1 }, startTime: { hours: 18, minutes: 30 }, endDate: { year: 2030, month: 5, day: 3 }, endTime: { hours: 21, minutes: 0 } };
const schedule = { startDate: { year: 2030, month: 5, day: 1 }, startTime: { hours: 18, minutes: 30 }, endDate: { year: 2030, month: 5, day: 3 }, endTime: { hours: 21, minutes: 0 } };

describe('publishing to Google Business Profile', () => {
  let s: GbpStack;

  before(async () => {
    s = await startGbpStack();
  });
  after(async () => {
    await s.close();
  });

  it('a STANDARD post: google_business.content as summary, a LEARN_MORE button; the post\'s name and searchUrl come back', async () => {
    const bakery = await s.connectLocation('Bakery Standard');
    const post = await s.publish(bakery, { content: 'shared text', google_business: { content: 'Fresh bread at 7', topicType: 'STANDARD', callToAction: { actionType: 'LEARN_MORE', url: 'https://bakery.example/bread' } } });
    const stored = storedFor(s.google, post);
    assert.deepEqual(stored.received, { topicType: 'STANDARD', summary: 'Fresh bread at 7', callToAction: { actionType: 'LEARN_MORE', url: 'https://bakery.example/bread' } });
    assert.equal(stored.parent, bakery.parent);
    assert.match(post.socialAccounts[0].platformPostId, new RegExp(`^${bakery.parent}/localPosts/\\d+$`));
    assert.equal(post.socialAccounts[0].platformPostUrl, stored.post.searchUrl);
    assert.match(post.socialAccounts[0].platformPostUrl, /^https:\/\/local\.google\.com\/place\?id=ChIJ[\w-]+&use=posts&lpsid=\d+$/);
    assert.equal(post.socialAccounts[0].error ?? null, null, 'nothing to note');
  });

  it('every call-to-action type reaches Google; CALL goes without the url it was given', async () => {
    const shop = await s.connectLocation('Shop Buttons');
    const types = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'] as const;
    const received: unknown[] = [];
    for (const actionType of types) {
      const post = await s.publish(shop, { content: `Button ${actionType}`, google_business: { callToAction: { actionType, url: `https://shop.example/${actionType.toLowerCase()}` } } });
      received.push(storedFor(s.google, post).received.callToAction);
    }
    assert.deepEqual(received, [
      { actionType: 'BOOK', url: 'https://shop.example/book' },
      { actionType: 'ORDER', url: 'https://shop.example/order' },
      { actionType: 'SHOP', url: 'https://shop.example/shop' },
      { actionType: 'LEARN_MORE', url: 'https://shop.example/learn_more' },
      { actionType: 'SIGN_UP', url: 'https://shop.example/sign_up' },
      { actionType: 'CALL' },
    ]);
  });

  it('an EVENT: its title and the four times in event.schedule, with its call to action', async () => {
    const hall = await s.connectLocation('Event Hall');
    const post = await s.publish(hall, { content: 'Taste the new season', google_business: { topicType: 'EVENT', event, callToAction: { actionType: 'BOOK', url: 'https://hall.example/book' } } });
    assert.deepEqual(storedFor(s.google, post).received, {
      topicType: 'EVENT', summary: 'Taste the new season', event: { title: 'Spring tasting', schedule }, callToAction: { actionType: 'BOOK', url: 'https://hall.example/book' },
    });
  });

  it('an OFFER: event title and window plus coupon, redeem link and terms; its call to action is left out', async () => {
    const deli = await s.connectLocation('Deli Offers');
    const offer = { couponCode: 'SPRING10', redeemOnlineUrl: 'https://deli.example/redeem', termsConditions: 'One per customer' };
    const post = await s.publish(deli, { content: '10% off', google_business: { topicType: 'OFFER', event, offer, callToAction: { actionType: 'SHOP' } } });
    assert.deepEqual(storedFor(s.google, post).received, { topicType: 'OFFER', summary: '10% off', event: { title: 'Spring tasting', schedule }, offer });
  });

  it('a STANDARD post ignores an event given with it', async () => {
    const cafe = await s.connectLocation('Cafe Plain');
    const post = await s.publish(cafe, { content: 'Open late', google_business: { event } });
    assert.deepEqual(storedFor(s.google, post).received, { topicType: 'STANDARD', summary: 'Open late' });
  });

  it('a photo uploaded to Crier: Google fetched it from Crier\'s public URL', async () => {
    const gallery = await s.connectLocation('Gallery Photos');
    const media = await s.h.upload(s.org, 'loaf.jpg', await makeJpeg('800x600'), 'image/jpeg');
    const post = await s.publish(gallery, { containers: [{ content: 'Our loaf', media: [{ url: media.url, filename: 'loaf.jpg' }] }] });
    const stored = storedFor(s.google, post);
    assert.deepEqual(stored.received.media, [{ mediaFormat: 'PHOTO', sourceUrl: media.url }]);
    assert.ok(media.url.startsWith(s.h.front.url), `a Crier URL: ${media.url}`);
  });

  it('a photo on another HTTPS host, without text', async () => {
    const studio = await s.connectLocation('Studio Photos');
    const url = `${s.h.stack.media.url}/cat.png`;
    const post = await s.publish(studio, { containers: [{ media: [{ url, filename: 'cat.png' }] }] });
    assert.deepEqual(storedFor(s.google, post).received, { topicType: 'STANDARD', media: [{ mediaFormat: 'PHOTO', sourceUrl: url }] });
  });

  it('a thread: only the first container becomes the post, and the destination says the others were not published', async () => {
    const pub = await s.connectLocation('Pub Thread');
    const post = await s.publish(pub, { containers: [{ content: 'Quiz night' }, { content: 'Teams of four' }, { content: 'Prizes!' }] });
    const stored = storedFor(s.google, post);
    assert.equal(stored.received.summary, 'Quiz night');
    assert.equal(s.google.business.posts().filter((p) => p.parent === pub.parent).length, 1, 'one post, no replies');
    assert.equal(post.socialAccounts[0].error, 'Google Business Profile posts take no replies: containers 2-3 were not published');
    const { rows } = await s.h.server.db.query(
      'SELECT p.position, p.platform_id FROM target_parts p JOIN targets t ON t.id = p.target_id WHERE t.post_id = $1 ORDER BY p.position', [decodeId(post.id)],
    );
    assert.deepEqual(rows.map((r) => r.platform_id), [stored.name, stored.name, stored.name], 'the later containers point at the one post');
  });

  it('a post Google reviews: read again while PROCESSING, published once LIVE', async () => {
    const bistro = await s.connectLocation('Bistro Review');
    s.google.business.reviewNext({ reads: 1, verdict: 'LIVE' });
    const post = await s.publish(bistro, { content: 'New menu' });
    const stored = storedFor(s.google, post);
    assert.equal(stored.post.state, 'LIVE');
    const reads = s.google.business.calls().filter((c) => c.method === 'GET' && c.path === `/v4/${stored.name}`);
    assert.deepEqual(reads.map((c) => c.status), [200, 200], 'read PROCESSING, then LIVE');
    assert.equal(s.google.business.posts().filter((p) => p.parent === bistro.parent).length, 1, 'created once');
  });

  it('a post Google rejects after review fails the destination with the reason', async () => {
    const bar = await s.connectLocation('Bar Rejected');
    s.google.business.reviewNext({ reads: 1, verdict: 'REJECTED' });
    const post = await s.publish(bar, { content: 'Call 555-0100 now' });
    const name = s.google.business.posts().find((p) => p.parent === bar.parent)!.name;
    assert.equal(failedWith(post), `google_business: Google rejected the post for a content policy violation (state REJECTED, ${name}); edit it and post again`);
  });
});
