// POST /v1/posts under concurrency: creates share transactions (group commit), and each request still
// gets exactly its own post, or its own error, as if it had been alone.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let orgA: TestOrg;
let orgB: TestOrg;
let ax: TestAccount;
let ab: TestAccount;
let bx: TestAccount;
let threads: TestAccount;

before(async () => {
  server = await startTestServer();
  orgA = await server.createOrg();
  orgB = await server.createOrg();
  ax = await server.addAccount(orgA, 'x', 'a_x');
  ab = await server.addAccount(orgA, 'bluesky', 'a.bsky.social');
  threads = await server.addAccount(orgA, 'threads', 'a_threads');
  bx = await server.addAccount(orgB, 'x', 'b_x');
});
after(() => server.close());

const create = (org: TestOrg, body: unknown, key?: string) =>
  server.request('POST', '/v1/posts', { key: org.key, body, headers: key ? { 'idempotency-key': key } : {} });

test('60 concurrent creates of two orgs: each answer and each stored post is its own request\'s, and they shared transactions', async () => {
  const inHour = new Date(Date.now() + 3_600_000).toISOString();
  const requests = Array.from({ length: 60 }, (_, i) => {
    const org = i % 3 === 0 ? orgB : orgA;
    const accounts = org === orgB ? [bx.id] : i % 2 ? [ab.id, ax.id] : [ax.username];
    const body: Record<string, unknown> = {
      accounts,
      containers: [
        { content: `post ${i}`, media: i % 4 === 0 ? [{ url: `https://cdn.example.com/${i}.png`, filename: `${i}.png`, altText: `alt ${i}` }] : [] },
        ...(i % 5 === 0 ? [{ content: `reply ${i}` }] : []),
      ],
      ...(i % 7 === 0 ? { scheduledAt: inHour } : {}),
      ...(i % 11 === 0 ? { isDraft: true } : {}),
    };
    return { org, body, accounts, i };
  });
  const responses = await Promise.all(requests.map((r) => create(r.org, r.body)));

  const ids = new Set<string>();
  for (const [n, res] of responses.entries()) {
    const { org, accounts, i } = requests[n]!;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const post = res.body.post;
    ids.add(post.id);
    assert.deepEqual(post.containers.map((c: any) => c.content), i % 5 === 0 ? [`post ${i}`, `reply ${i}`] : [`post ${i}`]);
    assert.deepEqual(post.containers[0].media.map((m: any) => [m.url, m.altText]), i % 4 === 0 ? [[`https://cdn.example.com/${i}.png`, `alt ${i}`]] : []);
    const expectedAccounts = org === orgB ? [bx.id] : i % 2 ? [ab.id, ax.id] : [ax.id];
    assert.deepEqual(post.socialAccounts.map((a: any) => a.id), expectedAccounts, `accounts ${JSON.stringify(accounts)}`);
    assert.equal(post.scheduledAt, i % 7 === 0 ? inHour : null);
    assert.equal(post.isDraft, i % 11 === 0);
    // What is stored is what was answered, read back by the post's own org.
    const read = await server.request('GET', `/v1/posts/${post.id}`, { key: org.key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.post.containers, post.containers);
    assert.deepEqual(read.body.post.socialAccounts.map((a: any) => a.id), expectedAccounts);
  }
  assert.equal(ids.size, 60);

  const stored = await server.db.query<{ posts: number; targets: number; due: number; transactions: number }>(
    `SELECT count(DISTINCT p.id)::int AS posts, count(t.id)::int AS targets, count(t.due_at)::int AS due,
            count(DISTINCT p.xmin::text)::int AS transactions
       FROM posts p JOIN targets t ON t.post_id = p.id WHERE p.org_id IN ($1, $2)`,
    [orgA.orgId, orgB.orgId],
  );
  const expectedTargets = requests.reduce((n, r) => n + (r.org === orgB ? 1 : r.i % 2 ? 2 : 1), 0);
  const expectedDue = requests.reduce((n, r) => n + (r.i % 11 === 0 ? 0 : r.org === orgB ? 1 : r.i % 2 ? 2 : 1), 0);
  const row = stored.rows[0]!;
  assert.equal(row.posts, 60);
  assert.equal(row.targets, expectedTargets, 'one target per resolved account, never more');
  assert.equal(row.due, expectedDue, 'drafts are stored with nothing due');
  assert.ok(row.transactions < 60, `the 60 creates shared transactions (${row.transactions} transactions)`);
  // Every due target of a post scheduled in an hour is due then, the others now.
  const early = await server.db.query(
    `SELECT count(*)::int AS n FROM targets t JOIN posts p ON p.id = t.post_id
      WHERE p.org_id IN ($1, $2) AND t.due_at IS NOT NULL AND t.due_at <> coalesce(p.scheduled_at, t.due_at)`,
    [orgA.orgId, orgB.orgId],
  );
  assert.equal(early.rows[0].n, 0);
});

test('bad requests among concurrent good ones get their own 4xx; the good ones are stored', async () => {
  const before = await server.db.query('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [orgA.orgId]);
  const reusedKey = randomUUID();
  assert.equal((await create(orgA, { accounts: [ax.id], content: 'first use' }, reusedKey)).status, 200);
  const good = Array.from({ length: 12 }, (_, i) => create(orgA, { accounts: [ax.id], content: `good ${i}` }));
  const bad = [
    create(orgA, { accounts: ['nobody_here'], content: 'no account' }),
    create(orgA, { accounts: [threads.id], content: 't'.repeat(501) }),
    create(orgA, { accounts: [ax.id], content: 5 }, randomUUID()),
    create(orgA, { accounts: [ax.id], content: 'another body' }, reusedKey),
    create(orgA, { accounts: [bx.id], content: "another org's account" }),
  ];
  const [goodAnswers, badAnswers] = await Promise.all([Promise.all(good), Promise.all(bad)]);
  assert.deepEqual(goodAnswers.map((r) => r.status), Array(12).fill(200));
  assert.deepEqual(goodAnswers.map((r) => r.body.post.containers[0].content), Array.from({ length: 12 }, (_, i) => `good ${i}`));
  assert.deepEqual(badAnswers.map((r) => r.status), [400, 400, 400, 422, 400]);
  assert.equal(badAnswers[0]!.body.code, 'no_account_resolved');
  assert.deepEqual(badAnswers[1]!.body.details.map((d: any) => d.field), ['containers[0].content']);
  assert.ok(badAnswers[2]!.body.details.some((d: any) => d.field === 'content'));
  assert.equal(badAnswers[3]!.body.code, 'idempotency_key_reuse');
  assert.equal(badAnswers[4]!.body.code, 'no_account_resolved');
  const afterCount = await server.db.query('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [orgA.orgId]);
  assert.equal(afterCount.rows[0].n, before.rows[0].n + 1 + 12, 'the first use and the twelve good ones, nothing else');
});

test('the same key twice in flight: one post, the other request replays it or gets 409', async () => {
  const key = randomUUID();
  const body = { accounts: [ax.id], content: 'twice' };
  const answers = await Promise.all([create(orgA, body, key), create(orgA, body, key), create(orgA, { accounts: [ax.id], content: 'other' })]);
  const statuses = answers.slice(0, 2).map((r) => r.status).sort();
  assert.ok(JSON.stringify(statuses) === '[200,409]' || JSON.stringify(statuses) === '[200,200]', JSON.stringify(statuses));
  const posts = await server.db.query("SELECT count(*)::int AS n FROM posts p JOIN containers c ON c.post_id = p.id WHERE p.org_id = $1 AND c.content = 'twice'", [orgA.orgId]);
  assert.equal(posts.rows[0].n, 1);
  assert.equal(answers[2]!.status, 200);
});
