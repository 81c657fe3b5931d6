// Group commit over a real PostgreSQL: requests that wait share a transaction, one request's failure
// rolls its batch back and the others are written alone, and nothing is written twice.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { groupCommit, type BatchSession, type Settled } from '../../src/db/group-commit.ts';
import { createPool, type Db } from '../../src/db/pool.ts';
import { createTestDatabase } from '../helpers/harness.ts';

let db: Db;
before(async () => {
  db = createPool(await createTestDatabase(), 4);
  await db.query("CREATE TABLE written (item text PRIMARY KEY CHECK (item <> 'poison'), tx xid8 NOT NULL DEFAULT pg_current_xact_id())");
});
after(() => db.end());

/**
 * Writes every item in one statement, its own transaction: a poisoned item fails the statement, so
 * the whole batch. With `transaction`, one statement per item inside a transaction instead.
 */
function writer(batches: string[][], transaction = false) {
  return async ({ client, begin }: BatchSession, items: string[]): Promise<Settled<string>[]> => {
    batches.push(items);
    if (transaction) {
      await begin();
      for (const item of items) await client.query('INSERT INTO written (item) VALUES ($1)', [item]);
    } else {
      await client.query('INSERT INTO written (item) SELECT unnest($1::text[])', [items]);
    }
    return items.map((item) => ({ ok: true, value: `wrote ${item}` }));
  };
}

async function rows(prefix: string): Promise<{ item: string; tx: string }[]> {
  return (await db.query<{ item: string; tx: string }>("SELECT item, tx::text FROM written WHERE item LIKE $1 || '%' ORDER BY item", [prefix])).rows;
}

test('requests that arrive while the slot is busy leave together in one transaction', async () => {
  const batches: string[][] = [];
  const commit = groupCommit(db, writer(batches), { slots: 1, maxBatch: 100 });
  const items = Array.from({ length: 10 }, (_, i) => `a${i}`);
  const answers = await Promise.all(items.map((item) => commit.submit(item)));
  assert.deepEqual(answers, items.map((item) => `wrote ${item}`));
  // The first found the slot free and went alone; the nine that waited shared the next transaction.
  assert.deepEqual(batches, [['a0'], items.slice(1)]);
  const stored = await rows('a');
  assert.deepEqual(stored.map((r) => r.item), items);
  assert.equal(new Set(stored.map((r) => r.tx)).size, 2, 'two transactions wrote the ten rows');
});

test('maxBatch bounds a transaction', async () => {
  const batches: string[][] = [];
  const commit = groupCommit(db, writer(batches), { slots: 1, maxBatch: 3 });
  await Promise.all(Array.from({ length: 8 }, (_, i) => commit.submit(`b${i}`)));
  assert.deepEqual(batches.map((b) => b.length), [1, 3, 3, 1]);
});

for (const transaction of [false, true]) {
  test(`a batch that fails writes nothing and each of its requests is written alone: only the bad one fails (${transaction ? 'a transaction of several statements' : 'one statement'})`, async () => {
    const batches: string[][] = [];
    const commit = groupCommit(db, writer(batches, transaction), { slots: 1, maxBatch: 100 });
    const p = transaction ? 'e' : 'c';
    const items = [`${p}0`, `${p}1`, 'poison', `${p}2`, `${p}3`];
    const settled = await Promise.allSettled(items.map((item) => commit.submit(item)));
    assert.deepEqual(settled.map((s) => s.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    assert.match(String((settled[2] as PromiseRejectedResult).reason), /check constraint/);
    assert.deepEqual(batches[1], [`${p}1`, 'poison', `${p}2`, `${p}3`], 'the four that waited were tried together first');
    assert.deepEqual(batches.slice(2).map((b) => b.length), [1, 1, 1, 1], 'then one by one');
    // In the transaction, p1 was inserted before the poison failed: rolled back, then written once alone.
    assert.deepEqual((await rows(p)).map((r) => r.item), [`${p}0`, `${p}1`, `${p}2`, `${p}3`], 'each good request written exactly once');
  });
}

test('a request answered with its own error does not fail the others of its batch', async () => {
  const commit = groupCommit<string, string>(db, async ({ client }, items) => {
    const good = items.filter((item) => !item.startsWith('refused'));
    await client.query('INSERT INTO written (item) SELECT unnest($1::text[])', [good]);
    return items.map((item) => (item.startsWith('refused') ? { ok: false, error: new Error(`${item} refused`) } : { ok: true, value: item }));
  }, { slots: 1, maxBatch: 100 });
  const settled = await Promise.allSettled(['d0', 'd1', 'refused-d2', 'd3'].map((item) => commit.submit(item)));
  assert.deepEqual(settled.map((s) => s.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  assert.deepEqual((await rows('d')).map((r) => r.item), ['d0', 'd1', 'd3']);
});
