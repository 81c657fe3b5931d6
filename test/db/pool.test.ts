// The pool every Crier process uses: each of its connections runs without JIT compilation, which
// cost a create batch 15 ms of compiling for a 1.5 ms statement whenever an estimate passed
// jit_above_cost (src/db/pool.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { createPool, prepared, type Db } from '../../src/db/pool.ts';
import { createTestDatabase } from '../helpers/harness.ts';

let databaseUrl: string;
let db: Db;

before(async () => {
  databaseUrl = await createTestDatabase();
  db = createPool(databaseUrl, 3);
});
after(() => db.end());

/** A statement estimated far above the default jit_above_cost (100,000): PostgreSQL would compile it. */
const COSTLY = 'EXPLAIN (FORMAT JSON) SELECT count(*) FROM generate_series(1, 10000) a CROSS JOIN generate_series(1, 1000) b';

test('every connection of the pool has JIT off, from its first statement', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.message);
  process.on('warning', onWarning);
  const clients = await Promise.all([db.connect(), db.connect(), db.connect()]);
  try {
    // Two statements at once on each new connection, as a batch's transaction sends them: the SET is
    // not a third in its queue (pg deprecates queueing behind a statement in flight).
    const settings = await Promise.all(clients.map(async (client) => (await Promise.all([client.query('SELECT 1'), client.query<{ jit: string }>('SHOW jit')]))[1]));
    assert.deepEqual(settings.map((r) => r.rows[0]!.jit), ['off', 'off', 'off']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings, [], 'the SET ran before the first statement, not beside it (pg deprecates a second query in flight)');
    const { rows } = await clients[0]!.query<{ 'QUERY PLAN': [{ Plan: { 'Total Cost': number }; JIT?: unknown }] }>(COSTLY);
    const [plan] = rows[0]!['QUERY PLAN'];
    assert.ok(plan.Plan['Total Cost'] > 100_000, `the statement is estimated above jit_above_cost (${plan.Plan['Total Cost']})`);
    assert.equal(plan.JIT, undefined, 'no JIT compilation planned');
  } finally {
    process.off('warning', onWarning);
    for (const client of clients) client.release();
  }
});

test('a plain connection to the same server would compile the statement, where the server has JIT', async () => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const available = (await client.query<{ available: boolean }>('SELECT pg_jit_available() AS available')).rows[0]!.available;
    const { rows } = await client.query<{ 'QUERY PLAN': [{ JIT?: unknown }] }>(COSTLY);
    // Without JIT in the server (e.g. a build without LLVM) there is nothing to turn off.
    assert.equal(rows[0]!['QUERY PLAN'][0].JIT !== undefined, available);
  } finally {
    await client.end();
  }
});

test('a statement keeps its prepared name, however many other texts come between', async () => {
  const text = 'SELECT $1::int + 1 AS n';
  const first = prepared(text);
  assert.notEqual(prepared('SELECT $1::int + 2 AS n').name, first.name, 'another text, another name');
  for (let i = 0; i < 2_500; i++) prepared(`SELECT ${i}`);
  assert.deepEqual(prepared(text), first, 'the same name after the names kept started over');
  const { rows } = await db.query<{ n: number }>({ ...prepared(text), values: [41] });
  assert.equal(rows[0]!.n, 42);
});
