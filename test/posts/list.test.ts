// GET /v1/posts and GET /v1/posts/:id: filters (AND), the same-account rule, pagination, full accounts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let a1: TestAccount; // tenant t1
let a2: TestAccount; // tenant t2
let a3: TestAccount; // tenant t1
const ids: Record<string, string> = {};

const list = async (query = '') => server.request('GET', `/v1/posts${query}`, { key: org.key });
const idsOf = (res: { body: any }) => res.body.posts.map((p: any) => p.id);

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  a1 = await server.addAccount(org, 'x', 'list_a1', { tenantId: 't1' });
  a2 = await server.addAccount(org, 'bluesky', 'list_a2', { tenantId: 't2' });
  a3 = await server.addAccount(org, 'threads', 'list_a3', { tenantId: 't1' });
  const make = async (name: string, accounts: string[], extra: object = {}) => {
    const res = await server.request('POST', '/v1/posts', { key: org.key, body: { accounts, content: name, ...extra } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    ids[name] = res.body.post.id;
  };
  await make('p1', [a1.id]);
  await make('p2', [a2.id, a3.id]);
  await make('p3', [a1.id, a2.id], { scheduledAt: new Date(Date.now() + 2 * 86400_000).toISOString() });
  await make('p4', [a3.id], { scheduledAt: new Date(Date.now() + 5 * 86400_000).toISOString() });
  // Spread creation times so the range filters have something to cut.
  const hoursAgo: Record<string, number> = { p1: 40, p2: 30, p3: 20, p4: 10 };
  for (const [name, hours] of Object.entries(hoursAgo)) {
    await server.db.query(`UPDATE posts SET created_at = now() - make_interval(hours => $2) WHERE id = (SELECT id FROM posts WHERE org_id = $1 ORDER BY id LIMIT 1 OFFSET $3)`, [org.orgId, hours, Number(name.slice(1)) - 1]);
  }
});
after(() => server.close());

describe('GET /v1/posts', () => {
  test('newest first, with pagination total/count/limit/offset and the data alias', async () => {
    const res = await list();
    assert.equal(res.status, 200);
    assert.equal(res.body.success, true);
    assert.deepEqual(idsOf(res), [ids.p4, ids.p3, ids.p2, ids.p1]);
    assert.deepEqual(res.body.data, res.body.posts);
    assert.deepEqual(res.body.pagination, { total: 4, count: 4, limit: 50, offset: 0 });
    const p3 = res.body.posts[1];
    for (const field of ['id', 'orgId', 'publishedAt', 'scheduledAt', 'isDraft', 'createdAt', 'socialAccounts', 'containers', 'scheduled']) {
      assert.ok(field in p3, field);
    }
    const pending = { status: 'pending', error: null, platformPostId: null, platformPostUrl: null, publishedAt: null, editedAt: null, editedContainers: null };
    assert.deepEqual(p3.socialAccounts, [
      { id: a1.id, nickname: 'list_a1', network: 'x', username: 'list_a1', ...pending },
      { id: a2.id, nickname: 'list_a2', network: 'bluesky', username: 'list_a2', ...pending },
    ]);
  });

  test('each post carries exactly the schema\'s fields, in its order (the page is serialized once, without it)', async () => {
    const res = await list();
    const { PostDetailSchema, TargetSchema } = await import('../../src/posts/schema.ts');
    for (const post of res.body.posts) {
      assert.deepEqual(Object.keys(post), Object.keys(PostDetailSchema.properties));
      for (const account of post.socialAccounts) assert.deepEqual(Object.keys(account), Object.keys(TargetSchema.properties));
    }
    assert.match(res.headers.get('content-type')!, /^application\/json; charset=utf-8$/);
  });

  test('limit and offset page through; total stays the total', async () => {
    const page = await list('?limit=2&offset=1');
    assert.deepEqual(idsOf(page), [ids.p3, ids.p2]);
    assert.deepEqual(page.body.pagination, { total: 4, count: 2, limit: 2, offset: 1 });
    const beyond = await list('?offset=10');
    assert.deepEqual(beyond.body.pagination, { total: 4, count: 0, limit: 50, offset: 10 });
  });

  test('limit and offset out of range are 400s with details', async () => {
    for (const q of ['?limit=0', '?limit=101', '?offset=-1', '?limit=abc']) {
      const res = await list(q);
      assert.equal(res.status, 400, q);
      assert.ok(res.body.details.length > 0);
    }
  });

  test('tenant_id (and its alias tenantId): a post matches when one target account has it; full socialAccounts kept', async () => {
    const res = await list('?tenant_id=t2');
    assert.deepEqual(idsOf(res), [ids.p3, ids.p2]);
    assert.equal(res.body.posts[0].socialAccounts.length, 2, 'the matching post keeps all its accounts');
    assert.deepEqual(idsOf(await list('?tenantId=t2')), [ids.p3, ids.p2]);
    assert.deepEqual(idsOf(await list('?tenant_id=nope')), []);
  });

  test('social_account_id accepts the encoded id and the raw number', async () => {
    assert.deepEqual(idsOf(await list(`?social_account_id=${a1.id}`)), [ids.p3, ids.p1]);
    assert.deepEqual(idsOf(await list(`?social_account_id=${a1.rawId}`)), [ids.p3, ids.p1]);
    // A full page makes Crier count: the total is that account's posts, not the page.
    const firstOnly = await list(`?social_account_id=${a1.id}&limit=1`);
    assert.deepEqual(firstOnly.body.pagination, { total: 2, count: 1, limit: 1, offset: 0 });
    assert.deepEqual((await list(`?social_account_id=${a3.id}&tenant_id=t1&limit=1`)).body.pagination, { total: 2, count: 1, limit: 1, offset: 0 });
    const bad = await list('?social_account_id=not-an-id');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].field, 'social_account_id');
  });

  test('tenant and account together: the same account must satisfy both', async () => {
    assert.deepEqual(idsOf(await list(`?tenant_id=t1&social_account_id=${a1.id}`)), [ids.p3, ids.p1]);
    // a2 is on p2 and p3, but a2's tenant is t2: t1 + a2 matches nothing, though p2 has a t1 account.
    assert.deepEqual(idsOf(await list(`?tenant_id=t1&social_account_id=${a2.id}`)), []);
  });

  test('created and scheduled ranges combine with AND', async () => {
    const iso = (hoursAgo: number) => encodeURIComponent(new Date(Date.now() - hoursAgo * 3600_000).toISOString());
    assert.deepEqual(idsOf(await list(`?created_after=${iso(35)}&created_before=${iso(15)}`)), [ids.p3, ids.p2]);
    const day = (days: number) => encodeURIComponent(new Date(Date.now() + days * 86400_000).toISOString());
    assert.deepEqual(idsOf(await list(`?scheduled_after=${day(1)}`)), [ids.p4, ids.p3]);
    assert.deepEqual(idsOf(await list(`?scheduled_after=${day(1)}&scheduled_before=${day(3)}`)), [ids.p3]);
    assert.deepEqual(idsOf(await list(`?scheduled_after=${day(1)}&tenant_id=t2`)), [ids.p3]);
    const total = await list(`?scheduled_after=${day(1)}&limit=1`);
    assert.deepEqual(total.body.pagination, { total: 2, count: 1, limit: 1, offset: 0 });
  });

  test('a malformed date is a 400 naming the parameter', async () => {
    const res = await list('?created_after=yesterday');
    assert.equal(res.status, 400);
    assert.equal(res.body.details[0].field, 'created_after');
  });
});

describe('GET /v1/posts: each post as GET /v1/posts/:id shows it', () => {
  test('threads with media (in order, with and without alt text), several accounts, overrides, drafts', async () => {
    const other = await server.createOrg();
    const b1 = await server.addAccount(other, 'bluesky', 'same_b1');
    const b2 = await server.addAccount(other, 'x', 'same_x2', { nickname: 'Nick "X" \\ é' });
    const media = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://cdn.example.com/${n}-${i}.png`, filename: `${n}-${i}.png`, ...(i % 2 ? {} : { altText: `alt ${i}` }) }));
    const bodies = [
      { accounts: [b1.id, b2.id], containers: [{ content: 'root', media: media(3) }, { content: 'reply' }, { content: 'last', media: media(1) }] },
      { accounts: [b2.id], content: 'plain', isDraft: true },
      { accounts: [b1.id], containers: [{ media: media(2) }], bluesky: { labels: ['sexual'] } },
      { accounts: [b2.id, b1.id], content: 'both, other order', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() },
    ];
    for (const body of bodies) {
      const res = await server.request('POST', '/v1/posts', { key: other.key, body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const page = await server.request('GET', '/v1/posts', { key: other.key });
    assert.equal(page.body.posts.length, bodies.length);
    for (const listed of page.body.posts) {
      const detail = (await server.request('GET', `/v1/posts/${listed.id}`, { key: other.key })).body.post;
      assert.deepEqual(listed, detail);
    }
    assert.equal(page.body.posts.filter((p: any) => p.containers.some((c: any) => c.media.length)).length, 2);
  });
});

describe('GET /v1/posts/:id', () => {
  test('shows each account with its publishing state', async () => {
    const res = await server.request('GET', `/v1/posts/${ids.p2}`, { key: org.key });
    assert.equal(res.status, 200);
    assert.equal(res.body.post.id, ids.p2);
    assert.deepEqual(res.body.post.socialAccounts, [
      { id: a2.id, nickname: 'list_a2', network: 'bluesky', username: 'list_a2', status: 'pending', error: null, platformPostId: null, platformPostUrl: null, publishedAt: null, editedAt: null, editedContainers: null },
      { id: a3.id, nickname: 'list_a3', network: 'threads', username: 'list_a3', status: 'pending', error: null, platformPostId: null, platformPostUrl: null, publishedAt: null, editedAt: null, editedContainers: null },
    ]);
    assert.equal(res.body.post.containers[0].content, 'p2');
  });

  test('an unknown or malformed id is a 404', async () => {
    for (const id of ['zzzzzzzzzz', '1', 'k3G7QAe5']) {
      const res = await server.request('GET', `/v1/posts/${id}`, { key: org.key });
      assert.equal(res.status, 404, id);
      assert.equal(res.body.success, false);
    }
  });
});

describe('GET /v1/social-accounts', () => {
  test('lists the org accounts in the data envelope, never tokens', async () => {
    await server.addAccount(org, 'linkedin', 'list_tok', { accessToken: 'secret-access-token', refreshToken: 'secret-refresh' });
    const res = await server.request('GET', '/v1/social-accounts', { key: org.key });
    assert.equal(res.status, 200);
    assert.equal(res.body.success, true);
    assert.equal(res.body.count, 4);
    assert.equal(res.body.limit, 50);
    assert.equal(res.body.offset, 0);
    const first = res.body.data[0];
    assert.deepEqual(Object.keys(first).sort(), ['accountType', 'createdAt', 'disconnectedAt', 'disconnectedReason', 'id', 'isActive', 'network', 'network_unique_id', 'nickname', 'profile_picture_url', 'sandbox', 'tenantId', 'username']);
    assert.equal(first.id, a1.id);
    assert.equal(first.isActive, 1);
    assert.ok(!JSON.stringify(res.body).includes('secret-'));
    const row = await server.db.query("SELECT access_token_enc FROM social_accounts WHERE username = 'list_tok'");
    assert.ok(!row.rows[0].access_token_enc.toString('latin1').includes('secret-access-token'), 'tokens are encrypted at rest');
  });

  test('filters: id, tenantId, network, networkUniqueId, partial username', async () => {
    const get = async (q: string) => (await server.request('GET', `/v1/social-accounts${q}`, { key: org.key })).body.data.map((a: any) => a.username);
    assert.deepEqual(await get(`?id=${a2.id}`), ['list_a2']);
    assert.deepEqual(await get('?tenantId=t1'), ['list_a1', 'list_a3']);
    assert.deepEqual(await get('?network=threads'), ['list_a3']);
    assert.deepEqual(await get('?username=A1'), ['list_a1']);
    assert.deepEqual(await get('?username=%25'), []);
    const unique = (await server.request('GET', `/v1/social-accounts?id=${a3.id}`, { key: org.key })).body.data[0].network_unique_id;
    assert.deepEqual(await get(`?networkUniqueId=${unique}`), ['list_a3']);
    const bad = await server.request('GET', '/v1/social-accounts?network=myspace', { key: org.key });
    assert.equal(bad.status, 400);
  });
});
