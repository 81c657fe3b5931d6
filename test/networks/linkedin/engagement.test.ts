// LinkedIn's engagement capabilities called directly over real HTTP against the emulator, for a
// company page and for a member: deleting a post, listing the account's posts (a member's needs the
// restricted r_member_social: refused with that said), comments with one tier of answers and author
// names resolved for organizations, answering (nested under the parent comment's URN), and the
// figures (share statistics and the social-action summary for a page's post, member post analytics
// where the permission allows, followers and the period's statistics for the page).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startLinkedInEmulator, type LinkedInEmulator } from '../../../emulators/linkedin/server.ts';
import type { AccountSession, NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PublishedPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { authorNames } from '../../../src/networks/linkedin/authors.ts';
import { linkedin } from '../../../src/networks/linkedin/index.ts';
import { LINKEDIN_SCOPES, LINKEDIN_VERSION } from '../../../src/networks/linkedin/oauth.ts';

const APP = { clientId: 'crier-li', clientSecret: 's', redirectUris: ['http://localhost/cb'] };
let li: LinkedInEmulator;
let caps: NetworkCapabilities;
let page: AccountSession;
let orgUrn: string;
let orgId: number;
let admin: { sub: string; urn: string; token: string };

function sessionFor(author: string, token: string): AccountSession {
  return {
    account: { id: 1, orgId: 1, network: 'linkedin', username: 'acme', networkUniqueId: author, serviceUrl: null, accessToken: token, refreshToken: null, credential: null },
    saveTokens: async () => {},
    userFetch: fetch,
  };
}

function member(scopes: string[] = LINKEDIN_SCOPES, name?: { givenName: string; familyName: string }) {
  const m = li.addUser(name ?? {});
  return { sub: m.sub, urn: `urn:li:person:${m.sub}`, token: li.oauth.issue(m.sub, APP.clientId, scopes).accessToken };
}

/** Publishes as `author` over the emulator's HTTP API, as Crier's adapter does. */
async function publish(token: string, author: string, commentary: string): Promise<PublishedPost> {
  const res = await fetch(`${li.url}/rest/posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'linkedin-version': LINKEDIN_VERSION, 'x-restli-protocol-version': '2.0.0', 'content-type': 'application/json' },
    body: JSON.stringify({ author, commentary, visibility: 'PUBLIC', distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] }, lifecycleState: 'PUBLISHED', isReshareDisabledByAuthor: false }),
  });
  assert.equal(res.status, 201, await res.text());
  const urn = res.headers.get('x-restli-id')!;
  const root = { platformId: urn, url: `https://www.linkedin.com/feed/update/${urn}/` };
  return { root, parts: [root], block: {} };
}

const callsSince = (mark: number) => li.calls().slice(mark).map((c) => ({ method: c.method, path: c.path, query: c.query, status: c.status }));

async function refusal(promise: Promise<unknown>): Promise<PublishError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PublishError, String(error));
    return error;
  }
  assert.fail('expected a PublishError');
}

before(async () => {
  li = await startLinkedInEmulator();
  li.addApp({ ...APP, scopes: [...LINKEDIN_SCOPES, 'r_member_social', 'r_member_postAnalytics'] });
  admin = member(LINKEDIN_SCOPES, { givenName: 'Ada', familyName: 'Admin' });
  const acme = li.addOrganization({ localizedName: 'Acme Corp', vanityName: 'acme-corp', admins: [admin.sub] });
  orgId = acme.id;
  orgUrn = `urn:li:organization:${acme.id}`;
  page = sessionFor(orgUrn, admin.token);
  caps = linkedin.capabilities!({ settings: { baseUrl: li.url }, allowLoopbackFetch: true, publicBaseUrl: 'http://localhost' });
});
after(async () => {
  await li.close();
});
beforeEach(() => authorNames.clear());

describe('remove', () => {
  test('DELETE /rest/posts/{encoded urn} with the versioned headers; the post and its comments are gone; again: absent', async () => {
    const post = await publish(admin.token, orgUrn, 'To be removed');
    const mark = li.calls().length;
    assert.equal(await caps.remove!(page, post), 'removed');
    assert.deepEqual(callsSince(mark), [{ method: 'DELETE', path: `/rest/posts/${post.root.platformId}`, query: {}, status: 204 }]);
    assert.equal(li.posts().find((p) => p.urn === post.root.platformId)!.deleted, true);
    assert.equal(await caps.remove!(page, post), 'absent');
    const other = member();
    const error = await refusal(caps.remove!(sessionFor(other.urn, other.token), await publish(admin.token, orgUrn, 'Not theirs')));
    assert.equal(error.code, 'forbidden');
    assert.equal((await refusal(caps.remove!(page, { ...post, root: { platformId: 'urn:li:comment:1', url: '' } }))).code, 'invalid');
  });
});

describe('ownPosts', () => {
  test('a page\'s posts newest first, 50 a page with start as the cursor; commentary read back from little text', async () => {
    const writer = member();
    const beta = li.addOrganization({ admins: [writer.sub] });
    const betaUrn = `urn:li:organization:${beta.id}`;
    for (let i = 0; i < 52; i++) {
      await publish(writer.token, betaUrn, `Update ${i}`);
      li.clock.advance(1000);
    }
    await publish(writer.token, betaUrn, 'Launch \\#day with \\(parens\\) and @[Acme Corp](urn:li:organization:1)');
    const session = sessionFor(betaUrn, writer.token);
    const mark = li.calls().length;
    const first = await caps.ownPosts!(session, {});
    assert.equal(first.items.length, 50);
    assert.equal(first.items[0]!.text, 'Launch #day with (parens) and Acme Corp');
    assert.equal(first.items[1]!.text, 'Update 51');
    assert.deepEqual(Object.keys(first.items[1]!).sort(), ['createdAt', 'mediaCount', 'platformId', 'text', 'url']);
    assert.equal(first.items[1]!.url, `https://www.linkedin.com/feed/update/${first.items[1]!.platformId}/`);
    assert.equal(first.next, '50');
    const second = await caps.ownPosts!(session, { cursor: first.next });
    assert.deepEqual(second.items.map((p) => p.text), ['Update 2', 'Update 1', 'Update 0']);
    assert.equal(second.next, undefined);
    assert.deepEqual(callsSince(mark).map((c) => c.query), [
      { q: 'author', author: betaUrn, count: '50', start: '0', sortBy: 'CREATED' },
      { q: 'author', author: betaUrn, count: '50', start: '50', sortBy: 'CREATED' },
    ]);
    const since = new Date(Date.parse(first.items[2]!.createdAt!));
    const recent = await caps.ownPosts!(session, { since });
    assert.deepEqual(recent.items.map((p) => p.text.split(' ')[0]), ['Launch', 'Update', 'Update']);
    assert.equal(recent.next, undefined, 'the page reached back before since');
  });

  test('a member without r_member_social: LinkedIn\'s 403, said as the restricted permission it needs', async () => {
    const m = member();
    const error = await refusal(caps.ownPosts!(sessionFor(m.urn, m.token), {}));
    assert.equal(error.kind, 'permanent');
    assert.equal(error.code, 'forbidden');
    assert.match(error.message, /needs r_member_social, a restricted permission/);
    const approved = member([...LINKEDIN_SCOPES, 'r_member_social']);
    await publish(approved.token, approved.urn, 'Mine');
    assert.deepEqual((await caps.ownPosts!(sessionFor(approved.urn, approved.token), {})).items.map((p) => p.text), ['Mine']);
  });
});

describe('comments', () => {
  test('top-level comments with their answers (one tier), author names for organizations and the page itself, not for other members', async () => {
    const post = await publish(admin.token, orgUrn, 'Tell us what you think');
    const stranger = member();
    const partner = li.addOrganization({ localizedName: 'Partner Inc', vanityName: 'partner-inc' });
    const question = li.addComment({ on: post.root.platformId, actor: stranger.urn, text: 'When?', likes: 3 });
    const answer = li.addComment({ on: question.urn, actor: orgUrn, text: 'Tomorrow' });
    li.addComment({ on: post.root.platformId, actor: `urn:li:organization:${partner.id}`, text: 'Congrats' });

    const mark = li.calls().length;
    const flat = await caps.comments!.list(page, post, { includeReplies: false, resolveAuthorNames: false });
    assert.deepEqual(callsSince(mark).map((c) => [c.path, c.query]), [[`/rest/socialActions/${post.root.platformId}/comments`, { start: '0', count: '50' }]]);
    assert.equal(flat.next, undefined);
    assert.deepEqual(flat.items[0], {
      id: question.id, author: stranger.urn, author_name: null, text: 'When?',
      created_at: new Date(question.createdAt).toISOString(), like_count: 3,
      platform_specific: { commentUrn: question.urn },
    });
    assert.equal(flat.items.length, 2);

    const named = li.calls().length;
    const nested = await caps.comments!.list(page, post, { includeReplies: true, resolveAuthorNames: true });
    assert.deepEqual(callsSince(named).map((c) => c.path), [
      `/rest/socialActions/${post.root.platformId}/comments`,
      `/rest/socialActions/${question.urn}/comments`,
      `/rest/organizations/${partner.id}`,
      `/rest/organizations/${orgId}`,
    ], 'the answers of the comment that has some, then one lookup per organization');
    const [asked, congrats] = nested.items;
    assert.equal(asked!.author_name, null, 'another member stays unnamed');
    assert.deepEqual(asked!.replies, [{
      id: answer.id, author: orgUrn, author_name: 'Acme Corp', author_username: 'acme-corp', author_profile_url: 'https://www.linkedin.com/company/acme-corp',
      text: 'Tomorrow', created_at: new Date(answer.createdAt).toISOString(), like_count: 0,
      platform_specific: { commentUrn: answer.urn, parentComment: question.urn },
    }]);
    assert.deepEqual([congrats!.author_name, congrats!.author_username, congrats!.replies], ['Partner Inc', 'partner-inc', []]);

    const cached = li.calls().length;
    await caps.comments!.list(page, post, { includeReplies: false, resolveAuthorNames: true });
    assert.deepEqual(callsSince(cached).map((c) => c.path), [`/rest/socialActions/${post.root.platformId}/comments`], 'names come from the cache');
  });

  test('a member\'s own name resolves from userinfo; the start cursor pages the comments; refusals say what is missing', async () => {
    const m = member([...LINKEDIN_SCOPES, 'r_member_social'], { givenName: 'Mia', familyName: 'Member' });
    const session = sessionFor(m.urn, m.token);
    const post = await publish(m.token, m.urn, 'Busy thread');
    for (let i = 0; i < 51; i++) li.addComment({ on: post.root.platformId, actor: m.urn, text: `c${i}` });
    const first = await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: true });
    assert.equal(first.items.length, 50);
    assert.equal(first.items[0]!.author_name, 'Mia Member');
    assert.equal(first.next, '50');
    const second = await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false, cursor: first.next });
    assert.deepEqual(second.items.map((r) => r.text), ['c50']);
    assert.equal(second.next, undefined);

    const plain = member();
    const theirs = await publish(plain.token, plain.urn, 'Private');
    const error = await refusal(caps.comments!.list(sessionFor(plain.urn, plain.token), theirs, { includeReplies: false, resolveAuthorNames: false }));
    assert.equal(error.code, 'forbidden');
    assert.match(error.message, /r_member_social, a restricted permission/);
  });

  test('reply: on the post as the page; to a comment under its URN with parentComment; to an answer under its parent', async () => {
    const post = await publish(admin.token, orgUrn, 'Questions welcome');
    const asker = member();
    const question = li.addComment({ on: post.root.platformId, actor: asker.urn, text: 'Is it free?' });
    const followUp = li.addComment({ on: question.urn, actor: asker.urn, text: 'Really?' });

    const mark = li.calls().length;
    const top = await caps.comments!.reply(page, post, 'Thanks all');
    const answer = await caps.comments!.reply(page, post, 'Yes', question.id);
    const again = await caps.comments!.reply(page, post, 'Really', followUp.id);
    const calls = callsSince(mark).map((c) => `${c.method} ${c.path} ${c.status}`);
    assert.deepEqual(calls, [
      `POST /rest/socialActions/${post.root.platformId}/comments 201`,
      `GET /rest/socialActions/${post.root.platformId}/comments/${question.id} 200`,
      `POST /rest/socialActions/${question.urn}/comments 201`,
      `GET /rest/socialActions/${post.root.platformId}/comments/${followUp.id} 200`,
      `POST /rest/socialActions/${question.urn}/comments 201`,
    ]);
    const stored = li.comments(post.root.platformId);
    const byId = (id: string) => stored.find((c) => c.id === id)!;
    assert.deepEqual([byId(top.replyId).actor, byId(top.replyId).parentComment], [orgUrn, undefined]);
    assert.equal(byId(answer.replyId).parentComment, question.urn);
    assert.equal(byId(again.replyId).parentComment, question.urn, 'LinkedIn nests one level');

    assert.equal((await refusal(caps.comments!.reply(page, post, ' '))).code, 'invalid');
    assert.equal((await refusal(caps.comments!.reply(page, post, 'x', 'abc'))).code, 'invalid');
    assert.equal((await refusal(caps.comments!.reply(page, post, 'x', '999'))).code, 'not_found');
  });
});

describe('analytics', () => {
  test('a page\'s post: reactions and comments from its social actions, impressions, reach, clicks and reshares from share statistics', async () => {
    const post = await publish(admin.token, orgUrn, 'Measured');
    li.setPostStatistics(post.root.platformId, { impressions: 1000, uniqueImpressions: 700, clicks: 40, likes: 25, shares: 5 });
    li.addComment({ on: post.root.platformId, actor: member().urn, text: 'Nice' });
    const mark = li.calls().length;
    assert.deepEqual(await caps.analytics!.post!(page, post), {
      likes: 25, comments: 1, shares: 5, views: null, reach: 700, saves: null, impressions: 1000,
      platform_specific: { impressionCount: 1000, uniqueImpressionsCount: 700, clickCount: 40, likeCount: 25, commentCount: 1, shareCount: 5, engagement: 0.071 },
    });
    assert.deepEqual(callsSince(mark).map((c) => [c.path, c.query]), [
      [`/rest/socialActions/${post.root.platformId}`, {}],
      ['/rest/organizationalEntityShareStatistics', { q: 'organizationalEntity', organizationalEntity: orgUrn, shares: `List(${post.root.platformId})` }],
    ]);
    await caps.remove!(page, post);
    assert.equal((await refusal(caps.analytics!.post!(page, post))).code, 'not_found');
  });

  test('a member\'s post: member post analytics with r_member_postAnalytics; without it every figure is null', async () => {
    const m = member([...LINKEDIN_SCOPES, 'r_member_postAnalytics']);
    const post = await publish(m.token, m.urn, 'My analytics');
    li.setPostStatistics(post.root.platformId, { impressions: 300, uniqueImpressions: 200, likes: 12, shares: 2, saves: 4 });
    const mark = li.calls().length;
    assert.deepEqual(await caps.analytics!.post!(sessionFor(m.urn, m.token), post), {
      likes: 12, comments: 0, shares: 2, views: null, reach: 200, saves: 4, impressions: 300,
      platform_specific: { IMPRESSION: 300, MEMBERS_REACHED: 200, REACTION: 12, COMMENT: 0, RESHARE: 2, POST_SAVE: 4 },
    });
    const queries = callsSince(mark).map((c) => c.query);
    assert.deepEqual(queries.map((q) => q.queryType), ['IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'COMMENT', 'RESHARE', 'POST_SAVE']);
    assert.deepEqual(queries[0], { q: 'entity', entity: `(share:${post.root.platformId})`, queryType: 'IMPRESSION', aggregation: 'TOTAL' });

    const plain = member();
    const theirs = await publish(plain.token, plain.urn, 'No analytics');
    const figures = await caps.analytics!.post!(sessionFor(plain.urn, plain.token), theirs);
    assert.deepEqual({ ...figures, platform_specific: {} }, { likes: null, comments: null, shares: null, views: null, reach: null, saves: null, impressions: null, platform_specific: {} });
    assert.match(String(figures.platform_specific.unavailable), /r_member_postAnalytics/);
  });

  test('a page: followers from networkSizes and the period\'s share statistics day by day (ranged); a member: nulls without a call', async () => {
    const writer = member();
    const gamma = li.addOrganization({ admins: [writer.sub] });
    const gammaUrn = `urn:li:organization:${gamma.id}`;
    li.setFollowers(gamma.id, 1234);
    const a = await publish(writer.token, gammaUrn, 'Day one');
    li.setPostStatistics(a.root.platformId, { impressions: 100, likes: 10, clicks: 3, shares: 1 });
    li.clock.advance(24 * 3600_000);
    const b = await publish(writer.token, gammaUrn, 'Day two');
    li.setPostStatistics(b.root.platformId, { impressions: 50, likes: 4 });
    li.addComment({ on: b.root.platformId, actor: writer.urn, text: 'first' });
    const until = new Date(li.clock.now() + 3600_000);
    const since = new Date(until.getTime() - 3 * 24 * 3600_000);
    const mark = li.calls().length;
    assert.deepEqual(await caps.analytics!.account!(sessionFor(gammaUrn, writer.token), { since, until }), {
      followers: 1234, following: null, posts: null, engagement: 10 + 3 + 1 + 4 + 1, ranged: true,
      platform_specific: { impressionCount: 150, clickCount: 3, likeCount: 14, commentCount: 1, shareCount: 1 },
    });
    assert.deepEqual(callsSince(mark).map((c) => [c.path, c.query]), [
      [`/rest/networkSizes/${gammaUrn}`, { edgeType: 'COMPANY_FOLLOWED_BY_MEMBER' }],
      ['/rest/organizationalEntityShareStatistics', { q: 'organizationalEntity', organizationalEntity: gammaUrn, timeIntervals: `(timeRange:(start:${since.getTime()},end:${until.getTime()}),timeGranularityType:DAY)` }],
    ]);

    const m = member();
    const before = li.calls().length;
    assert.deepEqual(await caps.analytics!.account!(sessionFor(m.urn, m.token), { since, until }), { followers: null, following: null, posts: null, engagement: null, ranged: false, platform_specific: {} });
    assert.equal(li.calls().length, before);
  });

  test('a revoked token is an auth error; a spent daily quota waits for midnight UTC', async () => {
    const m = member();
    const post = await publish(m.token, m.urn, 'Quota');
    li.setDailyQuota('DELETE /rest/posts/:urn', { member: 0 });
    const limited = await refusal(caps.remove!(sessionFor(m.urn, m.token), post));
    assert.equal(limited.code, 'quota');
    assert.ok(limited.retryAfterMs! > 0 && limited.retryAfterMs! <= 24 * 3600_000);
    li.revokeUser(m.sub);
    assert.equal((await refusal(caps.comments!.reply(sessionFor(m.urn, m.token), post, 'x'))).kind, 'auth');
  });
});
