// GET /v1/social-accounts/:id/subreddits/:name/flairs over real HTTP: Crier reads the subreddit's link
// flairs from the Reddit emulator with the account's token and lists them so a client can choose the
// reddit block's flairId; Reddit's refusals (no such subreddit, users may not pick flair, a revoked
// token) come back as Crier's errors; an account of another network has no such list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRedditEmulator, type RedditEmulator } from '../../../emulators/reddit/server.ts';
import { REDDIT_SCOPES } from '../../../src/networks/reddit/oauth.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../../helpers/publishing.ts';

const APP = { clientId: 'crier-reddit', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };
const FLAIR = {
  type: 'text' as const, background_color: '#ff4500', text_color: 'light' as const, mod_only: false, css_class: '',
  allowable_content: 'all' as const, max_emojis: 10, richtext: [],
};

describe('listing a subreddit\'s link flairs', () => {
  let rd: RedditEmulator;
  let stack: PublishingStack;
  let org: TestOrg;
  let ada: TestAccount & { userId: string };

  before(async () => {
    rd = await startRedditEmulator();
    rd.addApp(APP);
    rd.addSubreddit({
      name: 'typescript',
      flairs: [
        { ...FLAIR, id: 'f-help', text: 'Help', text_editable: false },
        { ...FLAIR, id: 'f-news', text: 'News', text_editable: true, background_color: '', text_color: 'dark', mod_only: true },
      ],
    });
    rd.addSubreddit({ name: 'locked', flairSelectable: false });
    stack = await startPublishingStack({ CRIER_REDDIT_BASE_URL: rd.url });
    org = await stack.server.createOrg();
    const user = rd.addUser({ name: 'ada_l' });
    const token = rd.oauth.issue(user.id, APP.clientId, REDDIT_SCOPES).accessToken;
    ada = { ...(await stack.server.addAccount(org, 'reddit', 'ada_l', { networkUniqueId: `t2_${user.id}`, accessToken: token })), userId: user.id };
  });
  after(async () => {
    await stack.close();
    await rd.close();
  });

  const flairs = (accountId: string, name: string, key = org.key) => stack.server.request('GET', `/v1/social-accounts/${accountId}/subreddits/${name}/flairs`, { key });

  it('lists each flair with the id the reddit block takes as flairId, read with the account\'s token and User-Agent', async () => {
    const res = await flairs(ada.id, 'typescript');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      success: true,
      data: [
        { id: 'f-help', text: 'Help', textEditable: false, modOnly: false, backgroundColor: '#ff4500', textColor: 'light' },
        { id: 'f-news', text: 'News', textEditable: true, modOnly: true, backgroundColor: null, textColor: 'dark' },
      ],
    });
    const call = rd.requests().filter((r) => r.path === '/r/typescript/api/link_flair_v2').at(-1)!;
    assert.equal(call.userAgent, 'server:crier:1.0 (by /u/ada_l)');
  });

  it('takes the name with an r/ prefix too, and a subreddit without flairs lists none', async () => {
    rd.addSubreddit({ name: 'plain' });
    assert.deepEqual((await flairs(ada.id, 'plain')).body, { success: true, data: [] });
    assert.equal((await flairs(ada.id, 'r%2Ftypescript')).body.data.length, 2);
  });

  it('says why there is no list: no such subreddit (404), users may not pick flair (400), not a subreddit name (400)', async () => {
    const missing = await flairs(ada.id, 'nosuchsub');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'not_found');
    assert.match(missing.body.error, /r\/nosuchsub does not exist/);
    const locked = await flairs(ada.id, 'locked');
    assert.equal(locked.status, 400);
    assert.match(locked.body.error, /r\/locked does not let users pick a link flair/);
    const bad = await flairs(ada.id, 'a');
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /not a subreddit name/);
  });

  it('a revoked token: 409 asking to reconnect (there is no refresh token to try)', async () => {
    const bob = rd.addUser({ name: 'bob_r' });
    const token = rd.oauth.issue(bob.id, APP.clientId, REDDIT_SCOPES).accessToken;
    const account = await stack.server.addAccount(org, 'reddit', 'bob_r', { networkUniqueId: `t2_${bob.id}`, accessToken: token });
    rd.revokeUser(bob.id);
    const res = await flairs(account.id, 'typescript');
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'account_token_rejected');
    assert.match(res.body.error, /reconnect the account/);
  });

  it('an account of another network has no flairs (400); another org\'s account is not found (404)', async () => {
    const x = await stack.server.addAccount(org, 'x', 'someone_x');
    const res = await flairs(x.id, 'typescript');
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'not_supported');
    const other = await stack.server.createOrg();
    assert.equal((await flairs(ada.id, 'typescript', other.key)).status, 404);
  });
});
