// POST /v1/posts/bulk for real: a job that a worker's bulk runner runs row by row through the create's
// own path, each row's post published to the emulators exactly once, a refused row recorded with the
// create's 400, progress and outcomes on GET, `bulk_import.completed` once; the request is idempotent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { startBulkImportRunner, type BulkImportRunner } from '../../src/posts/bulk-runner.ts';
import { countRows, type TestOrg } from '../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import { until } from '../helpers/until.ts';

let stack: PublishingStack;
let org: TestOrg;
let runner: BulkImportRunner;

before(async () => {
  stack = await startPublishingStack();
  org = await stack.server.createOrg();
  const { db, config, networks } = stack.server;
  runner = startBulkImportRunner({ db, config, networks, logger: createLogger('silent') }, { leaseMs: 4000 });
});
after(async () => {
  await runner.stop();
  await stack.close();
});

const submit = (rawBody: string, headers: Record<string, string> = {}, contentType = 'text/csv') =>
  stack.server.request('POST', '/v1/posts/bulk', { key: org.key, rawBody, headers: { 'content-type': contentType, ...headers } });
const job = async (id: string, key = org.key) => stack.server.request('GET', `/v1/posts/bulk/${id}`, { key });
const finished = (id: string) => until(async () => {
  const res = await job(id);
  return res.body.data.status === 'completed' ? res.body.data : undefined;
}, 30_000, 'the bulk import completed');

describe('a real run', () => {
  test('every good row published once, the bad row refused with the create\'s 400, one event', async () => {
    const account = await stack.addBlueskyAccount(org);
    const csv = [
      'accounts,content,media',
      `${account.id},bulk one,`,
      `${account.username},"bulk two, with a comma",`,
      'nobody_here,bulk three,',
      `${account.id},bulk four,${stack.media.url}/cat.png`,
    ].join('\n');
    const queued = await submit(csv);
    assert.equal(queued.status, 202, JSON.stringify(queued.body));
    assert.deepEqual([queued.body.data.status, queued.body.data.total, queued.body.data.processed], ['queued', 4, 0]);

    const done = await finished(queued.body.data.id);
    assert.deepEqual([done.total, done.processed, done.created, done.failed], [4, 4, 3, 1]);
    assert.deepEqual(done.rows.map((r: any) => [r.row, r.status]), [[1, 'created'], [2, 'created'], [3, 'failed'], [4, 'created']]);
    assert.equal(done.rows[2].error.code, 'no_account_resolved');
    assert.equal('postId' in done.rows[2], false);

    const posts = await Promise.all(done.rows.filter((r: any) => r.postId).map((r: any) => stack.waitForPost(org, r.postId)));
    assert.deepEqual(posts.map((p) => p.socialAccounts[0].status), ['published', 'published', 'published']);
    const texts = stack.bsky.records(account.did).map((r) => (r.value as any).text).sort();
    assert.deepEqual(texts, ['bulk four', 'bulk one', 'bulk two, with a comma'], 'each row published exactly once');
    const withImage = stack.bsky.records(account.did).find((r) => (r.value as any).text === 'bulk four')!;
    assert.ok((withImage.value as any).embed, 'the media URL became the post\'s image');

    const events = (await stack.events(org.orgId)).filter((e) => e.type === 'bulk_import.completed');
    assert.deepEqual(events, [{
      type: 'bulk_import.completed',
      data: { bulkImportId: queued.body.data.id, status: 'completed', total: 4, created: 3, failed: 1, failedRows: [3] },
    }]);
  });

  test('JSON lines: the rows are POST /v1/posts bodies', async () => {
    const account = await stack.addBlueskyAccount(org);
    const ndjson = [{ accounts: [account.id], content: 'line one' }, { accounts: [account.id], containers: [{ content: 'line two' }, { content: 'its reply' }] }]
      .map((b) => JSON.stringify(b)).join('\n');
    const queued = await submit(ndjson, {}, 'application/x-ndjson');
    assert.equal(queued.status, 202, JSON.stringify(queued.body));
    const done = await finished(queued.body.data.id);
    assert.deepEqual([done.created, done.failed], [2, 0]);
    await Promise.all(done.rows.map((r: any) => stack.waitForPost(org, r.postId)));
    assert.deepEqual(stack.bsky.records(account.did).map((r) => (r.value as any).text).sort(), ['its reply', 'line one', 'line two']);
  });
});

describe('the request', () => {
  test('retried with the same Idempotency-Key: one job, the 202 replayed; another file under it: 422', async () => {
    const account = await stack.addBlueskyAccount(org);
    const csv = `accounts,content,isDraft\n${account.id},draft once,true\n`;
    const before = await countRows(stack.server.db, 'bulk_imports', org.orgId);
    const headers = { 'idempotency-key': `bulk-${Date.now()}` };
    const [first, second] = await Promise.all([submit(csv, headers), submit(csv, headers)]);
    // Two at once: one creates, the other is told the key is busy (409) or replays the first's answer.
    const statuses = [first.status, second.status].sort();
    assert.ok(statuses[0] === 202 && (statuses[1] === 202 || statuses[1] === 409), `statuses ${statuses}`);
    const third = await submit(csv, headers);
    assert.equal(third.status, 202);
    assert.equal(third.headers.get('idempotency-replayed'), 'true');
    const original = first.status === 202 ? first : second;
    assert.equal(third.body.data.id, original.body.data.id);
    assert.equal(await countRows(stack.server.db, 'bulk_imports', org.orgId), before + 1, 'one job');
    const done = await finished(original.body.data.id);
    assert.equal(done.created, 1);
    const drafts = await stack.server.db.query("SELECT 1 FROM posts p JOIN containers c ON c.post_id = p.id WHERE p.org_id = $1 AND c.content = 'draft once'", [org.orgId]);
    assert.equal(drafts.rows.length, 1);

    const other = await submit(`accounts,content\n${account.id},another file\n`, headers);
    assert.equal(other.status, 422);
    assert.equal(other.body.code, 'idempotency_key_reuse');
  });

  test('another organization\'s job, or an id that names none: 404', async () => {
    const account = await stack.addBlueskyAccount(org);
    const queued = await submit(`accounts,content,isDraft\n${account.id},mine,true\n`);
    const stranger = await stack.server.createOrg();
    assert.equal((await job(queued.body.data.id, stranger.key)).status, 404);
    assert.equal((await job('nonsense')).status, 404);
    await finished(queued.body.data.id);
  });
});
