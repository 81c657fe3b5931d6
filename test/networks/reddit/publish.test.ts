// Publishing to Reddit over real HTTP: Crier's API and worker (the registry's Reddit adapter), the
// Reddit emulator as the network, and what Crier reports. Each test checks what Reddit received (the
// submit and comment forms, their order, the User-Agent) and what was published or why not.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRedditEmulator, type RedditEmulator } from '../../../emulators/reddit/server.ts';
import { createRedditAdapter } from '../../../src/networks/reddit/adapter.ts';
import { REDDIT_SCOPES } from '../../../src/networks/reddit/oauth.ts';
import type { PublishError } from '../../../src/core/errors.ts';
import type { PublishInput } from '../../../src/networks/contract.ts';
import type { PartRef } from '../../../src/core/post.ts';
import { decodeId } from '../../../src/core/ids.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../../helpers/publishing.ts';
import { until } from '../../helpers/until.ts';

const APP = { clientId: 'crier-reddit', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };

describe('publishing to Reddit', () => {
  let rd: RedditEmulator;
  let stack: PublishingStack;
  let org: TestOrg;
  let ada: TestAccount & { token: string };

  const addRedditor = async (name: string) => {
    const user = rd.addUser({ name });
    const token = rd.oauth.issue(user.id, APP.clientId, REDDIT_SCOPES).accessToken;
    return { ...(await stack.server.addAccount(org, 'reddit', name, { networkUniqueId: `t2_${user.id}`, accessToken: token })), token, userId: user.id };
  };

  before(async () => {
    rd = await startRedditEmulator();
    rd.addApp(APP);
    rd.addSubreddit({ name: 'typescript' });
    rd.addSubreddit({ name: 'flaired', flairRequired: true });
    rd.addSubreddit({ name: 'textonly', linksAllowed: false });
    stack = await startPublishingStack({ CRIER_REDDIT_BASE_URL: rd.url });
    org = await stack.server.createOrg();
    ada = await addRedditor('ada_l');
  });
  after(async () => {
    await stack.close();
    await rd.close();
  });

  const create = async (body: object) => {
    const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [ada.id], ...body } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.post.id as string;
  };
  const publish = async (body: object) => stack.waitForPost(org, await create(body), undefined, 30_000);
  const submitted = (post: any) => {
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'published', destination.error);
    return rd.submissions().find((s) => s.name === destination.platformPostId)!;
  };
  const failed = (post: any) => {
    assert.equal(post.socialAccounts[0].status, 'failed');
    return post.socialAccounts[0].error as string;
  };

  it('a text post with every option: Reddit receives its own parameter names, with Crier\'s User-Agent', async () => {
    const post = await publish({
      content: 'shared body',
      reddit: { subreddit: 'typescript', title: 'Strict mode tips', content: 'Use **strict**', flairId: 'f-1', flairText: 'Tips', nsfw: true, spoiler: true, sendReplies: false },
    });
    const sent = submitted(post);
    assert.deepEqual(
      [sent.kind, sent.subreddit, sent.title, sent.selftext, sent.flairId, sent.flairText, sent.nsfw, sent.spoiler, sent.sendReplies],
      ['self', 'typescript', 'Strict mode tips', 'Use **strict**', 'f-1', 'Tips', true, true, false],
    );
    const form = rd.forms().find((f) => f.path === '/api/submit' && f.form.title === 'Strict mode tips')!;
    assert.equal(form.form.api_type, 'json');
    assert.equal(form.userAgent, 'server:crier:1.0 (by /u/ada_l)');
    assert.equal(post.socialAccounts[0].platformPostUrl, `https://www.reddit.com${sent.permalink}`);
  });

  it('a link post: kind=link with the block\'s url, the content ignored, replies on by default', async () => {
    const post = await publish({ content: 'ignored text', reddit: { subreddit: 'typescript', title: 'TS 6 released', url: 'https://devblogs.example.com/ts6' } });
    const sent = submitted(post);
    assert.deepEqual([sent.kind, sent.url, sent.selftext, sent.sendReplies, sent.nsfw], ['link', 'https://devblogs.example.com/ts6', '', true, false]);
    const form = rd.forms().find((f) => f.form.title === 'TS 6 released')!;
    assert.equal(form.form.text, undefined, 'no text is sent with a link');
  });

  it('a thread: the submission, then each later container a comment on it, in order', async () => {
    const post = await publish({ containers: [{ content: 'Root text' }, { content: 'First comment' }, { content: 'Second comment' }], reddit: { subreddit: 'u_ada_l', title: 'On my profile' } });
    const sent = submitted(post);
    assert.equal(sent.selftext, 'Root text');
    const comments = rd.comments(sent.id);
    assert.deepEqual(comments.map((c) => [c.author, c.parentId, c.body]), [['ada_l', sent.name, 'First comment'], ['ada_l', sent.name, 'Second comment']]);
    const { rows } = await stack.server.db.query(
      'SELECT p.position, p.platform_id FROM target_parts p JOIN targets t ON t.id = p.target_id WHERE t.post_id = $1 ORDER BY p.position',
      [decodeId(post.id)],
    );
    assert.deepEqual(rows.map((r) => r.platform_id), [sent.name, comments[0]!.name, comments[1]!.name]);
  });

  it('a subreddit that does not exist fails with Reddit\'s words', async () => {
    const error = failed(await publish({ content: 'x', reddit: { subreddit: 'nosuchplace', title: 'Hello' } }));
    assert.equal(error, 'reddit: that subreddit doesn\'t exist (SUBREDDIT_NOEXIST, sr)');
  });

  it('a subreddit requiring flair fails without one', async () => {
    const error = failed(await publish({ content: 'x', reddit: { subreddit: 'flaired', title: 'No flair' } }));
    assert.equal(error, 'reddit: Your post must contain post flair. (SUBMIT_VALIDATION_FLAIR_REQUIRED, flair)');
  });

  it('a link to a text-only subreddit fails with NO_LINKS', async () => {
    const error = failed(await publish({ content: 'c', reddit: { subreddit: 'textonly', title: 'A link', url: 'https://example.com/a' } }));
    assert.equal(error, 'reddit: that subreddit only allows text posts (NO_LINKS, sr)');
  });

  it('a link already submitted there fails as ALREADY_SUB', async () => {
    await publish({ content: 'c', reddit: { subreddit: 'typescript', title: 'First', url: 'https://example.com/twice' } });
    const error = failed(await publish({ content: 'c', reddit: { subreddit: 'typescript', title: 'Again', url: 'https://example.com/twice' } }));
    assert.equal(error, 'reddit: that link has already been submitted (ALREADY_SUB, url)');
  });

  it('RATELIMIT is retried after the wait Reddit gives, then published', async () => {
    rd.throttle('ada_l', 9 * 60_000);
    const postId = await create({ content: 'later', reddit: { subreddit: 'typescript', title: 'Throttled' } });
    const target = await until(async () => {
      const { rows } = await stack.server.db.query(
        `SELECT t.id, t.status, t.due_at, a.error FROM targets t JOIN attempts a ON a.target_id = t.id WHERE t.post_id = $1 AND a.outcome = 'retry'`, [decodeId(postId)],
      );
      return rows[0];
    });
    assert.equal(target.status, 'pending');
    assert.match(target.error, /^reddit: rate limited \(Looks like you've been doing that a lot\. Take a break for 9 minutes before trying again\. \(RATELIMIT, ratelimit\)\)/);
    const inMs = new Date(target.due_at).getTime() - Date.now();
    assert.ok(inMs > 8.5 * 60_000 && inMs <= 9 * 60_000, `due again in ${inMs} ms: the 540 s Reddit said`);
    rd.throttle('ada_l', 0);
    await stack.server.db.query('UPDATE targets SET due_at = now() WHERE id = $1', [target.id]);
    const { notifyDue } = await import('../../../src/publishing/queue.ts');
    await notifyDue(stack.server.db);
    const post = await stack.waitForPost(org, postId, undefined, 20_000);
    assert.equal(submitted(post).title, 'Throttled');
    assert.equal(rd.submissions().filter((s) => s.title === 'Throttled').length, 1);
  });

  it('HTTP 429 waits for X-Ratelimit-Reset', async () => {
    rd.failNext({ status: 429, method: 'POST', path: '/api/submit', headers: { 'x-ratelimit-used': '1000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '120' } });
    const postId = await create({ content: 'busy', reddit: { subreddit: 'typescript', title: 'Over the window' } });
    const target = await until(async () => {
      const { rows } = await stack.server.db.query(
        `SELECT t.status, t.due_at, a.error FROM targets t JOIN attempts a ON a.target_id = t.id WHERE t.post_id = $1 AND a.outcome = 'retry'`, [decodeId(postId)],
      );
      return rows[0];
    });
    assert.equal(target.status, 'pending');
    assert.equal(target.error, 'reddit: rate limited (Too Many Requests)');
    const inMs = new Date(target.due_at).getTime() - Date.now();
    assert.ok(inMs > 110_000 && inMs <= 120_000, `due again in ${inMs} ms: the 120 s X-Ratelimit-Reset said`);
    assert.equal(rd.submissions().filter((s) => s.title === 'Over the window').length, 0);
  });

  it('a refused token (401) fails the destination and disconnects the account', async () => {
    const bob = await addRedditor('bob_r');
    rd.revokeUser(bob.userId);
    const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [bob.id], content: 'never', reddit: { subreddit: 'typescript', title: 'Revoked' } } });
    const post = await stack.waitForPost(org, created.body.post.id, undefined, 30_000);
    assert.match(failed(post), /^reddit: the access token was refused \(Unauthorized\); reconnect the account/);
    assert.equal(rd.submissions().filter((s) => s.author === 'bob_r').length, 0);
    const listed = await stack.server.request('GET', `/v1/social-accounts/${bob.id}`, { key: org.key });
    assert.equal(listed.body.data.isActive, 0);
  });

  describe('reconcile after a crash (the adapter against the emulator)', () => {
    const inputFor = (containers: string[], block: Record<string, unknown>): PublishInput => ({
      account: { id: 1, orgId: 1, network: 'reddit', username: 'ada_l', networkUniqueId: 't2_x', serviceUrl: null, accessToken: ada.token, refreshToken: null, credential: null },
      containers: containers.map((content) => ({ content, media: [] })),
      block,
      fetchMedia: () => { throw new Error('no media'); },
      openMedia: () => { throw new Error('no media'); },
      userFetch: fetch,
      saveTokens: async () => {},
      ledger: { withPool: () => { throw new Error('reddit keeps no ledger'); }, read: () => { throw new Error('reddit keeps no ledger'); } },
    });
    const adapter = () => createRedditAdapter({ apiUrl: rd.url });

    it('finds the submission and comment that were posted, and says absent for what was not', async () => {
      const input = inputFor(['root', 'comment one', 'comment two'], { subreddit: 'typescript', title: 'Crashed thread' });
      const first = await (await adapter().prepare(input));
      const reservation = first.reserve(0);
      const root = await first.publishPart(0, reservation, undefined);
      const one = await first.publishPart(1, first.reserve(1), root);
      // A new attempt after the crash: what Reddit shows decides.
      const again = await adapter().prepare(input);
      assert.deepEqual(await again.reconcile(0, reservation, undefined), root);
      assert.deepEqual(await again.reconcile(1, reservation, root as PartRef), one);
      assert.equal(await again.reconcile(2, reservation, root), 'absent');
      const other = await adapter().prepare(inputFor(['x'], { subreddit: 'typescript', title: 'Never sent' }));
      assert.equal(await other.reconcile(0, other.reserve(0), undefined), 'absent');
    });

    it('ends unknown when Reddit lists only part of the post\'s comments and ours is not among them', async () => {
      const input = inputFor(['root', 'lost in the crowd'], { subreddit: 'typescript', title: 'Busy thread' });
      const prepared = await adapter().prepare(input);
      const reservation = prepared.reserve(0);
      const root = await prepared.publishPart(0, reservation, undefined);
      const commentAs = (text: string) => fetch(`${rd.url}/api/comment`, {
        method: 'POST',
        headers: { authorization: `bearer ${ada.token}`, 'user-agent': 'test:crier:1.0 (by /u/ada_l)', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ api_type: 'json', thing_id: root.platformId, text }).toString(),
      });
      for (let i = 0; i < 501; i++) assert.equal((await commentAs(`noise ${i}`)).status, 200);
      await assert.rejects(prepared.reconcile(1, prepared.reserve(1), root), (error: PublishError) => {
        assert.equal(error.kind, 'unknown');
        assert.match(error.message, /container 2 .*Reddit listed only part of the post's comments/);
        return true;
      });
    });

    it('ends unknown when Reddit cannot be read', async () => {
      const input = inputFor(['root'], { subreddit: 'typescript', title: 'Unreadable' });
      const prepared = await adapter().prepare(input);
      rd.failNext({ status: 503, path: '/user/' });
      await assert.rejects(prepared.reconcile(0, prepared.reserve(0), undefined), (error: PublishError) => {
        assert.equal(error.kind, 'unknown');
        assert.match(error.message, /^reddit: could not tell whether container 1 is already posted \(reddit: server error 503/);
        return true;
      });
    });
  });
});
