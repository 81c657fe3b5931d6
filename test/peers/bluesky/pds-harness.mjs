// The real reference Bluesky PDS (@atproto/pds), run offline on 127.0.0.1 as a child process of a
// test. It starts an in-memory PLC directory (@did-plc/server with Database.mock()) and a PDS in dev
// mode, with its SQLite databases and blobs in a fresh temp dir; no appview, no crawlers, no email.
// When both are up it prints one line on stdout:  {"ready":true,"url":"http://localhost:<port>"}
// On SIGTERM (or SIGINT) it destroys both servers, removes the temp dir and exits 0.
// Env: PDS_RATE_LIMITS=1 turns on the PDS's (in-memory) rate limits; LOG_ENABLED=true shows pino logs.
// Needs Node >= 22 and `npm ci --prefix test/peers/bluesky`. See test/peers/README.md.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

function fail(stage, err) {
  process.stderr.write(`pds-harness: ${stage} failed: ${err?.stack ?? err}\n`);
  process.exit(1);
}

/**
 * A free TCP port. The PDS needs it up front (it is part of its publicUrl; port 0 does not work).
 * Probed the way the PDS listens (no host: every interface, dual-stack), so it is free there too.
 */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

let plcServer;
let pds;
let dir;
let stopping = false;

async function stop(signal) {
  if (stopping) return;
  stopping = true;
  let code = 0;
  for (const [what, fn] of [
    ['pds.destroy', () => pds?.destroy()],
    ['plc.destroy', () => plcServer?.destroy()],
    ['rm data dir', () => dir && fs.rm(dir, { recursive: true, force: true })],
  ]) {
    try {
      await fn();
    } catch (err) {
      process.stderr.write(`pds-harness: ${what} on ${signal} failed: ${err?.stack ?? err}\n`);
      code = 1;
    }
  }
  process.exit(code);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

try {
  const [plc, { PDS }, { Secp256k1Keypair }] = await Promise.all([
    import('@did-plc/server'),
    import('@atproto/pds'),
    import('@atproto/crypto'),
  ]);

  plcServer = plc.PlcServer.create({ db: plc.Database.mock(), port: 0 });
  await plcServer.start();
  const plcUrl = `http://localhost:${plcServer.server.address().port}`;

  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'crier-pds-'));
  const rotationKey = await Secp256k1Keypair.create({ exportable: true });
  const port = await freePort();

  pds = await PDS.fromEnv({
    port,
    hostname: 'localhost', // publicUrl http://localhost:<port>; service handle domain ".test"
    devMode: true, // plain http allowed, SSRF guard off
    dataDirectory: dir,
    blobstoreDiskLocation: path.join(dir, 'blobs'),
    blobstoreDiskTmpLocation: path.join(dir, 'blobs-tmp'),
    didPlcUrl: plcUrl,
    plcRotationKeyK256PrivateKeyHex: Buffer.from(await rotationKey.export()).toString('hex'),
    jwtSecret: randomBytes(16).toString('hex'),
    adminPassword: 'admin-pass',
    inviteRequired: false,
    rateLimitsEnabled: process.env.PDS_RATE_LIMITS === '1',
    crawlers: [],
    // left unset on purpose: bskyAppViewUrl (no appview), emailSmtpUrl (no mail)
  });
  await pds.start();
  if (stopping) await new Promise(() => {}); // a signal arrived while starting: let stop() finish
  process.stdout.write(`${JSON.stringify({ ready: true, url: `http://localhost:${port}` })}\n`);
} catch (err) {
  fail('start', err);
}
