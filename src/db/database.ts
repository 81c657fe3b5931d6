// Where Crier's database is: DATABASE_URL, or the embedded PostgreSQL under the data dir.
import pg from 'pg';
import type { Config } from '../config.ts';
import { OperatorError } from '../core/errors.ts';
import { startEmbeddedPostgres } from './embedded.ts';

export interface DatabaseLocation {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

const EMBEDDED_DATABASE = 'crier';

export async function locateDatabase(config: Config, log: (line: string) => void = () => {}): Promise<DatabaseLocation> {
  if (config.databaseUrl) {
    await checkDatabaseUrl(config.databaseUrl);
    return { url: config.databaseUrl, embedded: false, stop: async () => {} };
  }
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

/** How long a first connection to DATABASE_URL may take, unless its `connect_timeout` (libpq's, in seconds) says. */
export const DEFAULT_CONNECT_TIMEOUT_SECONDS = 10;

/**
 * Errors failures.ts already explains in DATABASE_URL's terms (refused, unresolvable, bad password,
 * missing database): passed on as they are.
 */
const EXPLAINED_ELSEWHERE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', '3D000', '28P01', '28000']);

/**
 * Opens one connection to DATABASE_URL before anything else uses it, within a time limit. Without
 * it, a host that drops packets (a firewall, a wrong private address) hangs the start for minutes,
 * and a port that accepts and hangs up (not PostgreSQL, a proxy with nothing behind it) fails with
 * node-postgres's bare "Connection terminated unexpectedly", naming neither the setting nor the host.
 */
export async function checkDatabaseUrl(databaseUrl: string): Promise<void> {
  const timeoutSeconds = connectTimeoutSeconds(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: timeoutSeconds * 1000 });
  // A connection failing after connect() answered must not become an unhandled 'error' event.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code && EXPLAINED_ELSEWHERE.has(code)) throw error;
    throw new OperatorError(unreachableMessage(databaseUrl, error as Error, timeoutSeconds), { cause: error });
  }
  await client.end().catch(() => {});
}

/** libpq's `connect_timeout` URL parameter (seconds, at least 1), else the default. */
function connectTimeoutSeconds(databaseUrl: string): number {
  const given = Number(new URL(databaseUrl).searchParams.get('connect_timeout') ?? NaN);
  return Number.isFinite(given) && given >= 1 ? Math.floor(given) : DEFAULT_CONNECT_TIMEOUT_SECONDS;
}

/** One line: the setting, where it points (never its password), what happened and what to do. */
function unreachableMessage(databaseUrl: string, error: Error, timeoutSeconds: number): string {
  const url = new URL(databaseUrl);
  const server = `${url.hostname}:${url.port || 5432}`;
  const happened = /timeout/i.test(error.message)
    ? `nothing answered within ${timeoutSeconds} s`
    : `the connection was closed before PostgreSQL answered (${error.message.split('\n')[0]})`;
  return `Cannot reach PostgreSQL at ${server} (DATABASE_URL): ${happened}. Check that DATABASE_URL names the right host and port, ` +
    'that PostgreSQL runs there and this machine may reach it (firewall, VPN, TLS: ?sslmode=require), ' +
    'or unset DATABASE_URL to use the embedded PostgreSQL.';
}
