// Refreshing X tokens before they expire: one refresh per account even with two refreshers racing
// (X refresh tokens are single-use), the stored refresh token kept when X sends none, and a revoked
// refresh token ending in an inactive account, exactly one account.token_expired, and posts to it
// failing as "disconnected" until the user connects again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../src/core/ids.ts';
import { connectTrip, makeTokenDue, refreshDueAccount, refreshTokens, refreshWhenDue, storedAccount, tokenExpiredEvents } from '../helpers/connect.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

let stack: PublishingStack;
let org: TestOrg;
const APP = { clientId: 'refresh-app', clientSecret: 'refresh-app-secret' };
let counter = 0;

before(async () => {
  stack = await startPublishingStack();
  stack.x.addApp({ ...APP, callbackUrls: [`${stack.server.config.publicBaseUrl}/oauth/callback/x`] });
  org = await stack.server.createOrg();
  const res = await stack.server.request('POST', '/v1/social-networks', { key: org.key, body: { network: 'x', client_key: APP.clientId, client_secret: APP.clientSecret } });
  assert.equal(res.status, 201);
});
after(() => stack.close());

/** Connects a new X user through the real flow; returns the account's raw id. */
async function connect(userId?: string): Promise<{ rawId: number; id: string; userId: string; username: string }> {
  let id = userId;
  let username = '';
  if (!id) {
    counter += 1;
    username = `refresher${counter}`;
    id = stack.x.addUser({ username, accessToken: `unused-${counter}` }).id;
  }
  stack.x.signIn(id);
  const { callback: res } = await connectTrip(stack.server, org, 'x');
  const body = (await res.json()) as any;
  assert.equal(res.status, 200, JSON.stringify(body));
  return { rawId: decodeId(body.data.id)!, id: body.data.id, userId: id, username: body.data.username };
}

const usersMe = (token: string) => fetch(`${stack.x.url}/2/users/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

describe('token refresh', () => {
  test('a token far from expiry is left alone; a due one is refreshed and the new pair works', async () => {
    const account = await connect();
    assert.equal((await refreshTokens(stack.server)).get(account.rawId), undefined);
    const { before, now } = await refreshDueAccount(stack.server, account.rawId, 'refreshed');
    assert.notEqual(now.access, before.access);
    assert.notEqual(now.refresh, before.refresh);
    assert.ok(now.expiresAt!.getTime() > Date.now() + 7000_000);
    assert.equal(await usersMe(now.access!), 200);
  });

  test('two refreshers racing the same account refresh it once (a second use of the rotated token would fail)', async () => {
    const account = await connect();
    for (let round = 0; round < 5; round++) {
      await makeTokenDue(stack.server, account.rawId);
      const results = await Promise.all([refreshTokens(stack.server), refreshTokens(stack.server), refreshTokens(stack.server)]);
      const outcomes = results.map((r) => r.get(account.rawId)).filter(Boolean).sort();
      assert.deepEqual(outcomes.filter((o) => o === 'refreshed'), ['refreshed'], `round ${round}: ${outcomes}`);
      assert.ok(outcomes.every((o) => o === 'refreshed' || o === 'skipped'), `round ${round}: ${outcomes}`);
    }
    const now = await storedAccount(stack.server, account.rawId);
    assert.equal(now.active, true);
    assert.equal(await usersMe(now.access!), 200);
    assert.deepEqual(await tokenExpiredEvents(stack.server, org.orgId, account.rawId), []);
  });

  test('an answer without refresh_token keeps the stored refresh token', async () => {
    const account = await connect();
    stack.x.failNext({ method: 'POST', path: '/2/oauth2/token', status: 200, body: { token_type: 'bearer', expires_in: 7200, access_token: 'access-without-refresh', scope: 'tweet.read' } });
    const { before, now } = await refreshDueAccount(stack.server, account.rawId, 'refreshed');
    assert.equal(now.access, 'access-without-refresh');
    assert.equal(now.refresh, before.refresh);
    // The kept refresh token still works at X.
    assert.equal(await refreshWhenDue(stack.server, account.rawId), 'refreshed');
  });

  test('a transient failure (503) leaves the account as it was, to be tried again', async () => {
    const account = await connect();
    stack.x.failNext({ method: 'POST', path: '/2/oauth2/token', status: 503 });
    const { before, now } = await refreshDueAccount(stack.server, account.rawId, 'failed');
    assert.deepEqual([now.active, now.refresh], [true, before.refresh]);
  });

  test('a revoked refresh token: inactive, one account.token_expired, posts fail as disconnected; reconnecting revives it', async () => {
    const account = await connect();
    const { refresh: refreshToken } = await storedAccount(stack.server, account.rawId);
    const revoked = await fetch(`${stack.x.url}/2/oauth2/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshToken!, client_id: APP.clientId }).toString(),
    });
    assert.equal(revoked.status, 200);
    assert.equal(await refreshWhenDue(stack.server, account.rawId), 'disconnected');
    // Later passes do not pick an inactive account again: still one event.
    assert.equal(await refreshWhenDue(stack.server, account.rawId), undefined);
    const listed = (await stack.server.request('GET', `/v1/social-accounts/${account.id}`, { key: org.key })).body.data;
    assert.equal(listed.isActive, 0);
    const events = await tokenExpiredEvents(stack.server, org.orgId, account.rawId);
    assert.equal(events.length, 1);
    assert.deepEqual(Object.keys(events[0]!.data).sort(), ['accountId', 'error', 'network', 'orgId', 'username']);
    assert.equal(events[0]!.data.network, 'x');
    assert.equal(events[0]!.data.username, account.username);
    assert.match(events[0]!.data.error, /^x: invalid_request/);

    const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], content: 'after revocation' } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const post = await stack.waitForPost(org, created.body.post.id);
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.match(post.socialAccounts[0].error, /disconnected/);
    assert.equal((await tokenExpiredEvents(stack.server, org.orgId, account.rawId)).length, 1);

    const again = await connect(account.userId);
    assert.equal(again.rawId, account.rawId);
    assert.equal((await storedAccount(stack.server, account.rawId)).active, true);
    const republished = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], content: 'after reconnecting' } });
    const ok = await stack.waitForPost(org, republished.body.post.id);
    assert.equal(ok.socialAccounts[0].status, 'published', ok.socialAccounts[0].error);
  });
});
