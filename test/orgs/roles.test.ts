// API key roles (src/orgs/roles.ts): admin does everything, editor writes posts but manages no keys,
// webhooks or settings and cannot approve, approver reads and decides on posts. A refusal is a 403
// `forbidden_role` naming the roles the route needs, and changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApiKey } from '../../src/orgs/api-keys.ts';
import { rolesAllowed, WRITE_ROUTES } from '../../src/orgs/roles.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let account: TestAccount;
const keys: Record<'editor' | 'approver', string> = { editor: '', approver: '' };

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  account = await server.addAccount(org, 'bluesky');
  for (const role of ['editor', 'approver'] as const) {
    const res = await server.request('POST', '/v1/api-keys', { key: org.key, body: { name: role, role } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.role, role);
    keys[role] = res.body.data.key;
  }
});
after(() => server.close());

function assertForbidden(res: { status: number; body: any }, role: string, needs: string): void {
  assert.equal(res.status, 403, JSON.stringify(res.body));
  assert.equal(res.body.success, false);
  assert.equal(res.body.code, 'forbidden_role');
  assert.match(res.body.error, new RegExp(`role is ${role}; .* needs a key with the role ${needs}$`));
  assert.deepEqual(res.body.details, [{ field: 'role', message: `is ${role}; needs ${needs}` }]);
}

const keyCount = async () => (await server.db.query('SELECT count(*)::int AS n FROM api_keys WHERE org_id = $1', [org.orgId])).rows[0].n;

describe('key roles', () => {
  test('keys made without a role (the first start, the CLI, an older key) are admin, and listings show each role', async () => {
    const cli = await createApiKey(server.db, org.orgId, 'from the CLI');
    const listed = await server.request('GET', '/v1/api-keys?limit=100', { key: org.key });
    const roles = Object.fromEntries(listed.body.data.map((k: any) => [k.name, k.role]));
    assert.equal(roles['from the CLI'], 'admin');
    assert.equal(roles.admin, 'admin', "the org's first key");
    assert.equal(roles.editor, 'editor');
    assert.equal(roles.approver, 'approver');
    assert.equal((await server.request('POST', '/v1/api-keys', { key: cli.key, body: { name: 'made by the CLI key' } })).body.data.role, 'admin');
  });

  test('an unknown role is a 400 naming the field; nothing is created', async () => {
    const before = await keyCount();
    const res = await server.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'bad', role: 'owner' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_error');
    assert.ok(res.body.details.some((d: any) => d.field === 'role'), JSON.stringify(res.body.details));
    assert.equal(await keyCount(), before);
  });

  test('only admin keys create or revoke keys', async () => {
    const before = await keyCount();
    for (const role of ['editor', 'approver'] as const) {
      assertForbidden(await server.request('POST', '/v1/api-keys', { key: keys[role], body: { name: 'escalate', role: 'admin' } }), role, 'admin');
    }
    assert.equal(await keyCount(), before, 'no key was created');
    const victim = (await server.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'victim' } })).body.data;
    assertForbidden(await server.request('DELETE', `/v1/api-keys/${victim.id}`, { key: keys.editor }), 'editor', 'admin');
    assert.equal((await server.request('GET', '/v1/usage', { key: victim.key })).status, 200, 'the key still works');
  });

  test('only admin keys create webhooks or change settings', async () => {
    const hook = { name: 'h', url: 'https://example.com/hook', events: ['post.published'] };
    assertForbidden(await server.request('POST', '/v1/webhooks', { key: keys.editor, body: hook }), 'editor', 'admin');
    assertForbidden(await server.request('POST', '/v1/webhooks', { key: keys.approver, body: hook }), 'approver', 'admin');
    assert.equal((await server.request('GET', '/v1/webhooks', { key: org.key })).body.data.length, 0);
    assertForbidden(await server.request('PATCH', '/v1/settings', { key: keys.editor, body: { requireApproval: true } }), 'editor', 'admin');
    assertForbidden(await server.request('PATCH', '/v1/settings', { key: keys.approver, body: { requireApproval: false } }), 'approver', 'admin');
    assert.deepEqual((await server.request('GET', '/v1/settings', { key: keys.approver })).body, { success: true, data: { requireApproval: false } });
  });

  test('editors write posts; approvers may not create, reschedule or cancel them', async () => {
    const created = await server.request('POST', '/v1/posts', { key: keys.editor, body: { accounts: [account.id], content: 'by an editor', isDraft: true } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.post.id;
    assertForbidden(await server.request('POST', '/v1/posts', { key: keys.approver, body: { accounts: [account.id], content: 'by an approver' } }), 'approver', 'admin or editor');
    assertForbidden(await server.request('PATCH', `/v1/posts/${id}`, { key: keys.approver, body: { isDraft: false } }), 'approver', 'admin or editor');
    assertForbidden(await server.request('DELETE', `/v1/posts/${id}`, { key: keys.approver }), 'approver', 'admin or editor');
    const post = (await server.request('GET', `/v1/posts/${id}`, { key: keys.approver })).body.post;
    assert.equal(post.isDraft, true, 'the approver reads the post, unchanged');
    assert.equal(post.socialAccounts[0].status, 'pending');
    assert.equal((await server.request('DELETE', `/v1/posts/${id}`, { key: keys.editor })).status, 200);
  });

  test('editors may not approve or reject; the 403 comes before anything else is looked at', async () => {
    assertForbidden(await server.request('POST', '/v1/posts/nonexistent/approve', { key: keys.editor }), 'editor', 'admin or approver');
    assertForbidden(await server.request('POST', '/v1/posts/nonexistent/reject', { key: keys.editor, body: { reason: 'no' } }), 'editor', 'admin or approver');
    assert.equal((await server.request('POST', '/v1/posts/nonexistent/approve', { key: keys.approver })).status, 404);
  });

  test('every role reads', async () => {
    for (const key of [keys.editor, keys.approver]) {
      for (const path of ['/v1/posts', '/v1/social-accounts', '/v1/api-keys', '/v1/webhooks', '/v1/settings', '/v1/events']) {
        assert.equal((await server.request('GET', path, { key })).status, 200, path);
      }
    }
  });

  test('a write route missing from the table is admin-only; reads are open to every role', () => {
    assert.deepEqual(rolesAllowed('POST', '/v1/posts'), ['admin', 'editor']);
    assert.deepEqual(rolesAllowed('POST', '/v1/posts/:id/approve'), ['admin', 'approver']);
    assert.deepEqual(rolesAllowed('POST', '/v1/a-route-nobody-placed'), ['admin']);
    assert.deepEqual(rolesAllowed('GET', '/v1/a-route-nobody-placed'), ['admin', 'editor', 'approver']);
  });

  test("every route the table places exists (a renamed route would fall back to admin-only)", () => {
    const missing = Object.keys(WRITE_ROUTES).filter((entry) => {
      const [method, url] = entry.split(' ') as [string, string];
      return !server.app.hasRoute({ method: method as 'POST', url });
    });
    // The sandbox's simulations exist in sandbox mode only (`crier sandbox`), which this server is not.
    assert.deepEqual(missing, ['POST /v1/sandbox/posts/:id/comments', 'POST /v1/sandbox/social-accounts/:id/messages']);
  });
});
