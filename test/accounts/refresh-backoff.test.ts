// A refresh that fails without a verdict (the network answers 5xx) is retried after a pause, not on
// every pass; the account stays active; the next try after the pause refreshes it; reconnecting
// clears the pause.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { refreshDueTokens } from '../../src/accounts/token-refresh.ts';
import { decodeId } from '../../src/core/ids.ts';
import { connectOne, registerApp } from '../helpers/connect.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

let stack: PublishingStack;
let org: TestOrg;
const APP = { clientId: 'backoff-app', clientSecret: 'backoff-app-secret' };

before(async () => {
  stack = await startPublishingStack();
  stack.x.addApp({ ...APP, callbackUrls: [`${stack.server.config.publicBaseUrl}/oauth/callback/x`] });
  org = await stack.server.createOrg();
  await registerApp(stack.server, org, 'x', APP);
});
after(() => stack.close());

test('a failed refresh waits before the next try, then succeeds; the account stays active', async () => {
  const { server, x } = stack;
  x.signIn(x.addUser({ username: 'backoff_user', accessToken: 'unused-backoff' }).id);
  const rawId = decodeId((await connectOne(server, org, 'x')).accountId)!;
  await server.db.query(`UPDATE social_accounts SET token_expires_at = now() + interval '2 minutes' WHERE id = $1`, [rawId]);
  const refresh = () => refreshDueTokens(server.db, server.box, server.networks);

  x.failNext({ method: 'POST', path: '/2/oauth2/token', status: 503 });
  assert.equal((await refresh()).get(rawId), 'failed');
  const row = async () => (await server.db.query('SELECT is_active, token_refresh_retry_at FROM social_accounts WHERE id = $1', [rawId])).rows[0];
  const paused = await row();
  assert.equal(paused.is_active, true);
  assert.ok(paused.token_refresh_retry_at.getTime() > Date.now() + 4 * 60_000, 'paused about 5 minutes');
  assert.equal((await refresh()).get(rawId), undefined, 'not tried again during the pause');

  await server.db.query(`UPDATE social_accounts SET token_refresh_retry_at = now() - interval '1 second' WHERE id = $1`, [rawId]);
  assert.equal((await refresh()).get(rawId), 'refreshed');
  assert.equal((await row()).token_refresh_retry_at, null);
});

test('reconnecting clears a pause', async () => {
  const { server, x } = stack;
  const user = x.addUser({ username: 'backoff_again', accessToken: 'unused-again' });
  x.signIn(user.id);
  const rawId = decodeId((await connectOne(server, org, 'x')).accountId)!;
  await server.db.query(`UPDATE social_accounts SET token_refresh_retry_at = now() + interval '1 hour' WHERE id = $1`, [rawId]);
  x.signIn(user.id);
  await connectOne(server, org, 'x');
  const { rows } = await server.db.query('SELECT token_refresh_retry_at FROM social_accounts WHERE id = $1', [rawId]);
  assert.equal(rows[0].token_refresh_retry_at, null);
});
