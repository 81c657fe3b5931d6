// LinkedIn figures Crier asks for, held to what the API serves: the member post metrics its
// LinkedIn-Version has (POST_SAVE only from 202603), share statistics only inside the rolling
// 12-month window, and a page role other than ADMINISTRATOR getting null figures instead of a failure.
// Its own emulator, so the emulator's clock is Crier's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startLinkedInEmulator, type LinkedInEmulator } from '../../../emulators/linkedin/server.ts';
import type { AccountSession, NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PublishedPost } from '../../../src/core/post.ts';
import { memberMetricsFor, statisticsWindowStart } from '../../../src/networks/linkedin/analytics.ts';
import { linkedin } from '../../../src/networks/linkedin/index.ts';
import { LINKEDIN_SCOPES, LINKEDIN_VERSION } from '../../../src/networks/linkedin/oauth.ts';

let li: LinkedInEmulator;
let caps: NetworkCapabilities;
const APP = { clientId: 'li-analytics', clientSecret: 'secret', redirectUris: ['https://crier.example/cb'] };
const MONTH_MS = 30 * 24 * 3_600_000;

before(async () => {
  li = await startLinkedInEmulator();
  li.addApp({ ...APP, scopes: [...LINKEDIN_SCOPES, 'r_member_postAnalytics'] });
  caps = linkedin.capabilities!({ settings: { baseUrl: li.url }, allowLoopbackFetch: true, publicBaseUrl: 'http://localhost' });
});
after(() => li.close());

function member(scopes: string[] = LINKEDIN_SCOPES) {
  const m = li.addUser({});
  return { sub: m.sub, urn: `urn:li:person:${m.sub}`, token: li.oauth.issue(m.sub, APP.clientId, scopes).accessToken };
}

function sessionFor(author: string, token: string): AccountSession {
  return {
    account: { id: 1, orgId: 1, network: 'linkedin', username: 'acme', networkUniqueId: author, serviceUrl: null, accessToken: token, refreshToken: null, credential: null },
    saveTokens: async () => {},
    userFetch: fetch,
  };
}

async function publish(token: string, author: string, commentary: string): Promise<PublishedPost> {
  const res = await fetch(`${li.url}/rest/posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'linkedin-version': LINKEDIN_VERSION, 'x-restli-protocol-version': '2.0.0', 'content-type': 'application/json' },
    body: JSON.stringify({ author, commentary, visibility: 'PUBLIC', distribution: { feedDistribution: 'MAIN_FEED' }, lifecycleState: 'PUBLISHED' }),
  });
  assert.equal(res.status, 201, await res.text());
  const urn = res.headers.get('x-restli-id')!;
  const root = { platformId: urn, url: `https://www.linkedin.com/feed/update/${urn}/` };
  return { root, parts: [root], block: {} };
}

const callsSince = (mark: number) => li.calls().slice(mark);

describe('member post metrics follow the LinkedIn-Version', () => {
  test('POST_SAVE only from 202603: 202511 has the five metrics of its page view', () => {
    assert.deepEqual(memberMetricsFor('202511'), ['IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'COMMENT', 'RESHARE']);
    assert.deepEqual(memberMetricsFor('202603'), ['IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'COMMENT', 'RESHARE', 'POST_SAVE']);
  });

  test('the adapter asks exactly the metrics of the version it sends, and LinkedIn answers each', async () => {
    const m = member([...LINKEDIN_SCOPES, 'r_member_postAnalytics']);
    const post = await publish(m.token, m.urn, 'Counted');
    li.setPostStatistics(post.root.platformId, { impressions: 9, saves: 2 });
    const mark = li.calls().length;
    const figures = await caps.analytics!.post!(sessionFor(m.urn, m.token), post);
    const calls = callsSince(mark);
    assert.deepEqual(calls.map((c) => c.query.queryType), [...memberMetricsFor(LINKEDIN_VERSION)]);
    assert.deepEqual(calls.map((c) => c.status), calls.map(() => 200));
    assert.deepEqual([figures.impressions, figures.saves], [9, 2]);
  });
});

describe('share statistics inside the rolling 12-month window', () => {
  test('a period starting before the window is asked from the window\'s start, and said so', async () => {
    const admin = member();
    const org = li.addOrganization({ admins: [admin.sub], followers: 8 });
    const orgUrn = `urn:li:organization:${org.id}`;
    const post = await publish(admin.token, orgUrn, 'In the window');
    li.setPostStatistics(post.root.platformId, { impressions: 40, likes: 4 });
    const until = new Date(Date.now() + 3_600_000);
    const since = new Date(until.getTime() - 14 * MONTH_MS);
    const mark = li.calls().length;
    const earliest = statisticsWindowStart(Date.now());
    const figures = await caps.analytics!.account!(sessionFor(orgUrn, admin.token), { since, until });
    const latest = statisticsWindowStart(Date.now());
    const stats = callsSince(mark).find((c) => c.path === '/rest/organizationalEntityShareStatistics')!;
    assert.equal(stats.status, 200);
    const start = Number(/start:(\d+)/.exec(stats.query.timeIntervals!)![1]);
    assert.ok(start >= earliest && start <= latest, `asked from ${start}, the window starts at ${earliest}`);
    assert.deepEqual(figures, {
      followers: 8, following: null, posts: null, engagement: 4, ranged: true,
      platform_specific: { impressionCount: 40, clickCount: 0, likeCount: 4, commentCount: 0, shareCount: 0, statisticsSince: new Date(start).toISOString() },
    });
  });

  test('a period wholly before the window asks no statistics: followers only', async () => {
    const admin = member();
    const org = li.addOrganization({ admins: [admin.sub], followers: 3 });
    const orgUrn = `urn:li:organization:${org.id}`;
    const until = new Date(Date.now() - 13 * MONTH_MS);
    const mark = li.calls().length;
    const figures = await caps.analytics!.account!(sessionFor(orgUrn, admin.token), { since: new Date(until.getTime() - MONTH_MS), until });
    assert.deepEqual(callsSince(mark).map((c) => c.path), [`/rest/networkSizes/${orgUrn}`]);
    assert.deepEqual([figures.followers, figures.engagement, figures.ranged], [3, null, false]);
  });
});

describe('page roles without every figure', () => {
  async function pagePost(role: 'DIRECT_SPONSORED_CONTENT_POSTER' | 'CONTENT_ADMINISTRATOR') {
    const writer = member();
    const org = li.addOrganization({ followers: 5 });
    li.grantRole(org.id, writer.sub, role);
    const orgUrn = `urn:li:organization:${org.id}`;
    const post = await publish(writer.token, orgUrn, `${role} post`);
    li.setPostStatistics(post.root.platformId, { impressions: 70, likes: 6 });
    return { session: sessionFor(orgUrn, writer.token), post };
  }

  test('a DIRECT_SPONSORED_CONTENT_POSTER: reactions and comments from social actions, share statistics null with the reason; followers', async () => {
    const { session, post } = await pagePost('DIRECT_SPONSORED_CONTENT_POSTER');
    const figures = await caps.analytics!.post!(session, post);
    assert.deepEqual({ ...figures, platform_specific: {} }, { likes: 6, comments: 0, shares: null, views: null, reach: null, saves: null, impressions: null, platform_specific: {} });
    assert.deepEqual(figures.platform_specific, { unavailable: 'LinkedIn gives share statistics only to the page\'s administrators (ADMINISTRATOR role, rw_organization_admin)' });
    const account = await caps.analytics!.account!(session, { since: new Date(Date.now() - 86_400_000), until: new Date(Date.now() + 3_600_000) });
    assert.deepEqual([account.followers, account.engagement, account.ranged], [5, null, false]);
    assert.match(String(account.platform_specific.unavailable), /ADMINISTRATOR/);
  });

  test('a CONTENT_ADMINISTRATOR: every post figure null, both reasons said', async () => {
    const { session, post } = await pagePost('CONTENT_ADMINISTRATOR');
    const figures = await caps.analytics!.post!(session, post);
    assert.deepEqual({ ...figures, platform_specific: {} }, { likes: null, comments: null, shares: null, views: null, reach: null, saves: null, impressions: null, platform_specific: {} });
    assert.match(String(figures.platform_specific.unavailable), /DIRECT_SPONSORED_CONTENT_POSTER.*; .*share statistics/);
  });
});
