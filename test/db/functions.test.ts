// The SQL functions have one current text each, in src/db/functions/, applied by migrate.ts when a
// file's checksum changes; the numbered migrations hold tables, indexes, triggers and data moves.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { FUNCTIONS_DIR, migrateAll } from '../../src/db/migrate.ts';
import { createPool, type Db } from '../../src/db/pool.ts';
import { createTestDatabase } from '../helpers/harness.ts';

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../src/db/migrations');
const DEFINES = /^\s*CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(\w+)/gim;

let db: Db;
let scratch: string;

before(async () => {
  db = createPool(await createTestDatabase(), 2);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'crier-functions-'));
});
after(async () => {
  await db.end();
  await rm(scratch, { recursive: true, force: true });
});

async function definitions(dir: string): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.sql'))) {
    for (const match of (await readFile(path.join(dir, file), 'utf8')).matchAll(DEFINES)) found.set(match[1]!, [...(found.get(match[1]!) ?? []), file]);
  }
  return found;
}

test('no numbered migration defines a function; each function is defined once, in src/db/functions/', async () => {
  assert.deepEqual([...(await definitions(MIGRATIONS_DIR)).keys()], []);
  const sources = await definitions(FUNCTIONS_DIR);
  assert.ok(sources.size >= 20, `${sources.size} functions`);
  for (const [name, files] of sources) assert.equal(files.length, 1, `${name} is defined in ${files.join(', ')}`);
  // And the database holds exactly those: none left over from an older text.
  const { rows } = await db.query<{ proname: string }>("SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1");
  assert.deepEqual(rows.map((r) => r.proname), [...sources.keys()].sort());
});

test('a file is applied when its text changes, and only then; its checksum is recorded', async () => {
  const up = await migrateAll(db);
  assert.deepEqual(up, { migrations: [], functions: [] }, 'an up-to-date database: nothing to apply');
  const copy = path.join(scratch, 'functions');
  await cp(FUNCTIONS_DIR, copy, { recursive: true });
  const file = path.join(copy, 'publishing-admission.sql');
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.replace("'waiting for the account''s publishing quota (%s per %s); it goes at %s'", "'held for the quota (%s per %s) until %s'"));
  const reason = () => db.query<{ r: string }>("SELECT publishing_quota_wait_reason(100, 900, '2026-01-01Z') AS r").then((q) => q.rows[0]!.r);
  assert.equal(await reason(), "waiting for the account's publishing quota (100 per 15 min); it goes at 2026-01-01T00:00:00Z");
  assert.deepEqual(await migrateAll(db, { functions: copy }), { migrations: [], functions: ['publishing-admission.sql'] });
  assert.equal(await reason(), 'held for the quota (100 per 15 min) until 2026-01-01T00:00:00Z');
  assert.deepEqual(await migrateAll(db, { functions: copy }), { migrations: [], functions: [] }, 'applied once');
  // Back to the shipped text: applied again, as a deployment rolling back would.
  assert.deepEqual(await migrateAll(db), { migrations: [], functions: ['publishing-admission.sql'] });
  assert.equal(await reason(), "waiting for the account's publishing quota (100 per 15 min); it goes at 2026-01-01T00:00:00Z");
  const { rows } = await db.query<{ name: string }>('SELECT name FROM schema_functions ORDER BY name');
  assert.deepEqual(rows.map((r) => r.name), (await readdir(FUNCTIONS_DIR)).filter((f) => f.endsWith('.sql')).sort());
});
