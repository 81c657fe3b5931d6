// Where Crier's database is: DATABASE_URL, or the embedded PostgreSQL under the data dir.
import pg from 'pg';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';

export interface DatabaseLocation {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

const EMBEDDED_DATABASE = 'crier';

export async function locateDatabase(config: Config, log: (line: string) => void = () => {}): Promise<DatabaseLocation> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => {} };
  const server = await startEmbeddedPostgres(config.dataDir, log);
  try {
    const url = await ensureDatabase(server.url, EMBEDDED_DATABASE);
    return { url, embedded: true, stop: server.stop };
  } catch (error) {
    await server.stop(); // a failed start leaves no PostgreSQL behind
    throw error;
  }
}

/** Creates database `name` on the server of `adminUrl` when missing; returns its URL. */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      const from = template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : '';
      // Two processes may race here; the loser's "already exists" is success.
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${from}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error;
      });
    }
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
