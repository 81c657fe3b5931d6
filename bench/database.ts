// The database of a benchmark run: BENCH_DATABASE_URL (an admin URL where it may create databases) or a
// throwaway embedded PostgreSQL; a fresh, migrated database of its own; everything undone by `cleanups`.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureDatabase } from '../src/db/database.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createPool, type Db } from '../src/db/pool.ts';

import type { Cleanup } from './cleanup.ts';

export async function openBenchDatabase(name: string, cleanups: Cleanup[], log: (line: string) => void): Promise<{ db: Db; databaseUrl: string; tempDir: string }> {
  const tempDir = await mkdtemp(path.join(os.tmpdir(), `${name.replace(/_/g, '-')}-`));
  cleanups.push({ label: 'remove temp dir', run: () => rm(tempDir, { recursive: true, force: true }) });
  let adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) {
    log('starting a throwaway embedded PostgreSQL');
    // The temp dir itself, as test/run.ts does: started as root, PostgreSQL runs as `postgres`, which
    // must be able to enter every parent of its data dir.
    const server = await startEmbeddedPostgres(tempDir);
    cleanups.push({ label: 'stop embedded PostgreSQL', run: () => server.stop() });
    adminUrl = server.url;
  }
  // The name carries our pid; one left by a killed run with the same pid would hold stale rows.
  const dbName = `${name}_${process.pid}`;
  const dropDatabase = async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(dbName)} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
  await dropDatabase();
  const databaseUrl = await ensureDatabase(adminUrl, dbName);
  cleanups.push({ label: `drop database ${dbName}`, run: dropDatabase });
  const db = createPool(databaseUrl, 4);
  cleanups.push({ label: 'close setup pool', run: () => db.end() });
  await migrate(db);
  const settings = await db.query<{ name: string; setting: string }>(
    "SELECT name, setting FROM pg_settings WHERE name IN ('server_version', 'fsync', 'synchronous_commit', 'shared_buffers', 'max_connections') ORDER BY name",
  );
  log(`PostgreSQL ${settings.rows.map((r) => `${r.name}=${r.setting}`).join(' ')}; ${os.cpus().length} CPUs shared by everything in the run`);
  return { db, databaseUrl, tempDir };
}
