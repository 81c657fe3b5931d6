// A real `crier worker` killed with SIGKILL in the middle of an evergreen turn: the turn's transaction
// has locked the collection and the item and is inside the create path, waiting for the account's queue
// slot lock (which this test holds). Nothing of the turn survives the kill — no post, no turn row, no
// use of the item — and a second worker then takes the turn exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type pg from 'pg';
import { decodeId } from '../../src/core/ids.ts';
import { workerProcesses } from '../helpers/process.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import type { TestAccount, TestOrg } from '../helpers/harness.ts';
import { until } from '../helpers/until.ts';

/** The namespace of the queues' per-account slot lock (queues/store.ts lockAccountSlots). */
const SLOT_LOCK_NAMESPACE = 1903519059;

let stack: PublishingStack;
let org: TestOrg;
let account: TestAccount;
const workers = workerProcesses(() => stack.env);

before(async () => {
  stack = await startPublishingStack({}, { worker: false });
  org = await stack.server.createOrg();
  account = await stack.server.addAccount(org, 'bluesky');
  const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  const queue = await stack.server.request('POST', '/v1/queues', { key: org.key, body: { socialAccountId: account.id, timeZone: 'UTC', slots: days.map((day) => ({ day, time: '09:00' })) } });
  assert.equal(queue.status, 201, JSON.stringify(queue.body));
});
after(async () => {
  workers.killAll();
  await stack.close();
});

const count = async (sql: string, params: unknown[]) => (await stack.server.db.query<{ n: number }>(sql, params)).rows[0]!.n;
const turnsOf = (id: number) => count('SELECT count(*)::int AS n FROM evergreen_posts WHERE collection_id = $1', [id]);
const postsOfAccount = () => count('SELECT count(*)::int AS n FROM targets WHERE account_id = $1', [account.rawId]);

/** The backend waiting for the account's slot lock: the killed worker's turn, mid-way. */
async function waitingBackend(): Promise<number | undefined> {
  const { rows } = await stack.server.db.query<{ pid: number }>(
    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = $1 AND objid = $2",
    [SLOT_LOCK_NAMESPACE, account.rawId],
  );
  return rows[0]?.pid;
}

describe('a worker killed mid-turn', () => {
  test('SIGKILL while the turn waits inside the create path: nothing of it is kept, and the next worker takes it once', async () => {
    const holder: pg.PoolClient = await stack.server.db.connect();
    let released = false;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1, $2)', [SLOT_LOCK_NAMESPACE, account.rawId]);
      const first = await workers.start();
      const res = await stack.server.request('POST', '/v1/evergreen-collections', {
        key: org.key, body: { name: 'Crash-proof', accounts: [account.id], queue: true, items: [{ content: 'Survivor' }, { content: 'Second' }] },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const id = decodeId(res.body.data.id)!;
      const orphan = await until(waitingBackend, 20_000, "the worker's turn waiting for the slot lock");
      // The turn holds the collection row: another transaction cannot take it now.
      const locked = await stack.server.db.query('SELECT id FROM evergreen_collections WHERE id = $1 FOR UPDATE SKIP LOCKED', [id]);
      assert.equal(locked.rows.length, 0, 'the collection is locked by the turn in progress');

      first.child.kill('SIGKILL');
      await first.exited;
      await holder.query('COMMIT');
      released = true;
      // The killed worker's backend finds its client gone once it gets the lock, and its transaction is rolled back.
      await until(async () => ((await stack.server.db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [orphan])).rows.length ? undefined : true), 20_000, 'the orphaned backend to end');
      assert.equal(await turnsOf(id), 0);
      assert.equal(await postsOfAccount(), 0);
      const items = await stack.server.db.query('SELECT times_used, last_used_at FROM evergreen_items WHERE collection_id = $1 ORDER BY position', [id]);
      assert.deepEqual(items.rows.map((r) => [r.times_used, r.last_used_at]), [[0, null], [0, null]]);

      await workers.start();
      await until(async () => ((await turnsOf(id)) === 1 ? true : undefined), 20_000, 'the second worker\'s turn');
      // Long enough for a duplicate to show; the next turn is one ahead, at tomorrow's slot.
      await new Promise((r) => setTimeout(r, 1_000));
      assert.equal(await turnsOf(id), 1);
      assert.equal(await postsOfAccount(), 1);
      const data = (await stack.server.request('GET', `/v1/evergreen-collections/${res.body.data.id}`, { key: org.key })).body.data;
      assert.deepEqual(data.items.map((i: any) => [i.content, i.timesUsed]), [['Survivor', 1], ['Second', 0]]);
      assert.equal(data.nextRunAt, data.latestPosts[0].scheduledAt, 'the next turn when this post falls due');
    } finally {
      if (!released) await holder.query('ROLLBACK').catch(() => {});
      holder.release();
    }
  });
});
