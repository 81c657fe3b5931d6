// What `crier` prints when a start or a command fails: one line saying what is wrong and what to do.
// The operator needs the remedy, not the stack; cli/operator.ts adds the stack at LOG_LEVEL=debug.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import { ConfigError, OperatorError } from './core/errors.ts';

interface SystemError {
  message: string;
  code?: string;
  path?: string;
  syscall?: string;
}

type Explain = (error: SystemError, config: Config) => string | undefined;

const unresolvable: Explain = (_e, c) =>
  c.databaseUrl && `The host of DATABASE_URL (${new URL(c.databaseUrl).hostname}) does not resolve: fix DATABASE_URL, or unset it to use the embedded PostgreSQL.`;
const refusedCredentials: Explain = (_e, c) =>
  c.databaseUrl && `PostgreSQL at ${serverOf(c.databaseUrl)} refused the user or password of DATABASE_URL: fix them in DATABASE_URL.`;

/** By error code: Node's system errors (EADDRINUSE, EACCES, …) and PostgreSQL's SQLSTATE. */
const EXPLAIN: Record<string, Explain> = {
  EADDRINUSE: (_e, c) => `Port ${c.port} is already in use on ${c.host}: stop what listens there (another Crier?) or set PORT to a free port.`,
  EADDRNOTAVAIL: (_e, c) => `HOST ${c.host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all of them.`,
  ECONNREFUSED: (_e, c) => c.databaseUrl && `Nothing accepts connections at ${serverOf(c.databaseUrl)} (DATABASE_URL): start PostgreSQL there, fix DATABASE_URL, or unset it to use the embedded PostgreSQL.`,
  ENOTFOUND: unresolvable,
  EAI_AGAIN: unresolvable,
  '3D000': (_e, c) => c.databaseUrl && missingDatabase(c.databaseUrl),
  '28P01': refusedCredentials,
  '28000': refusedCredentials,
  EACCES: (e, c) => (e.syscall === 'listen' ? `Port ${c.port} needs privileges this user does not have: set PORT to 1024 or above.` : unwritableDataDir(e, c)),
  EPERM: unwritableDataDir,
  EROFS: unwritableDataDir,
  ENOTDIR: dataDirIsAFile,
  EEXIST: dataDirIsAFile,
};

/** One line for the operator, whatever failed. */
export function explainFailure(error: unknown, config: Config | undefined): string {
  if (error instanceof ConfigError || error instanceof OperatorError) return error.message;
  const system = systemError(error);
  const explained = config && system.code ? EXPLAIN[system.code]?.(system, config) : undefined;
  if (explained) return explained;
  return `${system.message.split('\n')[0]} (LOG_LEVEL=debug shows the details)`;
}

/** Connection errors may arrive as an AggregateError of one error per address tried. */
function systemError(error: unknown): SystemError {
  if (error instanceof AggregateError && error.errors[0] instanceof Error) return error.errors[0] as SystemError;
  if (error instanceof Error) return error as SystemError;
  return { message: String(error) };
}

/** host:port of a PostgreSQL URL, never its password. */
function serverOf(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname}:${url.port || 5432}`;
}

function missingDatabase(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  return `The database "${name}" does not exist on ${serverOf(databaseUrl)} (DATABASE_URL): create it (createdb ${name}) or point DATABASE_URL at an existing database.`;
}

function unwritableDataDir(error: SystemError, config: Config): string | undefined {
  if (!concernsDataDir(error, config)) return undefined;
  const why = error.code === 'EROFS' ? 'it is on a read-only file system' : 'permission denied';
  return `Crier cannot write to its data directory ${config.dataDir} (${why}): set CRIER_DATA_DIR to a directory it may write, or fix its permissions.`;
}

function dataDirIsAFile(error: SystemError, config: Config): string | undefined {
  if (!concernsDataDir(error, config) || !isFile(config.dataDir)) return undefined;
  return `CRIER_DATA_DIR (${config.dataDir}) is a file, not a directory: set CRIER_DATA_DIR to a directory (it is created when missing).`;
}

/** The failing path is the data dir, inside it, or one of its parents (creating it failed). */
function concernsDataDir(error: SystemError, config: Config): boolean {
  if (!error.path) return false;
  const failed = path.resolve(error.path);
  return failed === config.dataDir || failed.startsWith(config.dataDir + path.sep) || config.dataDir.startsWith(failed + path.sep);
}

function isFile(file: string): boolean {
  try {
    return !statSync(file).isDirectory();
  } catch {
    return false;
  }
}
