// Each network's per-account quota is applied before the network is called: a burst to one account
// is spread over the following windows instead of refused by the network, across every worker, and a
// network that counts each post of a thread (X) counts them. The quota is replaced through
// CRIER_ACCOUNT_QUOTAS (x=3/3s here) so a test sees windows in seconds instead of X's 15 minutes.
// The network is the X emulator over real HTTP, with two workers claiming at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig, ConfigError } from '../../src/config.ts';
import { NETWORK_LIST } from '../../src/networks/registry.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

const WINDOW_MS = 3000;
const MAX = 3;
/**
 * Between the time a destination was admitted and the tweet the emulator stamps: a call's latency,
 * which varies by call. 400 ms was too little on a loaded 2-core machine (2026-11-29: the first
 * window's first tweet 460 ms slower than the next window's first). A third of the window still
 * catches a quota not applied (8 at once) or a window too short (1.5 s: 6 tweets in 2 s).
 */
const CALL_LATENCY_MS = 1000;

let stack: PublishingStack;
let org: TestOrg;

before(async () => {
  stack = await startPublishingStack({ CRIER_ACCOUNT_QUOTAS: `x=${MAX}/${WINDOW_MS / 1000}s` });
  await stack.startWorker(); // a second worker: the quota holds across them
  org = await stack.server.createOrg();
});
after(() => stack.close());

async function create(body: Record<string, unknown>) {
  const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.post.id as string;
}

const tweetTimes = (userId: string) =>
  stack.x.tweets().filter((t) => t.authorId === userId).map((t) => Date.parse(t.createdAt)).sort((a, b) => a - b);

/** The most tweets in any window of WINDOW_MS (less a call's latency, the slack between admission and arrival). */
function mostInAWindow(times: number[]): number {
  let most = 0;
  for (let i = 0; i < times.length; i++) {
    most = Math.max(most, times.filter((t) => t >= times[i]! && t < times[i]! + WINDOW_MS - CALL_LATENCY_MS).length);
  }
  return most;
}

const attemptOutcomes = async (accountRawId: number) =>
  (await stack.server.db.query(`SELECT a.outcome FROM attempts a JOIN targets t ON t.id = a.target_id WHERE t.account_id = $1`, [accountRawId])).rows.map((r) => r.outcome);

describe('per-account quotas', () => {
  test('a burst of 8 posts to one account: 3 go at once, the rest in the windows after, each once, none refused', async () => {
    const account = await stack.addXAccount(org);
    const started = Date.now();
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => create({ accounts: [account.id], content: `burst ${i}` })));

    // While the quota holds them back, the held destinations are pending, not failed.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const early = await Promise.all(ids.map(async (id) => (await stack.server.request('GET', `/v1/posts/${id}`, { key: org.key })).body.post.socialAccounts[0]));
    assert.deepEqual(early.map((t) => t.status).sort(), [...Array(5).fill('pending'), ...Array(3).fill('published')]);
    for (const t of early) {
      if (t.status === 'published') assert.equal(t.error, null);
      else assert.match(t.error, /^waiting for the account's publishing quota \(3 per 3 s\); it goes at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }

    const posts = await Promise.all(ids.map((id) => stack.waitForPost(org, id)));
    assert.ok(posts.every((p) => p.socialAccounts[0].status === 'published' && p.socialAccounts[0].error === null), JSON.stringify(posts.map((p) => p.socialAccounts[0])));
    const times = tweetTimes(account.userId);
    assert.equal(times.length, 8, 'each post reached X once');
    assert.equal(mostInAWindow(times), MAX, `tweets at ${times.map((t) => t - started).join(', ')} ms`);
    assert.ok(times[7]! - started >= 2 * WINDOW_MS, 'the last two went in the third window');
    const outcomes = await attemptOutcomes(account.rawId);
    assert.equal(outcomes.filter((o) => o === 'published').length, 8);
    assert.equal(outcomes.filter((o) => o === 'waiting').length, 5, 'the five held back waited once each (their time was reserved)');
    assert.ok(!outcomes.includes('retry'), 'nothing was refused and retried');
  });

  test('X counts each tweet of a thread: a second 2-tweet thread waits for the window', async () => {
    const account = await stack.addXAccount(org);
    const thread = (label: string) => ({ accounts: [account.id], containers: [{ content: `${label} 1/2` }, { content: `${label} 2/2` }] });
    const first = await create(thread('first'));
    await stack.waitForPost(org, first);
    const second = await create(thread('second'));
    await stack.waitForPost(org, second);
    const tweets = stack.x.tweets().filter((t) => t.authorId === account.userId);
    assert.deepEqual(tweets.map((t) => t.text), ['first 1/2', 'first 2/2', 'second 1/2', 'second 2/2']);
    const gap = Date.parse(tweets[2]!.createdAt) - Date.parse(tweets[0]!.createdAt);
    assert.ok(gap >= WINDOW_MS - CALL_LATENCY_MS, `the second thread went ${gap} ms after the first: 4 tweets do not fit in 3`);
  });

  test('accounts are counted apart, and the reservations live in the database, one per unit', async () => {
    const a = await stack.addXAccount(org);
    const b = await stack.addXAccount(org);
    const ids = await Promise.all([0, 1, 2].flatMap((i) => [create({ accounts: [a.id], content: `a ${i}` }), create({ accounts: [b.id], content: `b ${i}` })]));
    const started = Date.now();
    await Promise.all(ids.map((id) => stack.waitForPost(org, id)));
    assert.ok(Date.now() - started < WINDOW_MS, 'three each fit in one window: nobody waited');
    const { rows } = await stack.server.db.query(
      `SELECT account_id, count(*)::int AS units FROM account_admissions WHERE account_id = ANY ($1) GROUP BY account_id ORDER BY account_id`,
      [[a.rawId, b.rawId]],
    );
    assert.deepEqual(rows, [{ account_id: a.rawId, units: 3 }, { account_id: b.rawId, units: 3 }]);
  });
});

describe('CRIER_ACCOUNT_QUOTAS', () => {
  test('off, per-network quotas and per-network off are read; anything else stops Crier at start', () => {
    assert.equal(loadConfig({ CRIER_ACCOUNT_QUOTAS: 'off' }, NETWORK_LIST).publishing.accountQuotas, 'off');
    assert.deepEqual(loadConfig({ CRIER_ACCOUNT_QUOTAS: 'x=300/3h, linkedin=off,bluesky=10/30s' }, NETWORK_LIST).publishing.accountQuotas, {
      x: { max: 300, windowMs: 3 * 3_600_000 }, linkedin: 'off', bluesky: { max: 10, windowMs: 30_000 },
    });
    assert.deepEqual(loadConfig({}, NETWORK_LIST).publishing.accountQuotas, {});
    for (const wrong of ['x=100', 'myspace=5/1m', 'x=0/1m', 'x=5/0h', 'x=5/1w', 'on']) {
      assert.throws(() => loadConfig({ CRIER_ACCOUNT_QUOTAS: wrong }, NETWORK_LIST), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match((error as Error).message, /CRIER_ACCOUNT_QUOTAS must be "off" or a comma-separated list/);
        return true;
      }, wrong);
    }
  });
});
