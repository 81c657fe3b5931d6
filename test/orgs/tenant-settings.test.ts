// Approval per tenant (/v1/tenant-settings, issue 34): a tenant that requires approval holds every post
// targeting one of its accounts — created over HTTP, made from a draft, or created by the recurrence
// runner — while the organization's own setting is off; posts to other tenants' accounts are queued
// at once. Only admin keys change a tenant's settings; misspelt fields are named.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId, encodeId } from '../../src/core/ids.ts';
import { createLogger } from '../../src/log.ts';
import { createRecurrence } from '../../src/recurrences/manage.ts';
import { materializeNext, occurrenceFetchPolicy } from '../../src/recurrences/runner.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let acme: TestAccount;
let globex: TestAccount;
let editor: string;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  acme = await server.addAccount(org, 'x', 'acme_x', { tenantId: 'acme' });
  globex = await server.addAccount(org, 'bluesky', 'globex.bsky.social', { tenantId: 'globex' });
  editor = (await server.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'writer', role: 'editor' } })).body.data.key;
});
after(() => server.close());

const settingsOf = (tenant: string, key = org.key) => server.request('GET', `/v1/tenant-settings/${encodeURIComponent(tenant)}`, { key });
const setApproval = (tenant: string, body: unknown, key = org.key) => server.request('PATCH', `/v1/tenant-settings/${encodeURIComponent(tenant)}`, { key, body });
async function create(accounts: string[], body: Record<string, unknown> = {}) {
  const res = await server.request('POST', '/v1/posts', { key: editor, body: { accounts, content: `for ${accounts.length} accounts ${Math.random()}`, ...body } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}
const statuses = async (postId: string) =>
  (await server.db.query('SELECT status, due_at FROM targets WHERE post_id = $1 ORDER BY id', [decodeId(postId)])).rows.map((r) => [r.status, r.due_at !== null]);
const requests = async (postId: string) =>
  (await server.db.query("SELECT count(*)::int AS n FROM events WHERE org_id = $1 AND type = 'post.approval_requested' AND data->>'postId' = $2", [org.orgId, postId])).rows[0].n;

describe('/v1/tenant-settings', () => {
  test('a tenant never set has the defaults; an admin sets it, and it is listed', async () => {
    const unset = await settingsOf('acme');
    assert.equal(unset.status, 200);
    assert.deepEqual(unset.body, { success: true, data: { tenantId: 'acme', requireApproval: false, updatedAt: null } });
    assert.deepEqual((await server.request('GET', '/v1/tenant-settings', { key: org.key })).body, { success: true, data: [] });

    const set = await setApproval('acme', { requireApproval: true });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual({ ...set.body.data, updatedAt: typeof set.body.data.updatedAt }, { tenantId: 'acme', requireApproval: true, updatedAt: 'string' });
    assert.deepEqual((await settingsOf('acme', editor)).body.data, set.body.data, 'every role reads');
    const listed = await server.request('GET', '/v1/tenant-settings', { key: editor });
    assert.deepEqual(listed.body.data, [set.body.data]);
    assert.deepEqual((await server.request('GET', '/v1/settings', { key: org.key })).body.data, { requireApproval: false }, "the organization's own setting is untouched");
  });

  test('only admin keys change it; unknown, missing and mistyped fields are a 400 naming the field; nothing changes', async () => {
    const forbidden = await setApproval('acme', { requireApproval: false }, editor);
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.code, 'forbidden_role');
    for (const [body, field] of [[{ requireApprovals: false }, 'requireApprovals'], [{}, 'requireApproval'], [{ requireApproval: 'no' }, 'requireApproval']] as const) {
      const res = await setApproval('acme', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.deepEqual(res.body.details.map((d: { field: string }) => d.field), [field], JSON.stringify(body));
    }
    const long = await setApproval('t'.repeat(101), { requireApproval: true });
    assert.deepEqual([long.status, long.body.code], [414, 'uri_too_long'], 'a tenant id over 100 characters cannot be set');
    assert.equal((await settingsOf('acme')).body.data.requireApproval, true);
  });
});

describe('a tenant that requires approval', () => {
  test("holds posts to its accounts while the organization's setting is off; other tenants' posts are queued", async () => {
    const held = await create([acme.id]);
    assert.deepEqual([held.post.scheduled, held.post.approval?.status], [false, 'pending']);
    assert.deepEqual(await statuses(held.post.id), [['pending_approval', false]]);
    assert.equal(await requests(held.post.id), 1);

    const free = await create([globex.id]);
    assert.deepEqual([free.post.scheduled, free.post.approval], [true, null]);
    assert.deepEqual(await statuses(free.post.id), [['pending', true]]);

    const both = await create([globex.id, acme.id]);
    assert.equal(both.post.approval?.status, 'pending', 'one account of the tenant holds the whole post');
    assert.deepEqual(await statuses(both.post.id), [['pending_approval', false], ['pending_approval', false]]);

    const approved = await server.request('POST', `/v1/posts/${held.post.id}/approve`, { key: org.key });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.deepEqual(await statuses(held.post.id), [['pending', true]]);
  });

  test('a draft to its accounts asks for nothing until it is made a post, then waits', async () => {
    const draft = await create([acme.id], { isDraft: true });
    assert.equal(draft.post.approval, null);
    assert.deepEqual(await statuses(draft.post.id), [['pending', false]]);
    const made = await server.request('PATCH', `/v1/posts/${draft.post.id}`, { key: editor, body: { isDraft: false } });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.post.approval.status, 'pending');
    assert.deepEqual(await statuses(draft.post.id), [['pending_approval', false]]);
    assert.equal(await requests(draft.post.id), 1);
  });

  test("the recurrence runner's occurrences to its accounts wait too (the same judgement as the API's)", async () => {
    const deps = { db: server.db, logger: createLogger('silent'), fetch: occurrenceFetchPolicy(server.config) };
    const now = new Date();
    const { recurrence } = await createRecurrence(server.db, org.orgId, { accounts: [acme.id], content: 'weekly acme tip', every: { days: 7 } }, now, deps.fetch);
    assert.equal(await materializeNext(deps, decodeId(recurrence.id)!, now), true);
    const { rows } = await server.db.query('SELECT post_id FROM recurrence_occurrences WHERE recurrence_id = $1', [decodeId(recurrence.id)]);
    const post = (await server.request('GET', `/v1/posts/${encodeId(rows[0].post_id)}`, { key: org.key })).body.post;
    assert.equal(post.approval.status, 'pending');
    assert.deepEqual(post.socialAccounts.map((a: { status: string }) => a.status), ['pending_approval']);
  });

  test('turned off, new posts are queued at once; a post already waiting keeps waiting', async () => {
    const waiting = await create([acme.id]);
    assert.equal((await setApproval('acme', { requireApproval: false })).body.data.requireApproval, false);
    const after = await create([acme.id]);
    assert.deepEqual([after.post.scheduled, after.post.approval], [true, null]);
    assert.deepEqual(await statuses(waiting.post.id), [['pending_approval', false]]);
  });
});
