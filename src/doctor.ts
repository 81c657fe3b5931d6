// `crier doctor`: checks what most often goes wrong in a deployment, and says how to fix it.
import pg from 'pg';
import { type Config, parseSecretKey } from './config.ts';
import { locateDatabase } from './db/database.ts';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkInstalled, LAZY_PACKAGES } from './lazy.ts';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export async function runDoctor(config: Config): Promise<number> {
  const checks: Check[] = [];
  checks.push({ name: 'config', ok: true, detail: `port ${config.port}, data dir ${config.dataDir}` });
  checks.push(await check('installation', async () => {
    checkInstalled();
    return `the ${LAZY_PACKAGES.length} packages loaded on first use are installed`;
  }));
  checks.push(await check('secret key', async () => {
    if (config.secretKey) {
      parseSecretKey(config.secretKey);
      return 'from CRIER_SECRET_KEY';
    }
    // The doctor only looks: it never creates the key (the first start does).
    const file = path.join(config.dataDir, 'secret-key');
    if (!existsSync(file)) return `none yet: the first start generates ${file}`;
    parseSecretKey(readFileSync(file, 'utf8').trim());
    return `from ${file}`;
  }));
  let dbTime: number | undefined;
  checks.push(await check('database', async () => {
    const database = await locateDatabase(config);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: string; now: Date; migrated: boolean }>(
        "SELECT current_setting('server_version') AS version, now(), to_regclass('public.schema_migrations') IS NOT NULL AS migrated",
      );
      dbTime = rows[0]!.now.getTime();
      const major = Number(rows[0]!.version.split('.')[0]);
      if (major < 15) throw new Error(`PostgreSQL ${rows[0]!.version} is too old: Crier needs 15 or newer`);
      return `PostgreSQL ${rows[0]!.version} (${database.embedded ? 'embedded' : 'DATABASE_URL'})${rows[0]!.migrated ? '' : ', not migrated yet: run npx crier migrate'}`;
    } finally {
      await client.end();
      await database.stop();
    }
  }));
  checks.push(await check('clock', async () => {
    if (dbTime === undefined) throw new Error('database unreachable, clock not compared');
    const skew = Math.abs(Date.now() - dbTime);
    if (skew > 2000) throw new Error(`this machine and PostgreSQL disagree by ${skew} ms: scheduled posts would be late or early; sync NTP`);
    return `within ${skew} ms of PostgreSQL`;
  }));
  checks.push(await check('public base URL', async () => {
    const url = new URL(config.publicBaseUrl);
    if (url.protocol !== 'https:' || ['localhost', '127.0.0.1'].includes(url.hostname)) {
      return `${config.publicBaseUrl}: fine for local use; networks that fetch media by URL and OAuth callbacks need a public https URL`;
    }
    return config.publicBaseUrl;
  }));
  for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`);
  return checks.every((c) => c.ok) ? 0 : 1;
}

async function check(name: string, run: () => Promise<string>): Promise<Check> {
  try {
    return { name, ok: true, detail: await run() };
  } catch (error) {
    return { name, ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
}
