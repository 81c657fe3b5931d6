// `npm run bench:media` (full) / `npm run bench:media -- --smoke` (short, for CI).
//
//  1. media.upload_put: MB/s of PUT <upload_url> to a started `crier api` (child process, streaming
//     to local disk), beside two ceilings measured in the same run: the same bytes written to a file
//     in the same data directory (fs.writeFile), and the same PUT to a bare node:http server in a
//     child process that only reads and drops the body (what HTTP ingest alone costs here).
//  2. media.confirm: time of POST /v1/media/:id/confirm on those uploads (stat, sniff, one UPDATE).
//  3. media.reencode_1080p60_to_720p30: seconds of video re-encoded per second of wall time by the
//     processMedia encoder (src/media/encode.ts: libx264 veryfast CRF 21 + AAC), beside its ceiling:
//     ffmpeg decoding and scaling the same source to 720p30 with no encoding at all.
//
// Prints one JSON line per figure on stdout, then a Markdown table; progress goes to stderr.
// Database: BENCH_DATABASE_URL (an admin URL allowed to CREATE DATABASE), else a throwaway embedded
// PostgreSQL in a temporary directory.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ensureDatabase } from '../src/db/database.ts';
import { freePort, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';
import { planRendition } from '../src/media/conform.ts';
import { encodeVideo } from '../src/media/encode.ts';
import { probeVideo } from '../src/media/probe.ts';
import type { VideoProfile } from '../src/media/profiles.ts';
import { mediaTools, runTool } from '../src/media/tools.ts';
import { createOrg } from '../src/orgs/orgs.ts';
import { machineBusyShare, spawnNode, waitForHttp } from './proc.ts';
import { round } from './stats.ts';

const { values: flags } = parseArgs({ options: { smoke: { type: 'boolean', default: false } } });
const profile = flags.smoke ? { name: 'smoke', uploadMb: 32, uploads: 3, videoSeconds: 4 } : { name: 'full', uploadMb: 128, uploads: 5, videoSeconds: 20 };
const repoRoot = path.resolve(import.meta.dirname, '..');
const tools = mediaTools();
const log = (line: string) => process.stderr.write(`bench:media: ${line}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The rendition the figure names: 1080p60 in, 720p30 H.264 out. */
const PROFILE_720P30: VideoProfile = { id: 'bench-720p30', label: '720p30', containers: ['mp4'], videoCodecs: ['h264'], pixelFormats: ['yuv420p'], audioCodecs: ['aac'], maxWidth: 1280, maxHeight: 720, maxFps: 30 };

const cleanups: (() => Promise<unknown>)[] = [];
const figures: Record<string, unknown>[] = [];

function emit(figure: Record<string, unknown>): void {
  figures.push(figure);
  process.stdout.write(JSON.stringify(figure) + '\n');
}

async function startApi(tempDir: string): Promise<{ url: string; key: string }> {
  let adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) {
    log('starting a throwaway embedded PostgreSQL');
    // A directory of its own: the embedded server checks (and owns) the one it is given.
    const pgDir = await mkdtemp(path.join(os.tmpdir(), 'crier-bench-media-pg-'));
    const server = await startEmbeddedPostgres(pgDir);
    cleanups.push(() => rm(pgDir, { recursive: true, force: true }));
    cleanups.push(() => server.stop());
    adminUrl = server.url;
  }
  const dbName = `crier_bench_media_${process.pid}`;
  const databaseUrl = await ensureDatabase(adminUrl, dbName);
  cleanups.push(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(dbName)} WITH (FORCE)`);
    await admin.end();
  });
  const db = createPool(databaseUrl, 2);
  await migrate(db);
  const org = await createOrg(db, 'bench');
  await db.end();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const api = spawnNode('api', path.join(repoRoot, 'bin', 'crier.js'), ['api'], {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: url,
    CRIER_DATA_DIR: path.join(tempDir, 'data'),
    CRIER_SECRET_KEY: randomBytes(32).toString('hex'),
    CRIER_RATE_LIMIT_ENABLED: 'false',
    CRIER_MEDIA_MAX_UPLOAD_BYTES: String(1024 * 1024 * 1024),
    LOG_LEVEL: 'warn',
  }, repoRoot);
  cleanups.push(() => api.stop());
  await waitForHttp(`${url}/healthz`);
  return { url, key: org.apiKey };
}

async function api(base: string, key: string, method: string, route: string, body?: unknown): Promise<any> {
  const res = await fetch(base + route, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function benchUploads(tempDir: string): Promise<void> {
  const { url, key } = await startApi(tempDir);
  // An MP4 as far as confirm can tell, then noise (incompressible, like real video).
  const bytes = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom', 'latin1'), randomBytes(profile.uploadMb * 1024 * 1024 - 12)]);
  const mb = bytes.length / (1024 * 1024);
  const put: number[] = [];
  const bare: number[] = [];
  const disk: number[] = [];
  const bareUrl = await startBareSink();
  const confirm: number[] = [];
  const ceilingDir = path.join(tempDir, 'data', 'media', 'ceiling');
  await mkdir(ceilingDir, { recursive: true });
  for (let run = 0; run < profile.uploads; run++) {
    const started = await api(url, key, 'POST', '/v1/media/upload', { filename: `run${run}.mp4` });
    let t = performance.now();
    const res = await fetch(started.data.upload_url, { method: 'PUT', body: bytes });
    if (res.status !== 200) throw new Error(`PUT ${res.status}: ${await res.text()}`);
    put.push(mb / ((performance.now() - t) / 1000));
    t = performance.now();
    await api(url, key, 'POST', `/v1/media/${started.data.id}/confirm`, { size: bytes.length });
    confirm.push(performance.now() - t);
    t = performance.now();
    await (await fetch(bareUrl, { method: 'PUT', body: bytes })).arrayBuffer();
    bare.push(mb / ((performance.now() - t) / 1000));
    const file = path.join(ceilingDir, `run${run}`);
    t = performance.now();
    await writeFile(file, bytes);
    disk.push(mb / ((performance.now() - t) / 1000));
    await rm(file);
    log(`upload ${run + 1}/${profile.uploads}: PUT ${put.at(-1)!.toFixed(0)} MB/s, bare HTTP ${bare.at(-1)!.toFixed(0)} MB/s, disk ${disk.at(-1)!.toFixed(0)} MB/s, confirm ${confirm.at(-1)!.toFixed(1)} ms`);
  }
  emit({ figure: 'media.upload_put', file_mb: mb, runs: put.length, mb_per_s: round(median(put), 1), min_mb_per_s: round(Math.min(...put), 1), ceiling_http_drain_mb_per_s: round(median(bare), 1), ceiling_disk_write_mb_per_s: round(median(disk), 1) });
  emit({ figure: 'media.confirm', file_mb: mb, runs: confirm.length, median_ms: round(median(confirm), 2), max_ms: round(Math.max(...confirm), 2) });
}

/** A node:http server in a child process that reads every PUT body and drops it. */
async function startBareSink(): Promise<string> {
  const port = await freePort();
  const script = `require('node:http').createServer(async (req, res) => { for await (const _ of req); res.end('ok'); }).listen(${port}, '127.0.0.1')`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  cleanups.push(async () => child.kill());
  const url = `http://127.0.0.1:${port}/`;
  await waitForHttp(url);
  return url;
}

async function benchReencode(tempDir: string): Promise<void> {
  const source = path.join(tempDir, 'source.mp4');
  log(`generating a ${profile.videoSeconds} s 1080p60 source`);
  await runTool(tools.ffmpeg, [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=duration=${profile.videoSeconds}:size=1920x1080:rate=60`,
    '-f', 'lavfi', '-i', `sine=duration=${profile.videoSeconds}:sample_rate=48000`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', source,
  ], 600_000);
  const info = await probeVideo(tools, source);
  const plan = planRendition(PROFILE_720P30, info);
  const output = path.join(tempDir, 'rendition.mp4');
  let t = performance.now();
  await encodeVideo(tools, source, output, plan, info.durationMs);
  const encodeSeconds = (performance.now() - t) / 1000;
  const result = await probeVideo(tools, output);
  t = performance.now();
  await runTool(tools.ffmpeg, ['-v', 'error', '-i', source, '-vf', 'scale=1280:720,fps=30', '-an', '-f', 'null', '-'], 600_000);
  const decodeSeconds = (performance.now() - t) / 1000;
  const videoSeconds = info.durationMs / 1000;
  emit({
    figure: 'media.reencode_1080p60_to_720p30',
    video_s: videoSeconds,
    output: `${result.video!.width}x${result.video!.height}@${result.video!.fps} ${result.video!.codec}`,
    wall_s: round(encodeSeconds, 2),
    video_s_per_s: round(videoSeconds / encodeSeconds, 2),
    ceiling_decode_scale_video_s_per_s: round(videoSeconds / decodeSeconds, 2),
    cores: os.cpus().length,
  });
}

function printTable(): void {
  const rows = figures.map((f) => {
    switch (f.figure) {
      case 'media.upload_put':
        return `| upload PUT (${f.file_mb} MB, ${f.runs} runs) | ${f.mb_per_s} MB/s (min ${f.min_mb_per_s}) | raw disk write: ${f.ceiling_disk_write_mb_per_s} MB/s; bare HTTP PUT, body dropped: ${f.ceiling_http_drain_mb_per_s} MB/s |`;
      case 'media.confirm':
        return `| confirm (${f.file_mb} MB file) | ${f.median_ms} ms median (max ${f.max_ms}) | - |`;
      default:
        return `| re-encode 1080p60 -> ${f.output} (${f.video_s} s, ${f.cores} cores) | ${f.video_s_per_s} s of video per s | decode+scale only: ${f.ceiling_decode_scale_video_s_per_s} s/s |`;
    }
  });
  process.stdout.write(['', '| figure | Crier | ceiling (same run) |', '|---|---|---|', ...rows].join('\n') + '\n');
}

let exitCode = 0;
const tempDir = await mkdtemp(path.join(os.tmpdir(), 'crier-bench-media-'));
try {
  const busy = await machineBusyShare();
  if (busy > 0.2) log(`WARNING: ${(busy * 100).toFixed(0)}% of the machine's CPU was in use before the bench started; figures will be low and noisy`);
  log(`${profile.name} run`);
  await benchUploads(tempDir);
  await benchReencode(tempDir);
  printTable();
} catch (error) {
  exitCode = 1;
  process.stderr.write(`bench:media failed: ${(error as Error).stack ?? String(error)}\n`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => log(`cleanup failed: ${(error as Error).message}`));
  await rm(tempDir, { recursive: true, force: true });
}
process.exit(exitCode);
