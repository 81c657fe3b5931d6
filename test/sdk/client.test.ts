// The SDK against a started Crier (behind the TLS front of the media tests, so uploads use the real
// signed URLs): idempotent creates across a lost answer, a 400's details, pages, the upload flow.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Crier, CrierError, type FetchLike } from '../../sdk/src/index.ts';
import type { TestAccount, TestOrg } from '../helpers/harness.ts';
import { startMediaServer, type MediaHarness } from '../helpers/media.ts';

let harness: MediaHarness;
let org: TestOrg;
let account: TestAccount;
before(async () => {
  harness = await startMediaServer();
  org = await harness.server.createOrg();
  account = await harness.server.addAccount(org, 'x', 'sdk_x');
});
after(() => harness.close());

const sent: { method: string; url: string; key: string | undefined }[] = [];
const recording: FetchLike = async (url, init) => {
  sent.push({ method: init.method ?? 'GET', url, key: (init.headers as Record<string, string>)['idempotency-key'] });
  // The harness's fetch is undici's (it trusts the front's certificate): the same calls, other type names.
  return (await harness.fetch(url, init as never)) as unknown as Response;
};
const client = (fetchFn: FetchLike = recording) => new Crier({ baseUrl: harness.front.url, apiKey: org.key, fetch: fetchFn, retry: { backoffMs: 10 } });

test('a create whose answer is lost is retried with the same Idempotency-Key: one post, the same answer', async () => {
  let lost = false;
  const losing: FetchLike = async (url, init) => {
    const response = await recording(url, init);
    if (init.method === 'POST' && !lost) {
      lost = true;
      await response.text();
      throw new TypeError('fetch failed: socket hang up');
    }
    return response;
  };
  sent.length = 0;
  const created = await client(losing).posts.create({ accounts: [account.id], content: 'once only', scheduledAt: new Date(Date.now() + 86_400_000).toISOString() });
  const creates = sent.filter((s) => s.method === 'POST');
  assert.equal(creates.length, 2);
  assert.ok(creates[0]!.key && creates[0]!.key === creates[1]!.key, 'the retry carries the first attempt key');
  const listed = await client().posts.list({ social_account_id: account.id });
  assert.deepEqual(listed.posts.filter((p) => p.containers[0]?.content === 'once only').map((p) => p.id), [created.post.id]);
});

test('two creates get two keys', async () => {
  sent.length = 0;
  const crier = client();
  const body = { accounts: [account.id], content: 'twice', isDraft: true };
  await crier.posts.create(body);
  await crier.posts.create(body);
  const keys = sent.filter((s) => s.method === 'POST').map((s) => s.key);
  assert.equal(keys.length, 2);
  assert.notEqual(keys[0], keys[1]);
});

test('a 400 is a CrierError with its code and per-field details, and is not retried', async () => {
  sent.length = 0;
  const error = await client().posts.create({ accounts: [account.id], containers: [{ content: 'x', media: [{ url: 'not a url', filename: 'a.jpg' }] }] }).catch((e: unknown) => e);
  assert.ok(error instanceof CrierError);
  assert.equal(error.status, 400);
  assert.equal(error.code, 'validation_error');
  assert.ok(error.details.some((d) => d.field.startsWith('containers[0].media[0]') && d.message.length > 0), JSON.stringify(error.details));
  assert.equal(sent.length, 1);
  const missing = await client().posts.get('post_does_not_exist').catch((e: unknown) => e);
  assert.ok(missing instanceof CrierError && (missing.status === 404 || missing.status === 400));
});

test('pages and all walk a list of several pages, each post once', async () => {
  const other = await harness.server.addAccount(org, 'x', 'sdk_pages');
  const crier = client();
  for (let n = 0; n < 7; n += 1) await crier.posts.create({ accounts: [other.id], content: `page post ${n}`, isDraft: true });
  const sizes: number[] = [];
  for await (const page of crier.posts.pages({ social_account_id: other.id }, 3)) sizes.push(page.length);
  assert.deepEqual(sizes, [3, 3, 1]);
  const contents: string[] = [];
  for await (const post of crier.posts.all({ social_account_id: other.id }, 2)) contents.push(post.containers[0]!.content);
  assert.deepEqual(contents.sort(), Array.from({ length: 7 }, (_, n) => `page post ${n}`));
});

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test('media.upload requests the URL, PUTs the bytes and confirms: the media is served back', async () => {
  const media = await client().media.upload({ filename: 'dot.png', bytes: PNG });
  assert.equal(media.status, 'ready');
  assert.equal(media.size, PNG.length);
  const served = await harness.fetch(media.url!);
  assert.equal(served.status, 200);
  assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG);
  const listed = await client().media.get(media.id);
  assert.equal(listed.data.id, media.id);
});

test('update, delete, accounts and usage are typed calls of the same API', async () => {
  const crier = client();
  const created = await crier.posts.create({ accounts: [account.id], content: 'to reschedule', isDraft: true });
  const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
  const updated = await crier.posts.update(created.post.id, { scheduledAt: at });
  assert.equal(new Date(updated.post.scheduledAt!).toISOString(), at);
  const deleted = await crier.posts.delete(created.post.id);
  assert.equal(deleted.success, true);
  const accounts = await crier.accounts.list();
  assert.ok(accounts.data.some((a) => a.id === account.id));
  const usage = await crier.usage.get();
  assert.equal(usage.success, true);
});

test('posts.validate is the dry run: a verdict per destination, no post stored, no Idempotency-Key', async () => {
  sent.length = 0;
  const crier = client();
  const before = (await crier.posts.list({ social_account_id: account.id })).posts.length;
  const verdict = await crier.posts.validate({ accounts: [account.id], content: 'judged, not stored' });
  assert.equal(verdict.dryRun, true);
  assert.deepEqual(verdict.destinations.map((d) => [d.accountId, d.network, d.ok, d.reasons]), [[account.id, 'x', true, []]]);
  assert.equal((await crier.posts.list({ social_account_id: account.id })).posts.length, before, 'nothing stored');
  const call = sent.find((s) => s.method === 'POST')!;
  assert.match(call.url, /\/v1\/posts\?dry_run=true$/);
  assert.equal(call.key, undefined);
  const refused = await crier.posts.validate({ accounts: ['nobody_here'], content: 'no account' }).catch((e: unknown) => e);
  assert.ok(refused instanceof CrierError, 'an invalid post is refused as a create would be');
  assert.equal(refused.status, 400);
});

test('a 409 with Retry-After (the post is being published) is retried after the wait; a 409 without one is thrown at once', async () => {
  const crier = client();
  const created = await crier.posts.create({ accounts: [account.id], content: 'busy for a moment', scheduledAt: new Date(Date.now() + 86_400_000).toISOString() });
  const postId = created.post.id;
  const { rows } = await harness.server.db.query<{ id: number }>('SELECT t.id FROM targets t JOIN social_accounts a ON a.id = t.account_id WHERE a.username = $1 ORDER BY t.id DESC LIMIT 1', ['sdk_x']);
  const targetId = rows[0]!.id;
  // A worker has the destination: PATCH answers 409 post_publishing with Retry-After: 5, until it lets go.
  await harness.server.db.query("UPDATE targets SET status = 'publishing' WHERE id = $1", [targetId]);
  const released = setTimeout(() => void harness.server.db.query("UPDATE targets SET status = 'pending' WHERE id = $1", [targetId]), 1_000);
  sent.length = 0;
  const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
  const startedAt = Date.now();
  const moved = await crier.posts.update(postId, { scheduledAt: later });
  clearTimeout(released);
  assert.equal(new Date(moved.post.scheduledAt!).getTime(), new Date(later).getTime());
  const patches = sent.filter((s) => s.method === 'PATCH');
  assert.equal(patches.length, 2, 'one refused PATCH, one after the Retry-After');
  assert.ok(Date.now() - startedAt >= 4_500, 'the retry waited the Retry-After Crier sent (5 s)');

  // Published: the 409 carries no Retry-After (waiting will not help), so it is not retried.
  await harness.server.db.query("UPDATE targets SET status = 'published', platform_post_id = '1', platform_post_url = 'https://x.com/i/1' WHERE id = $1", [targetId]);
  sent.length = 0;
  await assert.rejects(crier.posts.update(postId, { scheduledAt: later }), (error: unknown) => error instanceof CrierError && error.status === 409 && error.code === 'post_partially_published');
  assert.equal(sent.filter((s) => s.method === 'PATCH').length, 1);
});
