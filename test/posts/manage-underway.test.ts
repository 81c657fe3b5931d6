// PATCH and DELETE on a post whose destination is still pending but has already reached its network
// (a thread's root published before a retry of its reply; an upload session or a processing wait
// stored as a checkpoint). Requeueing it from scratch would publish that part again; cancelling it
// would say "nothing was published" while it is on the network. Both answer 409 and change nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodeId } from '../../src/core/ids.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let x: TestAccount;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  x = await server.addAccount(org, 'x', 'underway_x');
});
after(() => server.close());

async function scheduledPost(): Promise<{ id: string; targetId: number }> {
  const at = new Date(Date.now() + 86_400_000).toISOString();
  const created = await server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [x.id], containers: [{ content: 'root' }, { content: 'reply' }], scheduledAt: at } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const { rows } = await server.db.query<{ id: number }>('SELECT id FROM targets WHERE post_id = $1', [decodeId(created.body.post.id)]);
  return { id: created.body.post.id, targetId: rows[0]!.id };
}

const state = async (targetId: number) =>
  (await server.db.query('SELECT t.status, t.checkpoint, (SELECT count(*)::int FROM target_parts WHERE target_id = t.id) AS parts, p.scheduled_at, p.cancelled_at FROM targets t JOIN posts p ON p.id = t.post_id WHERE t.id = $1', [targetId])).rows[0];

for (const [what, mark] of [
  ['the root container is published', (t: number) => server.db.query("INSERT INTO target_parts (target_id, position, org_id, status, platform_id, platform_url) VALUES ($1, 0, $2, 'published', '111', 'https://x.com/i/111')", [t, org.orgId])],
  ['a step is stored (an upload under way)', (t: number) => server.db.query(`UPDATE targets SET checkpoint = '{"session":"abc"}' WHERE id = $1`, [t])],
] as const) {
  test(`${what}: PATCH and DELETE answer 409 post_publishing and change nothing`, async () => {
    const post = await scheduledPost();
    await mark(post.targetId);
    const before = await state(post.targetId);
    const moved = await server.request('PATCH', `/v1/posts/${post.id}`, { key: org.key, body: { scheduledAt: new Date(Date.now() + 2 * 86_400_000).toISOString() } });
    assert.equal(moved.status, 409);
    assert.equal(moved.body.code, 'post_publishing');
    assert.equal(moved.headers.get('retry-after'), '30');
    const cancelled = await server.request('DELETE', `/v1/posts/${post.id}`, { key: org.key });
    assert.equal(cancelled.status, 409);
    assert.equal(cancelled.body.code, 'post_publishing');
    assert.deepEqual(await state(post.targetId), before);
  });
}

test('a pending post with nothing on the network is still rescheduled and cancelled', async () => {
  const post = await scheduledPost();
  const moved = await server.request('PATCH', `/v1/posts/${post.id}`, { key: org.key, body: { scheduledAt: new Date(Date.now() + 2 * 86_400_000).toISOString() } });
  assert.equal(moved.status, 200);
  const cancelled = await server.request('DELETE', `/v1/posts/${post.id}`, { key: org.key });
  assert.equal(cancelled.body.outcome, 'cancelled');
});
