// `npm run bench:video` (30 and 300 MB, about 2 minutes) / `npm run bench:video -- --smoke` (16 and 144 MB, for CI).
//
// Chunked uploads never hold a whole video: the peak RSS of `crier start --sandbox` (one process:
// API, publishing worker and the network emulators) while one video goes to every sandbox account
// that takes a video by upload (YouTube, TikTok and Vimeo, each in its own chunks and checkpointed
// steps), measured from /proc for a small video and for a large one. The video is uploaded through
// Crier's media API first (streamed to storage), then read range by range by each network's upload.
//
// Ceiling, from the same run: the peak RSS with the small video. Goal: the large video's peak is at
// most GROWTH_LIMIT_MB above it, whatever the size (a process holding the video would grow by the
// size difference: the smoke run's sizes differ by twice the limit, so it would show too). PASS or MISS. Prints one JSON line per figure on stdout, then a Markdown table;
// progress goes to stderr. Database: BENCH_DATABASE_URL (an admin URL allowed to CREATE DATABASE),
// else a throwaway embedded PostgreSQL.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { freePort } from '../src/db/embedded.ts';
import { createCleanups, runBenchmark } from './cleanup.ts';
import { openBenchDatabase } from './database.ts';
import { peakRssMb } from './proc.ts';
import { round } from './stats.ts';
import { spawn } from 'node:child_process';

const started = performance.now();
const { values: flags } = parseArgs({ options: { smoke: { type: 'boolean', default: false } } });
const MB = 1024 * 1024;
const profile = flags.smoke ? { name: 'smoke', smallMb: 16, largeMb: 144 } : { name: 'full', smallMb: 30, largeMb: 300 };
/** One chunk per network in flight at once (YouTube 8 MiB, TikTok 10 MiB, Vimeo 16 MiB) and their buffers. */
const GROWTH_LIMIT_MB = 64;
const VIDEO_NETWORKS = ['youtube', 'tiktok', 'vimeo'];

const repoRoot = path.resolve(import.meta.dirname, '..');
const CRIER = path.join(repoRoot, 'bin', 'crier.js');
const log = (line: string) => process.stderr.write(`bench:video: ${line}\n`);
const { cleanups, cleanUp } = createCleanups(log);
const problems: string[] = [];
const results: { sizeMb: number; peakRssMb: number; publishSeconds: number }[] = [];

/**
 * An MP4 as far as anyone reading it without decoding goes: `ftyp`, a `moov` whose movie header says
 * 30 seconds, then `mdat` filling the rest. Written in 1 MiB pieces.
 */
async function writeVideo(file: string, sizeBytes: number): Promise<void> {
  const ftyp = box('ftyp', Buffer.concat([Buffer.from('isom'), u32(512), Buffer.from('isomiso2avc1mp41')]));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // timescale
  mvhd.writeUInt32BE(30_000, 16); // duration: 30 s
  mvhd.writeUInt32BE(0x00010000, 20); // rate 1.0
  const moov = box('moov', box('mvhd', mvhd));
  const mdatBody = sizeBytes - ftyp.length - moov.length - 8;
  const head = Buffer.concat([ftyp, moov, u32(mdatBody + 8), Buffer.from('mdat')]);
  const piece = randomBytes(MB);
  async function* pieces() {
    yield head;
    for (let left = mdatBody; left > 0; left -= piece.length) yield left >= piece.length ? piece : piece.subarray(0, left);
  }
  await pipeline(Readable.from(pieces()), createWriteStream(file));
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const box = (type: string, body: Buffer) => Buffer.concat([u32(body.length + 8), Buffer.from(type, 'latin1'), body]);

interface Sandbox {
  pid: number;
  base: string;
  key: string;
  accounts: { network: string; id: string }[];
  stop(): Promise<void>;
}

/** `crier start --sandbox`, up, with the key and the accounts its guide prints. */
async function startSandbox(env: NodeJS.ProcessEnv): Promise<Sandbox> {
  const port = await freePort();
  const child = spawn(process.execPath, [CRIER, 'start', '--sandbox'], { cwd: repoRoot, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => process.stderr.write(`[crier] ${chunk}`));
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = performance.now() + 60_000;
  while (!/Connect an account/.test(stdout)) {
    if (child.exitCode !== null || performance.now() > deadline) throw new Error(`the sandbox did not start:\n${stdout}`);
    await sleep(100);
  }
  const key = /API key for this sandbox run: (crier_\S+)/.exec(stdout)![1]!;
  const accounts = [...stdout.matchAll(/^ {2}([a-z_]+)\s+@\S+\s+account id (\S+)$/gm)].map((m) => ({ network: m[1]!, id: m[2]! }));
  return { pid: child.pid!, base: `http://127.0.0.1:${port}`, key, accounts, stop };
}

async function call(sandbox: Sandbox, method: string, route: string, body?: unknown): Promise<any> {
  const res = await fetch(sandbox.base + route, {
    method,
    headers: { authorization: `Bearer ${sandbox.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** The media flow of the README: ask for an upload URL, PUT the file (streamed), confirm. */
async function uploadVideo(sandbox: Sandbox, file: string): Promise<string> {
  const upload = await call(sandbox, 'POST', '/v1/media/upload', { filename: 'clip.mp4', content_type: 'video/mp4' });
  const { size } = await stat(file);
  const put = await fetch(upload.data.upload_url, {
    method: 'PUT',
    headers: { 'content-type': 'video/mp4', 'content-length': String(size) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  if (!put.ok) throw new Error(`upload PUT: ${put.status} ${await put.text()}`);
  const confirmed = await call(sandbox, 'POST', `/v1/media/${upload.data.id}/confirm`, {});
  return confirmed.data.url as string;
}

async function publishVideo(sandbox: Sandbox, url: string): Promise<void> {
  const accounts = sandbox.accounts.filter((a) => VIDEO_NETWORKS.includes(a.network));
  if (accounts.length !== VIDEO_NETWORKS.length) throw new Error(`the sandbox lists ${accounts.map((a) => a.network).join(', ')}, not ${VIDEO_NETWORKS.join(', ')}`);
  const created = await call(sandbox, 'POST', '/v1/posts', {
    accounts: accounts.map((a) => a.id),
    containers: [{ content: `bench:video ${randomBytes(4).toString('hex')}`, media: [{ url, filename: 'clip.mp4' }] }],
  });
  const id = created.post.id as string;
  const deadline = performance.now() + 15 * 60_000;
  for (;;) {
    const { post } = await call(sandbox, 'GET', `/v1/posts/${id}`);
    const destinations = post.socialAccounts as { network: string; status: string; error?: string }[];
    const failed = destinations.filter((d) => d.status === 'failed' || d.status === 'unknown');
    if (failed.length) throw new Error(`not published: ${failed.map((d) => `${d.network}: ${d.error}`).join('; ')}`);
    if (destinations.every((d) => d.status === 'published')) return;
    if (performance.now() > deadline) throw new Error(`not published within 15 minutes: ${JSON.stringify(destinations)}`);
    await sleep(250);
  }
}

async function measure(sizeMb: number, env: NodeJS.ProcessEnv, tempDir: string): Promise<void> {
  const file = path.join(tempDir, `video-${sizeMb}.mp4`);
  await writeVideo(file, sizeMb * MB);
  const dataDir = await mkdtemp(path.join(tempDir, 'data-'));
  const sandbox = await startSandbox({ ...env, CRIER_DATA_DIR: dataDir });
  cleanups.push({ label: `stop the sandbox (${sizeMb} MB)`, run: () => sandbox.stop() });
  try {
    const t0 = performance.now();
    const url = await uploadVideo(sandbox, file);
    await publishVideo(sandbox, url);
    const publishSeconds = (performance.now() - t0) / 1000;
    const peak = await peakRssMb(sandbox.pid);
    results.push({ sizeMb, peakRssMb: round(peak, 1), publishSeconds: round(publishSeconds, 1) });
    log(`${sizeMb} MB to ${VIDEO_NETWORKS.join(', ')}: peak RSS ${peak.toFixed(1)} MB, uploaded and published in ${publishSeconds.toFixed(1)} s`);
  } finally {
    await sandbox.stop();
    await rm(file, { force: true });
  }
}

async function main(): Promise<void> {
  const bench = await openBenchDatabase('crier_bench_video', cleanups, log);
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'crier-bench-video-'));
  cleanups.push({ label: 'remove the video temp dir', run: () => rm(tempDir, { recursive: true, force: true }) });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: bench.databaseUrl,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    CRIER_SECRET_KEY: randomBytes(32).toString('hex'),
    CRIER_MEDIA_MAX_UPLOAD_BYTES: String((profile.largeMb + 16) * MB),
    // The sandbox's YouTube account publishes through the managed key: a pool large enough for the run.
    CRIER_YOUTUBE_POOL_UNITS: '1000000',
    CRIER_YOUTUBE_POOL_PACING: 'off',
    CRIER_ACCOUNT_QUOTAS: 'off',
  };
  for (const sizeMb of [profile.smallMb, profile.largeMb]) await measure(sizeMb, env, tempDir);
}

function report(): void {
  for (const r of results) process.stdout.write(`${JSON.stringify({ figure: 'video.peak_rss', size_mb: r.sizeMb, value: r.peakRssMb, unit: 'MB', publish_seconds: r.publishSeconds })}\n`);
  const [small, large] = results;
  if (!small || !large) return;
  const growth = large.peakRssMb - small.peakRssMb;
  const verdict = growth <= GROWTH_LIMIT_MB ? 'PASS' : 'MISS';
  process.stdout.write([
    '',
    `| bench:video (${profile.name}) | video | peak RSS of \`crier start --sandbox\` | upload + publish to ${VIDEO_NETWORKS.join(', ')} |`,
    '|---|---|---|---|',
    ...results.map((r) => `| | ${r.sizeMb} MB | ${r.peakRssMb} MB | ${r.publishSeconds} s |`),
    '',
    `Goal: the ${large.sizeMb} MB video's peak ≤ the ${small.sizeMb} MB video's (the ceiling, ${small.peakRssMb} MB) + ${GROWTH_LIMIT_MB} MB: grew ${round(growth, 1)} MB for ${large.sizeMb - small.sizeMb} MB more video — ${verdict}`,
    '',
  ].join('\n'));
}

await runBenchmark({ main, cleanUp, report, problems, log, startedMs: started });
