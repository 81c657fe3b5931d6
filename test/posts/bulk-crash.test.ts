// A bulk import whose `crier worker` process is killed (SIGKILL) part-way: the next worker takes the
// job over when its lease lapses and finishes it — each row's post exists exactly once (a row created
// by the dead worker but not yet recorded is replayed under its Idempotency-Key, not created again),
// the counts are exact, and one bulk_import.completed is written.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodeId } from '../../src/core/ids.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { workerProcesses } from '../helpers/process.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import { until } from '../helpers/until.ts';

const ROWS = 3000;
let stack: PublishingStack;
let org: TestOrg;
const workers = workerProcesses(() => stack.env);

before(async () => {
  stack = await startPublishingStack({}, { worker: false });
  org = await stack.server.createOrg();
});
after(async () => {
  workers.killAll();
  await stack.close();
});

test('a worker killed mid-import: the next one finishes it; every row\'s post exists exactly once', async () => {
  const account = await stack.addBlueskyAccount(org);
  // Scheduled for tomorrow: the posts wait in the queue, so what is counted is what the import created.
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
  const csv = ['accounts,content,scheduledAt', ...Array.from({ length: ROWS }, (_, i) => `${account.id},bulk crash row ${i + 1},${tomorrow}`)].join('\n');
  const queued = await stack.server.request('POST', '/v1/posts/bulk', { key: org.key, rawBody: csv, headers: { 'content-type': 'text/csv' } });
  assert.equal(queued.status, 202, JSON.stringify(queued.body));
  const jobId = decodeId(queued.body.data.id)!;
  const progress = async () => (await stack.server.db.query<{ status: string; created: number }>('SELECT status, created FROM bulk_imports WHERE id = $1', [jobId])).rows[0]!;

  // Row 1 as a worker that died between creating it and recording it left it: its post stored under
  // the row's Idempotency-Key (the create's own path, POST /v1/posts), the row still pending.
  const stored = await stack.server.db.query<{ row_key: string; body: unknown }>(
    'SELECT j.row_key, r.body FROM bulk_imports j JOIN bulk_import_rows r ON r.import_id = j.id WHERE j.id = $1 AND r.row_number = 1', [jobId],
  );
  const { row_key: rowKey, body: rowOne } = stored.rows[0]!;
  const orphan = await stack.server.request('POST', '/v1/posts', { key: org.key, body: rowOne, headers: { 'idempotency-key': `${rowKey}:1` } });
  assert.equal(orphan.status, 200, JSON.stringify(orphan.body));

  const first = await workers.start();
  await until(async () => ((await progress()).created > 0 ? true : undefined), 30_000, 'the first chunk recorded');
  first.child.kill('SIGKILL');
  await first.exited;
  const atCrash = await progress();
  const postsAtCrash = (await stack.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [org.orgId])).rows[0]!.n;
  console.log(`killed with ${atCrash.created} rows recorded and ${postsAtCrash} posts stored`);
  assert.equal(atCrash.status, 'running', 'the job was cut off part-way');
  assert.ok(atCrash.created > 0 && atCrash.created < ROWS, `part-way: ${atCrash.created} rows recorded`);

  await workers.start();
  const done = await until(async () => {
    const res = await stack.server.request('GET', `/v1/posts/bulk/${queued.body.data.id}`, { key: org.key });
    return res.body.data.status === 'completed' ? res.body.data : undefined;
  }, 60_000, 'the import finished after the crash');
  assert.deepEqual([done.total, done.created, done.failed], [ROWS, ROWS, 0]);

  const posts = await stack.server.db.query<{ n: number; texts: number }>(
    "SELECT count(*)::int AS n, count(DISTINCT c.content)::int AS texts FROM posts p JOIN containers c ON c.post_id = p.id WHERE p.org_id = $1 AND c.content LIKE 'bulk crash row %'",
    [org.orgId],
  );
  assert.deepEqual(posts.rows[0], { n: ROWS, texts: ROWS }, 'one post per row, none twice');
  assert.equal(done.rows[0].postId, orphan.body.post.id, 'row 1 replayed the post its key had stored');
  const recorded = new Set(done.rows.map((r: any) => r.postId));
  assert.equal(recorded.size, ROWS, 'each row names its own post');
  const events = (await stack.events(org.orgId)).filter((e) => e.type === 'bulk_import.completed');
  assert.deepEqual(events.map((e) => [e.data.bulkImportId, e.data.created, e.data.failed]), [[queued.body.data.id, ROWS, 0]]);
});
