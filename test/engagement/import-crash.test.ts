// An import whose worker process is killed (SIGKILL) part-way: the next worker takes the job over when
// its lease lapses and finishes it from the stored cursor — every post stored once, the counts exact,
// one import.completed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodeId } from '../../src/core/ids.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { workerProcesses } from '../helpers/process.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import { until } from '../helpers/until.ts';

const POSTS = 1000;
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

test('a worker killed mid-import: the next one resumes from the stored cursor; nothing stored twice, counts and event exact', async () => {
  const brand = await stack.addXAccount(org);
  const start = Date.now() - (POSTS + 10) * 60_000;
  for (let i = 0; i < POSTS; i++) stack.x.addTweet({ authorId: brand.userId, text: `archive ${i}`, createdAt: new Date(start + i * 60_000).toISOString() });
  const queued = await stack.server.request('POST', `/v1/social-accounts/${brand.id}/imports`, { key: org.key, body: { limit: POSTS } });
  assert.equal(queued.status, 202);
  const importId = decodeId(queued.body.data.id)!;
  const row = async () => (await stack.server.db.query<{ status: string; imported: number }>('SELECT status, imported FROM imports WHERE id = $1', [importId])).rows[0]!;

  const first = await workers.start();
  // Killed once its first page is stored, while pages remain.
  for (;;) {
    const { imported } = await row();
    if (imported > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  first.child.kill('SIGKILL');
  await first.exited;
  const atCrash = await row();
  assert.equal(atCrash.status, 'running', 'the job was cut off part-way');
  assert.ok(atCrash.imported > 0 && atCrash.imported < POSTS, `part-way: ${atCrash.imported} stored`);

  await workers.start();
  const done = await until(async () => {
    const job = (await stack.server.request('GET', `/v1/social-accounts/${brand.id}/imports/${queued.body.data.id}`, { key: org.key })).body.data;
    return job.status === 'queued' || job.status === 'running' ? undefined : job;
  }, 40_000, 'the import finished after the crash');
  assert.deepEqual([done.status, done.imported, done.skipped, done.failed], ['completed', POSTS, 0, 0]);
  const stored = await stack.server.db.query<{ n: number; distinct: number }>(
    'SELECT count(*)::int AS n, count(DISTINCT t.platform_post_id)::int AS distinct FROM posts p JOIN targets t ON t.post_id = p.id WHERE p.import_id = $1', [importId],
  );
  assert.deepEqual(stored.rows[0], { n: POSTS, distinct: POSTS });
  const events = (await stack.events(org.orgId)).filter((e: any) => e.type.startsWith('import.'));
  assert.deepEqual(events, [{ type: 'import.completed', data: { import_id: queued.body.data.id, status: 'completed', imported: POSTS, skipped: 0, failed: 0 } }]);
});
