// Brings the database to this version of Crier, under an advisory lock so that several processes
// starting together migrate exactly once, in one transaction:
//  1. the SQL functions, from src/db/functions/*.sql — the one current text of each function family —
//     each file applied when its checksum differs from the one recorded (schema_functions), so a
//     changed function is changed in place, never copied into a new migration;
//  2. the numbered migrations, src/db/migrations/*.sql in name order, each once (schema_migrations):
//     tables, indexes, triggers and data moves.
// The functions go first because the migrations' triggers and data moves call them. That is safe on
// a database of any age: a PL/pgSQL body is checked when it runs, not when it is created (and plain
// SQL bodies are not checked here), so the current text may precede the columns it reads. A change
// to a function's arguments or result needs a DROP of the old one in a numbered migration (CREATE OR
// REPLACE cannot make it), written `DROP FUNCTION IF EXISTS`: a fresh database never had it.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withTransaction, type Db, type Queryable } from './pool.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MIGRATIONS_DIR = path.join(HERE, 'migrations');
export const FUNCTIONS_DIR = path.join(HERE, 'functions');
const MIGRATION_LOCK = 727_001;

export interface Migrated {
  /** The numbered migrations applied now. */
  migrations: string[];
  /** The function files applied now (new, or changed since they were last applied). */
  functions: string[];
}

export async function migrate(db: Db, dirs: { functions?: string; migrations?: string } = {}): Promise<string[]> {
  return (await migrateAll(db, dirs)).migrations;
}

export async function migrateAll(db: Db, dirs: { functions?: string; migrations?: string } = {}): Promise<Migrated> {
  return withTransaction(db, async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const functions = await applyFunctions(tx, dirs.functions ?? FUNCTIONS_DIR);
    const migrations = await applyMigrations(tx, dirs.migrations ?? MIGRATIONS_DIR);
    return { migrations, functions };
  });
}

async function applyFunctions(tx: Queryable, dir: string): Promise<string[]> {
  await tx.query('CREATE TABLE IF NOT EXISTS schema_functions (name text PRIMARY KEY, sha256 text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
  const recorded = new Map((await tx.query<{ name: string; sha256: string }>('SELECT name, sha256 FROM schema_functions')).rows.map((r) => [r.name, r.sha256]));
  await tx.query('SET LOCAL check_function_bodies = off');
  const applied: string[] = [];
  for (const file of await sqlFiles(dir)) {
    const text = await readFile(path.join(dir, file), 'utf8');
    const sha256 = createHash('sha256').update(text).digest('hex');
    if (recorded.get(file) === sha256) continue;
    await tx.query(text);
    await tx.query('INSERT INTO schema_functions (name, sha256) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET sha256 = $2, applied_at = now()', [file, sha256]);
    applied.push(file);
  }
  await tx.query('SET LOCAL check_function_bodies = on');
  return applied;
}

async function applyMigrations(tx: Queryable, dir: string): Promise<string[]> {
  await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
  const fresh: string[] = [];
  for (const file of await sqlFiles(dir)) {
    if (done.has(file)) continue;
    await tx.query(await readFile(path.join(dir, file), 'utf8'));
    await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    fresh.push(file);
  }
  return fresh;
}

async function sqlFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
}
