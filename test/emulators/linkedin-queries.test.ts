// The LinkedIn emulator's query parameters and article cards: Rest.li's 400 "Invalid query parameters
// passed to request" for a parameter a route does not take or one given twice (Rest.li 2.0 carries a
// list as one List(…) value), every value of a repeated parameter kept in calls(), the OAuth pages
// left alone; and the Posts API's required article title.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startLinkedInEmulator, type LinkedInEmulator } from '../../emulators/index.ts';

const REST = { 'linkedin-version': '202610', 'x-restli-protocol-version': '2.0.0' };
const APP = { clientId: 'li-queries', clientSecret: 'secret', redirectUris: ['https://crier.example/cb'] };
const INVALID_QUERY = { status: 400, code: 'ILLEGAL_ARGUMENT', message: 'Invalid query parameters passed to request' };

describe('LinkedIn emulator: query parameters and article cards', () => {
  let li: LinkedInEmulator;
  let urn: string;
  let token: string;

  before(async () => {
    li = await startLinkedInEmulator();
    li.addApp(APP);
    const m = li.addUser({});
    urn = `urn:li:person:${m.sub}`;
    token = li.oauth.issue(m.sub, APP.clientId, ['openid', 'profile', 'w_member_social', 'r_member_social', 'rw_organization_admin']).accessToken;
  });
  after(() => li.close());

  const get = async (path: string) => {
    const res = await fetch(`${li.url}${path}`, { headers: { authorization: `Bearer ${token}`, ...REST } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  test('the parameters a finder takes are served; an unknown one is refused as Rest.li does', async () => {
    const author = encodeURIComponent(urn);
    assert.equal((await get(`/rest/posts?q=author&author=${author}&count=10&start=0&sortBy=CREATED`)).status, 200);
    assert.deepEqual(await get(`/rest/posts?q=author&author=${author}&limit=10`), { status: 400, body: INVALID_QUERY });
    assert.deepEqual(await get('/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&organization=1'), { status: 400, body: INVALID_QUERY });
    assert.deepEqual(await get(`/rest/posts/${encodeURIComponent('urn:li:share:1')}?fields=id`), { status: 400, body: INVALID_QUERY });
    // The token comes first.
    const anonymous = await fetch(`${li.url}/rest/posts?q=author&author=${author}&limit=10`, { headers: REST });
    assert.equal(anonymous.status, 401);
  });

  test('a repeated parameter is refused, not read as its first value; calls() keeps every value', async () => {
    const mark = li.calls().length;
    assert.deepEqual(await get('/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&role=ANALYST'), { status: 400, body: INVALID_QUERY });
    const [logged] = li.calls().slice(mark);
    assert.deepEqual(logged!.queryAll, { q: ['roleAssignee'], role: ['ADMINISTRATOR', 'ANALYST'] });
  });

  test('the consent page is not Rest.li: a parameter it does not know is ignored', async () => {
    const m = li.addUser({});
    li.signIn(m.sub);
    const url = new URL(`${li.url}/oauth/v2/authorization`);
    url.search = new URLSearchParams({ response_type: 'code', client_id: APP.clientId, redirect_uri: APP.redirectUris[0]!, state: 'st', scope: 'openid', prompt: 'login' }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.ok(new URL(res.headers.get('location')!).searchParams.get('code'));
  });

  test('an article card needs its title (Posts API): without one, Rest.li\'s 422; with one, 201', async () => {
    const post = (article: Record<string, unknown>) => fetch(`${li.url}/rest/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...REST },
      body: JSON.stringify({ author: urn, commentary: `Card ${JSON.stringify(article)}`, visibility: 'PUBLIC', distribution: { feedDistribution: 'MAIN_FEED' }, lifecycleState: 'PUBLISHED', content: { article } }),
    });
    const untitled = await post({ source: 'https://crier.example/a', description: 'No title' });
    assert.equal(untitled.status, 422);
    assert.deepEqual(await untitled.json(), { status: 422, message: 'ERROR :: /content/article/title :: field is required but not found and has no default value\n' });
    assert.equal((await post({ source: 'https://crier.example/a', title: 'A title' })).status, 201);
  });
});
