// GET /v1/posts/bulk (the organization's jobs) and POST /v1/posts/bulk/:id/cancel: a cancel stops the
// job between chunks of rows — every row ends created (with its post) or cancelled (without one),
// even when the cancel races the runner mid-import; a completed job is a 409; the list pages exactly.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../src/core/ids.ts';
import { createLogger } from '../../src/log.ts';
import { startBulkImportRunner, type BulkImportRunner } from '../../src/posts/bulk-runner.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
let org: TestOrg;
let account: TestAccount;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  account = await server.addAccount(org, 'bluesky');
});
after(async () => server.close());

const startRunner = (): BulkImportRunner => startBulkImportRunner({ db: server.db, config: server.config, networks: server.networks, logger: createLogger('silent') }, { leaseMs: 4000 });
/** A file of draft posts (nothing publishes): `rows` rows whose texts start with `label`. */
const draftsCsv = (label: string, rows: number) => ['accounts,content,isDraft', ...Array.from({ length: rows }, (_, i) => `${account.id},${label} ${i + 1},true`)].join('\n');
const submit = async (csv: string, key = org.key) => {
  const res = await server.request('POST', '/v1/posts/bulk', { key, rawBody: csv, headers: { 'content-type': 'text/csv' } });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body.data.id as string;
};
const cancel = (id: string, key = org.key) => server.request('POST', `/v1/posts/bulk/${id}/cancel`, { key });
const job = async (id: string) => (await server.request('GET', `/v1/posts/bulk/${id}`, { key: org.key })).body.data;
/** The posts stored with texts starting with `label`, by id. */
const postsLabelled = async (label: string) => (await server.db.query<{ id: string }>(
  "SELECT p.id::text AS id FROM posts p JOIN containers c ON c.post_id = p.id WHERE p.org_id = $1 AND c.content LIKE $2 || ' %' ORDER BY p.id", [org.orgId, label],
)).rows.map((r) => Number(r.id));

/** Every row is created with a post of its own, or cancelled without one; the counts say the same. */
async function assertNoHalfRows(id: string, label: string): Promise<{ created: number; cancelled: number }> {
  const data = await job(id);
  const byStatus = (status: string) => data.rows.filter((r: any) => r.status === status);
  assert.equal(byStatus('pending').length, 0, 'no row left pending');
  assert.deepEqual([data.created, data.cancelled, data.failed], [byStatus('created').length, byStatus('cancelled').length, 0]);
  assert.equal(data.created + data.cancelled, data.total);
  assert.ok(byStatus('cancelled').every((r: any) => !('postId' in r)), 'a cancelled row names no post');
  const recorded = byStatus('created').map((r: any) => decodeId(r.postId)).sort((a: number, b: number) => a - b);
  assert.deepEqual(await postsLabelled(label), recorded, 'the posts stored are exactly the created rows\' posts');
  return { created: data.created, cancelled: data.cancelled };
}

describe('cancel', () => {
  test('a queued job: every row cancelled, no post; a runner started later leaves it alone', async () => {
    const id = await submit(draftsCsv('queued cancel', 3));
    const res = await cancel(id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.status, 'cancelled');
    assert.deepEqual([res.body.data.created, res.body.data.failed, res.body.data.cancelled, res.body.data.processed], [0, 0, 3, 0]);
    assert.ok(res.body.data.cancelledAt && res.body.data.completedAt === null);
    assert.deepEqual(res.body.data.rows.map((r: any) => [r.row, r.status]), [[1, 'cancelled'], [2, 'cancelled'], [3, 'cancelled']]);

    const runner = startRunner();
    try {
      // Another job queued after it runs: once it is done, the runner has passed the cancelled one by.
      const next = await submit(draftsCsv('after the cancelled', 1));
      await until(async () => ((await job(next)).status === 'completed' ? true : undefined), 20_000, 'the next job ran');
    } finally {
      await runner.stop();
    }
    assert.equal((await job(id)).status, 'cancelled');
    assert.deepEqual(await postsLabelled('queued cancel'), []);
  });

  test('cancelling again answers the job as it is', async () => {
    const id = await submit(draftsCsv('twice', 2));
    const first = await cancel(id);
    const second = await cancel(id);
    assert.equal(second.status, 200);
    assert.deepEqual(second.body.data, first.body.data);
  });

  test('racing the runner mid-import: rows created or cancelled, never half; the runner stops', async () => {
    const id = await submit(draftsCsv('race', 3000));
    const runner = startRunner();
    try {
      // The first chunk recorded: the runner is into the next one when the cancel arrives.
      await until(async () => ((await job(id)).created > 0 ? true : undefined), 30_000, 'the first chunk recorded');
      const res = await cancel(id);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'cancelled');
      const counts = await assertNoHalfRows(id, 'race');
      assert.ok(counts.created >= 100 && counts.cancelled > 0, `part-way: ${JSON.stringify(counts)}`);
      assert.deepEqual([res.body.data.created, res.body.data.cancelled], [counts.created, counts.cancelled], 'the cancel answered the final state');

      // The runner is not woken again for it: the job and its posts stay as they are.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.deepEqual(await assertNoHalfRows(id, 'race'), counts);
    } finally {
      await runner.stop();
    }
  });

  test('a cancel sent at once with the job, while the runner claims it: never half', async () => {
    const runner = startRunner();
    try {
      for (const delayMs of [0, 20, 80]) {
        const label = `instant ${delayMs}`;
        const id = await submit(draftsCsv(label, 300));
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        const res = await cancel(id);
        // Done before the cancel came (409), or cancelled: either way no row is half.
        assert.ok(res.status === 200 || res.body.code === 'bulk_import_completed', JSON.stringify(res.body));
        const ended = await until(async () => {
          const data = await job(id);
          return ['cancelled', 'completed'].includes(data.status) ? data : undefined;
        }, 20_000, 'the job ended');
        assert.equal(ended.status, res.status === 200 ? 'cancelled' : 'completed');
        await assertNoHalfRows(id, label);
      }
    } finally {
      await runner.stop();
    }
  });

  test('a completed job: 409 with a clear error, its rows and posts untouched', async () => {
    const id = await submit(draftsCsv('finished', 2));
    const runner = startRunner();
    try {
      await until(async () => ((await job(id)).status === 'completed' ? true : undefined), 20_000, 'the job completed');
    } finally {
      await runner.stop();
    }
    const res = await cancel(id);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'bulk_import_completed');
    assert.match(res.body.error, /already completed.*DELETE \/v1\/posts\/:id/);
    const data = await job(id);
    assert.deepEqual([data.status, data.created, data.cancelled], ['completed', 2, 0]);
    assert.equal((await postsLabelled('finished')).length, 2);
  });

  test('a row whose post a dead worker created but never recorded is recorded as created, not cancelled', async () => {
    const id = await submit(draftsCsv('orphan', 3));
    const { rows } = await server.db.query<{ row_key: string; body: unknown }>(
      'SELECT j.row_key, r.body FROM bulk_imports j JOIN bulk_import_rows r ON r.import_id = j.id WHERE j.id = $1 AND r.row_number = 2', [decodeId(id)],
    );
    // What a worker killed between the create and its record leaves: the post under the row's key.
    const orphan = await server.request('POST', '/v1/posts', { key: org.key, body: rows[0]!.body, headers: { 'idempotency-key': `${rows[0]!.row_key}:2` } });
    assert.equal(orphan.status, 200, JSON.stringify(orphan.body));
    const res = await cancel(id);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.rows.map((r: any) => [r.row, r.status, r.postId ?? null]), [[1, 'cancelled', null], [2, 'created', orphan.body.post.id], [3, 'cancelled', null]]);
    assert.deepEqual([res.body.data.created, res.body.data.cancelled], [1, 2]);
    await assertNoHalfRows(id, 'orphan');
  });

  test('another organization\'s job, or an id that names none: 404, nothing changed', async () => {
    const id = await submit(draftsCsv('not yours', 1));
    const stranger = await server.createOrg();
    const res = await cancel(id, stranger.key);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'not_found');
    assert.equal((await cancel('nonsense')).status, 404);
    assert.equal((await job(id)).status, 'queued');
    await cancel(id);
  });
});

describe('roles', () => {
  test('an approver key may list but not cancel (403, the job unchanged); an editor key cancels', async () => {
    const keyOf = async (role: string) => {
      const res = await server.request('POST', '/v1/api-keys', { key: org.key, body: { name: role, role } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.key as string;
    };
    const [approver, editor] = [await keyOf('approver'), await keyOf('editor')];
    const id = await submit(draftsCsv('by role', 1));
    assert.equal((await server.request('GET', '/v1/posts/bulk', { key: approver })).status, 200);
    const refused = await cancel(id, approver);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'forbidden_role');
    assert.equal((await job(id)).status, 'queued');
    const done = await cancel(id, editor);
    assert.equal(done.status, 200);
    assert.equal(done.body.data.status, 'cancelled');
  });
});

describe('list', () => {
  test('the organization\'s jobs, newest first, paged with an exact count and without rows', async () => {
    const own = await server.createOrg();
    const mine = await server.addAccount(own, 'bluesky');
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push(await submit(`accounts,content,isDraft\n${mine.id},listed ${n},true\n`, own.key));
    await submit(draftsCsv('someone else', 1));

    const all = await server.request('GET', '/v1/posts/bulk', { key: own.key });
    assert.equal(all.status, 200);
    assert.deepEqual([all.body.count, all.body.limit, all.body.offset], [3, 50, 0]);
    assert.deepEqual(all.body.data.map((j: any) => j.id), [...ids].reverse());
    assert.ok(all.body.data.every((j: any) => !('rows' in j) && j.status === 'queued' && j.total === 1));

    const page = await server.request('GET', '/v1/posts/bulk?limit=1&offset=1', { key: own.key });
    assert.deepEqual([page.body.count, page.body.limit, page.body.offset, page.body.data.map((j: any) => j.id)], [3, 1, 1, [ids[1]]]);

    await cancel(ids[0]!, own.key);
    const after = await server.request('GET', '/v1/posts/bulk?offset=2', { key: own.key });
    assert.deepEqual(after.body.data.map((j: any) => [j.id, j.status, j.cancelled]), [[ids[0], 'cancelled', 1]]);
  });

  test('a limit out of range: 400 with the field', async () => {
    const res = await server.request('GET', '/v1/posts/bulk?limit=0', { key: org.key });
    assert.equal(res.status, 400);
    assert.match(JSON.stringify(res.body.details), /limit/);
  });
});
