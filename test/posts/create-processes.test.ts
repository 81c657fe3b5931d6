// Creates with Idempotency-Keys, as the SDK and CLI send them, across real `crier api` processes:
// - one killed (SIGKILL) while creates are in flight, every client retrying with the same key against
//   a new process: each key ends with exactly one post, and every answer for a key names that post (a
//   create the dead process had committed is replayed, one it had not is made by the retry);
// - two running at once, each sent every key at the same moment: one of them makes the post, the other
//   replays it (after a 409 while the first holds the key), never a second post.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startTestServer, TEST_SECRET_KEY_HEX, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { startCrierProcess, type Started } from '../helpers/process.ts';

const CREATES = 400;
const CONNECTIONS = 20;
let server: TestServer;
let org: TestOrg;
let account: TestAccount;
const started: Started[] = [];

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  account = await server.addAccount(org, 'bluesky', 'crash_creates');
});
after(async () => {
  for (const api of started) api.child.kill('SIGKILL');
  await server.close();
});

async function startApi(): Promise<{ api: Started; url: string }> {
  const api = startCrierProcess(['api'], {
    DATABASE_URL: server.databaseUrl,
    CRIER_SECRET_KEY: TEST_SECRET_KEY_HEX,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    CRIER_RATE_LIMIT_FLOOR: '1000000',
    CRIER_RATE_LIMIT_CEILING: '1000000',
  });
  started.push(api);
  const [, url] = await api.waitFor(/API (http:\/\/127\.0\.0\.1:\d+)\/v1/);
  return { api, url: url! };
}

interface Answer {
  status: number;
  postId?: string;
  replayed: boolean;
}

// Tomorrow: the posts wait in the queue. The same body on every attempt, as a retrying client sends it.
const scheduledAt = new Date(Date.now() + 86_400_000).toISOString();

async function create(url: string, key: string, content: string): Promise<Answer> {
  const res = await fetch(`${url}/v1/posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ accounts: [account.id], content, scheduledAt }),
  });
  const body = (await res.json()) as { post?: { id: string } };
  return { status: res.status, postId: body.post?.id, replayed: res.headers.get('idempotency-replayed') === 'true' };
}

/** Sends a create until it is answered otherwise than 409 (another request holds its key), as a retrying client does; `onBusy` counts the 409s. */
async function createUntilSettled(url: string, key: string, content: string, onBusy = () => {}): Promise<Answer> {
  for (;;) {
    const answer = await create(url, key, content);
    if (answer.status !== 409) return answer;
    onBusy();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every key's content (`<prefix> <i>`) has exactly one post. */
async function assertOnePostPerKey(prefix: string): Promise<void> {
  const { rows } = await server.db.query<{ content: string; posts: number }>(
    `SELECT c.content, count(*)::int AS posts FROM posts p JOIN containers c ON c.post_id = p.id
      WHERE p.org_id = $1 AND c.content LIKE $2 || ' %' GROUP BY c.content`,
    [org.orgId, prefix],
  );
  assert.equal(rows.length, CREATES, 'a post for every key');
  assert.deepEqual(rows.filter((r) => r.posts !== 1), [], 'no key has two posts');
}

test('killed mid-stream: every retried key has exactly one post, and every answer names it', { timeout: 120_000 }, async (t) => {
  const keys = Array.from({ length: CREATES }, () => randomUUID());
  const contentOf = (i: number) => `crash create ${i}`;
  const first = await startApi();
  const firstAnswers = new Map<number, Answer | 'lost'>();
  let next = 0;
  let killed = false;
  const client = async () => {
    while (next < CREATES && !killed) {
      const i = next++;
      firstAnswers.set(i, await create(first.url, keys[i]!, contentOf(i)).catch(() => 'lost' as const));
      if (firstAnswers.size === CREATES / 4 && !killed) {
        killed = true;
        first.api.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  await first.api.exited;
  const answered = [...firstAnswers.values()].filter((a) => a !== 'lost');
  const lost = [...firstAnswers.values()].filter((a) => a === 'lost').length;
  assert.ok(answered.length >= CREATES / 4 - CONNECTIONS, `${answered.length} answered before the kill`);
  assert.ok(lost > 0, 'some creates were in flight when the process died');
  for (const answer of answered) assert.equal(answer.status, 200);

  // Every client retries every key it sent (and sends the ones it had not), against a new process.
  const second = await startApi();
  const retried = new Map<number, Answer>();
  next = 0;
  const retry = async () => {
    while (next < CREATES) {
      const i = next++;
      retried.set(i, await createUntilSettled(second.url, keys[i]!, contentOf(i)));
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, retry));

  for (let i = 0; i < CREATES; i++) {
    const answer = retried.get(i)!;
    assert.equal(answer.status, 200, `key ${i}`);
    const before = firstAnswers.get(i);
    if (before && before !== 'lost') {
      assert.equal(answer.replayed, true, `key ${i} was answered before the kill: replayed`);
      assert.equal(answer.postId, before.postId, `key ${i}: the same post`);
    }
  }
  const lostKeys = [...firstAnswers].filter(([, a]) => a === 'lost').map(([i]) => i);
  t.diagnostic(`${lostKeys.length} creates lost with the process: ${lostKeys.filter((i) => retried.get(i)!.replayed).length} had been committed (replayed), the others made by the retry`);
  await assertOnePostPerKey('crash create');
  const stored = await server.db.query<{ key: string; post: string }>(
    `SELECT key, response_body->'post'->>'id' AS post FROM idempotency_keys WHERE org_id = $1 AND endpoint = 'POST /v1/posts' AND key = ANY($2)`,
    [org.orgId, keys],
  );
  assert.equal(stored.rowCount, CREATES);
  const storedPost = new Map(stored.rows.map((r) => [r.key, r.post]));
  for (let i = 0; i < CREATES; i++) assert.equal(retried.get(i)!.postId, storedPost.get(keys[i]!), `key ${i}: the answer names the stored post`);
  const targets = await server.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM targets t JOIN containers c ON c.post_id = t.post_id WHERE t.org_id = $1 AND c.content LIKE 'crash create %'`,
    [org.orgId],
  );
  assert.equal(targets.rows[0]!.n, CREATES, 'one destination per post');
});

test('two processes sent the same keys at once: one post per key, made by one request and replayed to the other', { timeout: 120_000 }, async (t) => {
  const keys = Array.from({ length: CREATES }, () => randomUUID());
  const contentOf = (i: number) => `raced create ${i}`;
  const [a, b] = await Promise.all([startApi(), startApi()]);
  let busy = 0;
  const until200 = (url: string, i: number) => createUntilSettled(url, keys[i]!, contentOf(i), () => busy++);
  const answers: [Answer, Answer][] = new Array(CREATES);
  let next = 0;
  const client = async () => {
    while (next < CREATES) {
      const i = next++;
      answers[i] = await Promise.all([until200(a.url, i), until200(b.url, i)]);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS / 2 }, client));
  t.diagnostic(`${busy} answers were 409 (the other process held the key) and were retried`);
  answers.forEach(([fromA, fromB], i) => {
    assert.equal(fromA.status, 200, `key ${i} on the first process`);
    assert.equal(fromB.status, 200, `key ${i} on the second process`);
    assert.equal(fromA.postId, fromB.postId, `key ${i}: both answers name one post`);
    assert.equal(Number(fromA.replayed) + Number(fromB.replayed), 1, `key ${i}: one made it, the other replayed it`);
  });
  await assertOnePostPerKey('raced create');
});
