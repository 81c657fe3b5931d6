// A network refusing an account's token during a publish: after a worker's downtime the refresher may
// not have replaced an expired token yet, so the engine refreshes it once, under the account's row
// lock, and publishes with the new one; only a refresh that is refused (or impossible) disconnects the
// account. X rotates single-use refresh tokens, so two publishes hitting the refusal together must
// still spend it once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { registerApp, storedAccount, tokenExpiredEvents } from '../helpers/connect.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

let stack: PublishingStack;
let org: TestOrg;
const APP = { clientId: 'publish-refresh-app', clientSecret: 'publish-refresh-secret' };

before(async () => {
  stack = await startPublishingStack();
  stack.x.addApp({ ...APP, callbackUrls: [`${stack.server.config.publicBaseUrl}/oauth/callback/x`] });
  org = await stack.server.createOrg();
  await registerApp(stack.server, org, 'x', APP);
});
after(() => stack.close());

/**
 * An X account whose access token X no longer takes, while Crier's copy says it is good for another
 * hour (X ended it early) and the refresher never ran. `refreshKnownToX: false` stores a refresh
 * token X will refuse; `expiresInMs` sets what Crier's copy says instead.
 */
async function accountWithStaleToken(refreshKnownToX = true, expiresInMs = 3_600_000) {
  const suffix = randomBytes(4).toString('hex');
  const username = `stale${suffix}`;
  const accessToken = `x-access-${suffix}`;
  const refreshToken = `x-refresh-${suffix}`;
  const user = stack.x.addUser({ username, accessToken, ...(refreshKnownToX ? { refreshToken } : {}) });
  stack.x.expireToken(accessToken);
  const account = await stack.server.addAccount(org, 'x', username, {
    networkUniqueId: user.id, accessToken, refreshToken, expiresAt: new Date(Date.now() + expiresInMs),
  });
  return { ...account, userId: user.id, accessToken };
}

async function publish(accountId: string, content: string) {
  const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [accountId], content } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (await stack.waitForPost(org, res.body.post.id)).socialAccounts[0];
}

const attemptsOf = async (rawId: number) =>
  (await stack.server.db.query('SELECT a.outcome FROM attempts a JOIN targets t ON t.id = a.target_id WHERE t.account_id = $1 ORDER BY a.id', [rawId])).rows.map((r) => r.outcome);

describe('a token the network refuses is refreshed once before the account is given up', () => {
  test('refused by X, not yet refreshed: the post publishes after one refresh and the account stays active', async () => {
    const account = await accountWithStaleToken();
    const target = await publish(account.id, 'published after a refresh');
    assert.equal(target.status, 'published', target.error);
    const tweets = stack.x.tweets().filter((t) => t.authorId === account.userId);
    assert.deepEqual(tweets.map((t) => t.text), ['published after a refresh']);
    assert.equal(target.platformPostId, tweets[0]!.id);
    assert.deepEqual(await attemptsOf(account.rawId), ['published'], 'one attempt did it');

    const stored = await storedAccount(stack.server, account.rawId);
    assert.equal(stored.active, true);
    assert.notEqual(stored.access, account.accessToken, 'the new token is stored');
    assert.ok(stored.expiresAt!.getTime() > Date.now() + 3600_000);
    const me = await fetch(`${stack.x.url}/2/users/me`, { headers: { authorization: `Bearer ${stored.access}` } });
    assert.equal(me.status, 200, 'and it works');
    assert.deepEqual(await tokenExpiredEvents(stack.server, org.orgId, account.rawId), []);
  });

  test('two posts meeting the refusal at once never spend the same single-use refresh token twice: both publish', async () => {
    const account = await accountWithStaleToken();
    const targets = await Promise.all([publish(account.id, 'first of two'), publish(account.id, 'second of two')]);
    assert.deepEqual(targets.map((t) => t.status), ['published', 'published'], JSON.stringify(targets));
    assert.deepEqual(stack.x.tweets().filter((t) => t.authorId === account.userId).map((t) => t.text).sort(), ['first of two', 'second of two']);
    assert.equal((await storedAccount(stack.server, account.rawId)).active, true);
    assert.deepEqual(await tokenExpiredEvents(stack.server, org.orgId, account.rawId), []);
  });

  test('the refresh refused too: the destination fails saying both, the account is disconnected with one account.token_expired', async () => {
    const account = await accountWithStaleToken(false);
    const target = await publish(account.id, 'never published');
    assert.equal(target.status, 'failed');
    assert.match(target.error, /^x: the access token was refused \(Unauthorized\); reconnect the account; refreshing the token was refused too \(x: invalid_request/);
    assert.equal(stack.x.tweets().filter((t) => t.authorId === account.userId).length, 0);
    assert.equal((await storedAccount(stack.server, account.rawId)).active, false);
    const events = await tokenExpiredEvents(stack.server, org.orgId, account.rawId);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.data.error, target.error);
  });
});

describe('a token about to expire is refreshed before the first call', () => {
  test('expired a minute ago by Crier\'s copy, the refresher not run: refreshed, then published once', async () => {
    const account = await accountWithStaleToken(true, -60_000);
    const target = await publish(account.id, 'published with a token refreshed ahead');
    assert.equal(target.status, 'published', target.error);
    assert.deepEqual(stack.x.tweets().filter((t) => t.authorId === account.userId).map((t) => t.text), ['published with a token refreshed ahead']);
    const stored = await storedAccount(stack.server, account.rawId);
    assert.notEqual(stored.access, account.accessToken);
    assert.ok(stored.expiresAt!.getTime() > Date.now() + 3600_000);
    assert.deepEqual(await attemptsOf(account.rawId), ['published']);
  });

  test('expiring in 30 s and the refresh refused: it fails on the refresh, before any call to X, and disconnects', async () => {
    const account = await accountWithStaleToken(false, 30_000);
    const target = await publish(account.id, 'never sent');
    assert.equal(target.status, 'failed');
    // Not "the access token was refused": X was never called with it.
    assert.match(target.error, /^x: the access token expired and refreshing it was refused \(x: invalid_request/);
    assert.equal((await storedAccount(stack.server, account.rawId)).active, false);
    assert.equal((await tokenExpiredEvents(stack.server, org.orgId, account.rawId)).length, 1);
  });
});
