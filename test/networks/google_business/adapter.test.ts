// The Google Business Profile adapter against the Google emulator, without the engine: reconcile after
// a crash (the post found among the location's localPosts, 'absent' only when the whole list was read,
// unknown when it cannot be), Google's own field violations for a block stored before Crier's rules,
// and Crier media Google could not reach refused before any call.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createGoogleBusinessAdapter } from '../../../src/networks/google_business/adapter.ts';
import { PublishWait, type PublishError } from '../../../src/core/errors.ts';
import type { PublishInput } from '../../../src/networks/contract.ts';
import { GOOGLE_BUSINESS_SCOPES } from '../../../src/networks/google_business/oauth.ts';
import { APP, startGbpStack, type ConnectedLocation, type GbpStack } from './setup.ts';

describe('the Google Business Profile adapter', () => {
  let s: GbpStack;
  let shop: ConnectedLocation;

  /** A location whose token outlives the emulator clock moves of these tests (the rate windows). */
  const lastingLocation = async (title: string): Promise<ConnectedLocation> => {
    const connected = await s.connectLocation(title);
    return { ...connected, token: s.google.oauth.issue(connected.userId, APP.clientId, [...GOOGLE_BUSINESS_SCOPES], false, null).accessToken };
  };

  before(async () => {
    s = await startGbpStack({ worker: false });
    shop = await lastingLocation('Adapter Shop');
  });
  after(async () => {
    await s.close();
  });

  const inputFor = (containers: { content: string; media?: { url: string; filename: string }[] }[], block?: Record<string, unknown>, location = shop): PublishInput => ({
    account: { id: 1, orgId: 1, network: 'google_business', username: 'shop', networkUniqueId: location.parent, serviceUrl: null, accessToken: location.token, refreshToken: null, credential: null },
    containers: containers.map((c) => ({ content: c.content, media: c.media ?? [] })),
    block,
    fetchMedia: () => { throw new Error('Google fetches media itself'); },
    openMedia: () => { throw new Error('Google fetches media itself'); },
    userFetch: fetch,
    saveTokens: async () => {},
    ledger: { withPool: () => { throw new Error('no ledger'); }, read: () => { throw new Error('no ledger'); } },
  });
  const adapter = (realNetwork = false) => createGoogleBusinessAdapter({ apiUrl: s.google.url, publicUrl: { publicBaseUrl: s.h.front.url, realNetwork } });
  const rejects = (promise: Promise<unknown>, kind: string, message: RegExp) => assert.rejects(promise, (error: PublishError) => {
    assert.equal(error.kind, kind);
    assert.match(error.message, message);
    return true;
  });

  it('reconcile finds the post made since the reservation, and says absent for one never sent', async () => {
    const input = inputFor([{ content: 'Crashed post' }, { content: 'a reply' }], { topicType: 'EVENT', event: { title: 'Night market', startDate: { year: 2030, month: 6, day: 1 }, startTime: { hours: 18, minutes: 0 }, endDate: { year: 2030, month: 6, day: 1 }, endTime: { hours: 23, minutes: 0 } } });
    const first = await adapter().prepare(input);
    const reservation = first.reserve(0);
    const root = await first.publishPart(0, reservation, undefined);
    // Another post with the same text but another event title is not ours.
    const other = await adapter().prepare(inputFor([{ content: 'Crashed post' }], { topicType: 'EVENT', event: { title: 'Day market', startDate: { year: 2030, month: 6, day: 2 }, startTime: { hours: 8, minutes: 0 }, endDate: { year: 2030, month: 6, day: 2 }, endTime: { hours: 12, minutes: 0 } } }));
    await other.publishPart(0, other.reserve(0), undefined);
    const again = await adapter().prepare(input);
    assert.deepEqual(await again.reconcile(0, reservation, undefined), root);
    assert.deepEqual(root.note, 'Google Business Profile posts take no replies: container 2 was not published');
    assert.deepEqual(await again.reconcile(1, reservation, root), { platformId: root.platformId, url: root.url });
    const never = await adapter().prepare(inputFor([{ content: 'Never sent' }]));
    assert.equal(await never.reconcile(0, never.reserve(0), undefined), 'absent');
    const listed = s.google.business.calls().filter((c) => c.method === 'GET' && c.path === `/v4/${shop.parent}/localPosts`);
    assert.ok(listed.length >= 2 && listed.every((c) => c.query.pageSize === '100'));
  });

  it('reconcile reads on through the pages: ours found on the second, absent only after the last', async () => {
    const busy = await lastingLocation('Busy Adapter Shop');
    const fill = await adapter().prepare(inputFor([{ content: 'Filler' }], undefined, busy));
    const reservation = fill.reserve(0);
    for (let i = 0; i < 10; i++) {
      const p = await adapter().prepare(inputFor([{ content: `Filler ${i}` }], undefined, busy));
      await p.publishPart(0, p.reserve(0), undefined);
      s.google.clock.advance(61_000);
    }
    const mine = await fill.publishPart(0, reservation, undefined);
    s.google.clock.advance(61_000);
    for (let i = 0; i < 150; i += 10) {
      for (let j = 0; j < 10; j++) {
        const p = await adapter().prepare(inputFor([{ content: `Noise ${i + j}` }], undefined, busy));
        await p.publishPart(0, p.reserve(0), undefined);
      }
      s.google.clock.advance(61_000);
    }
    assert.deepEqual(await fill.reconcile(0, reservation, undefined), mine, 'found on the second page');
    const before = s.google.business.calls().length;
    const never = await adapter().prepare(inputFor([{ content: 'Not there' }], undefined, busy));
    assert.equal(await never.reconcile(0, never.reserve(0), undefined), 'absent');
    const pages = s.google.business.calls().slice(before).filter((c) => c.path === `/v4/${busy.parent}/localPosts`);
    assert.deepEqual(pages.map((c) => c.query.pageToken === undefined), [true, false], 'both pages read');
  });

  it('reconcile ends unknown when ours is not among the location\'s first thousand posts', async () => {
    const mall = await lastingLocation('Mall Adapter Shop');
    const prepared = await adapter().prepare(inputFor([{ content: 'Lost in the crowd' }], undefined, mall));
    const reservation = prepared.reserve(0);
    for (let i = 0; i < 1001; i++) {
      if (i % 10 === 0) s.google.clock.advance(61_000);
      const p = await adapter().prepare(inputFor([{ content: `Crowd ${i}` }], undefined, mall));
      await p.publishPart(0, p.reserve(0), undefined);
    }
    await rejects(prepared.reconcile(0, reservation, undefined), 'unknown', /container 1 is already posted \(the location has more than 1000 posts to look through\)/);
  });

  it('a post still PROCESSING after the last review read is published, saying so', async () => {
    s.google.business.reviewNext({ reads: 50, verdict: 'LIVE' });
    const input = inputFor([{ content: 'Long review' }]);
    const first = await adapter().prepare(input);
    const reservation = first.reserve(0);
    await assert.rejects(first.publishPart(0, reservation, undefined), (wait: unknown) => wait instanceof PublishWait);
    const name = s.google.business.posts().at(-1)!.name;
    const last = await adapter().prepare({ ...input, checkpoint: { post: name, reads: 14 } });
    const ref = await last.publishPart(0, reservation, undefined);
    assert.deepEqual(ref, { platformId: name, url: s.google.business.posts().at(-1)!.post.searchUrl, note: 'Google was still reviewing the post (PROCESSING) after 14 reads; check it in Business Profile Manager' });
  });

  it('reconcile ends unknown when the location\'s posts cannot be read', async () => {
    const prepared = await adapter().prepare(inputFor([{ content: 'Unreadable' }]));
    s.google.failNext({ status: 503, method: 'GET', path: `/v4/${shop.parent}/localPosts` });
    await rejects(prepared.reconcile(0, prepared.reserve(0), undefined), 'unknown',
      /^google_business: could not tell whether container 1 is already posted \(google_business: server error 503 .*\); check the location's posts in Business Profile Manager/);
  });

  it('reconcile of a post Google rejected fails it for good', async () => {
    s.google.business.reviewNext({ reads: 0, verdict: 'REJECTED' });
    const prepared = await adapter().prepare(inputFor([{ content: 'Rejected at once' }]));
    const reservation = prepared.reserve(0);
    await rejects(prepared.publishPart(0, reservation, undefined), 'permanent', /Google rejected the post for a content policy violation/);
    await rejects((await adapter().prepare(inputFor([{ content: 'Rejected at once' }]))).reconcile(0, reservation, undefined), 'permanent', /state REJECTED/);
  });

  it('reconcile of a post Google is still reviewing waits for the review, its checkpoint naming the post', async () => {
    s.google.business.reviewNext({ reads: 5, verdict: 'LIVE' });
    const input = inputFor([{ content: 'Still in review' }]);
    const prepared = await adapter().prepare(input);
    const reservation = prepared.reserve(0);
    await assert.rejects(prepared.publishPart(0, reservation, undefined), (wait: PublishWait) => wait instanceof PublishWait);
    const name = s.google.business.posts().at(-1)!.name;
    await assert.rejects((await adapter().prepare(input)).reconcile(0, reservation, undefined), (wait: PublishWait) => {
      assert.ok(wait instanceof PublishWait, String(wait));
      assert.deepEqual([wait.checkpoint, wait.delayMs], [{ post: name, reads: 1 }, 2_000]);
      return true;
    });
    const resumed = await adapter().prepare({ ...input, checkpoint: { post: name, reads: 4 } });
    await assert.rejects(resumed.publishPart(0, reservation, undefined), (wait: PublishWait) => wait.delayMs === 32_000 && wait.checkpoint?.reads === 5);
    assert.equal(s.google.business.posts().filter((p) => p.received.summary === 'Still in review').length, 1);
    s.google.failNext({ status: 404, method: 'GET', path: `/v4/${name}` });
    await rejects(resumed.publishPart(0, reservation, undefined), 'permanent', new RegExp(`^google_business: the post ${name} was deleted while Google reviewed it$`));
  });

  it('Google\'s field violations for a block Crier\'s rules would refuse today are reported field by field', async () => {
    const schedule = { startDate: { year: 2030, month: 6, day: 1 }, startTime: { hours: 18, minutes: 0 }, endDate: { year: 2030, month: 6, day: 1 }, endTime: { hours: 17, minutes: 0 } };
    // The title over Google's 58 is the judgement's (shape.ts), before any call; the inverted range is Google's.
    await assert.rejects(adapter().prepare(inputFor([{ content: 'Old post' }], { topicType: 'EVENT', event: { title: 'x'.repeat(59), ...schedule } })), /event\.title is 59 characters; Google takes up to 58/);
    const block = { topicType: 'EVENT', event: { title: 'x'.repeat(58), ...schedule } };
    const prepared = await adapter().prepare(inputFor([{ content: 'Old post' }], block));
    await assert.rejects(prepared.publishPart(0, prepared.reserve(0), undefined), (error: PublishError) => {
      assert.deepEqual([error.kind, error.code], ['permanent', 'invalid']);
      assert.equal(error.message, 'google_business: Request contains an invalid argument. (INVALID_ARGUMENT): event.schedule: The end must come after the start. (INVERTED_RANGE)');
      return true;
    });
  });

  it('the eleventh post in a minute on one location is refused by Google\'s edit quota, retried a minute later', async () => {
    const bakery = await s.connectLocation('Quota Bakery');
    for (let i = 0; i < 10; i++) {
      const p = await adapter().prepare(inputFor([{ content: `Edit ${i}` }], undefined, bakery));
      await p.publishPart(0, p.reserve(0), undefined);
    }
    const eleventh = await adapter().prepare(inputFor([{ content: 'Edit 10' }], undefined, bakery));
    await assert.rejects(eleventh.publishPart(0, eleventh.reserve(0), undefined), (error: PublishError) => {
      assert.deepEqual([error.kind, error.code, error.retryAfterMs], ['retryable', 'rate_limited', 60_000]);
      assert.match(error.message, /^google_business: rate limited \(Quota exceeded for quota metric 'Edits' .*\(RESOURCE_EXHAUSTED, RATE_LIMIT_EXCEEDED\)\)$/);
      return true;
    });
    assert.equal(s.google.business.posts().filter((p) => p.parent === bakery.parent).length, 10);
  });

  it('more than one photo, or a video, is refused before any call', async () => {
    const calls = s.google.business.calls().length;
    const two = [{ url: 'https://cdn.example/a.jpg', filename: 'a.jpg' }, { url: 'https://cdn.example/b.jpg', filename: 'b.jpg' }];
    await rejects(adapter().prepare(inputFor([{ content: 'Two', media: two }])), 'permanent', /the first container has 2 media; a Google Business Profile post takes one photo/);
    await rejects(adapter().prepare(inputFor([{ content: 'Clip', media: [{ url: 'https://cdn.example/c.mp4', filename: 'c.mp4' }] }])), 'permanent', /c\.mp4 is not a JPG or PNG photo/);
    assert.equal(s.google.business.calls().length, calls);
  });

  it('against the real Google, a Crier photo at a PUBLIC_BASE_URL the internet cannot reach is refused before any call', async () => {
    const calls = s.google.business.calls().length;
    const input = inputFor([{ content: 'From Crier', media: [{ url: `${s.h.front.url}/media/x/photo.png`, filename: 'photo.png' }] }]);
    await rejects(adapter(true).prepare(input), 'permanent',
      /^google_business: google_business downloads media from Crier at https:\/\/127\.0\.0\.1:\d+, which is not a public address; set PUBLIC_BASE_URL/);
    assert.equal(s.google.business.calls().length, calls);
  });
});
