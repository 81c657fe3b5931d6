// The starter of tests that need media (the media tests, most network tests, the SDK's and the CLI's):
// Crier behind a local TLS front, as production runs it behind a proxy. PUBLIC_BASE_URL is
// https://127.0.0.1:<front>, so the media URLs Crier hands out are real HTTPS URLs that any client
// (and a network fetching by URL) can fetch through the front. Videos come from ffmpeg's test sources.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Agent, fetch as undiciFetch, type RequestInit, type Response } from 'undici';
import { mediaTools } from '../../src/media/tools.ts';
import { startTestServer, type TestOrg, type TestServer } from './harness.ts';
import { selfSignedCertificate } from './https-server.ts';
import { startPublishingStack, type PublishingStack, type StackOptions } from './publishing.ts';

export const tools = mediaTools();

/** An HTTPS reverse proxy whose upstream is set once Crier listens (Crier needs the front's URL first). */
export interface Front {
  url: string;
  ca: string;
  setUpstream(url: string): void;
  close(): Promise<void>;
}

export async function startFront(): Promise<Front> {
  const { key, cert } = await selfSignedCertificate();
  let upstream: URL | undefined;
  const server: Server = createServer({ key, cert }, (req, res) => {
    const forward = httpRequest({ host: upstream!.hostname, port: upstream!.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.on('close', () => {
      if (!req.complete) forward.destroy(); // a client that hung up mid-body hangs up on Crier too
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    ca: cert,
    setUpstream: (url) => void (upstream = new URL(url)),
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

export interface MediaHarness {
  server: TestServer;
  front: Front;
  dataDir: string;
  /** fetch that trusts the front's certificate. */
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** POST /v1/media/upload, PUT, confirm; returns the confirmed media. */
  upload(org: TestOrg, filename: string, bytes: Buffer, contentType?: string): Promise<any>;
  close(): Promise<void>;
}

async function harnessFor(front: Front, dataDir: string, server: TestServer, closeServer: () => Promise<void>): Promise<MediaHarness> {
  front.setUpstream(server.url);
  // Idle sockets are dropped well before the front's keep-alive timeout (Node's 5 s): a socket reused
  // just as the server closes it fails with ECONNRESET (seen under load after a long encode).
  const agent = new Agent({ connect: { ca: front.ca }, keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 });
  const fetch = (url: string, init: RequestInit = {}) => undiciFetch(url, { ...init, dispatcher: agent });
  return {
    server,
    front,
    dataDir,
    fetch,
    async upload(org, filename, bytes, contentType) {
      const started = await server.request('POST', '/v1/media/upload', { key: org.key, body: { filename, ...(contentType ? { content_type: contentType } : {}) } });
      if (started.status !== 200) throw new Error(`upload start: ${started.status} ${JSON.stringify(started.body)}`);
      const put = await fetch(started.body.data.upload_url, { method: 'PUT', body: bytes });
      if (put.status !== 200) throw new Error(`PUT: ${put.status} ${await put.text()}`);
      const confirmed = await server.request('POST', `/v1/media/${started.body.data.id}/confirm`, { key: org.key, body: { size: bytes.length } });
      if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
      return confirmed.body.data;
    },
    async close() {
      await closeServer();
      await agent.close();
      await front.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function mediaEnv(extra: Record<string, string>): Promise<{ front: Front; dataDir: string; env: Record<string, string> }> {
  const front = await startFront();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-media-'));
  return { front, dataDir, env: { PUBLIC_BASE_URL: front.url, CRIER_DATA_DIR: dataDir, ...extra } };
}

/** The API alone (no worker, no networks). */
export async function startMediaServer(extra: Record<string, string> = {}): Promise<MediaHarness> {
  const { front, dataDir, env } = await mediaEnv(extra);
  const server = await startTestServer(env);
  return harnessFor(front, dataDir, server, () => server.close());
}

/** API + worker + X and Bluesky emulators (test/helpers/publishing.ts), behind the front. */
export async function startMediaPublishing(extra: Record<string, string> = {}, options: StackOptions = {}): Promise<MediaHarness & { stack: PublishingStack }> {
  const { front, dataDir, env } = await mediaEnv(extra);
  const stack = await startPublishingStack(env, options);
  return { ...(await harnessFor(front, dataDir, stack.server, () => stack.close())), stack };
}

export interface TestVideo {
  seconds: number;
  size: string;
  rate: number;
  /** ffmpeg video encoder and its pixel format; defaults: libx264 in yuv420p. */
  codec?: string;
  pixFmt?: string;
  audio?: boolean;
  /** Output container format (mp4, mov, webm...). */
  format?: string;
}

/** A video from ffmpeg's test pattern (and a sine tone), encoded fast. */
export async function makeVideo(spec: TestVideo): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crier-video-'));
  const file = path.join(dir, `v.${spec.format ?? 'mp4'}`);
  const codec = spec.codec ?? 'libx264';
  const args = [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc=duration=${spec.seconds}:size=${spec.size}:rate=${spec.rate}`,
    ...(spec.audio === false ? [] : ['-f', 'lavfi', '-i', `sine=duration=${spec.seconds}:sample_rate=48000`]),
    '-c:v', codec, ...(codec === 'libx264' ? ['-preset', 'ultrafast'] : []), '-pix_fmt', spec.pixFmt ?? 'yuv420p',
    ...(spec.audio === false ? [] : ['-c:a', spec.format === 'webm' ? 'libvorbis' : 'aac']),
    '-f', spec.format ?? 'mp4', file,
  ];
  try {
    await promisify(execFile)(tools.ffmpeg, args);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A real MP4's bytes followed by filler up to `size`: a large "video" in no time. Networks and Crier
 * judge a video by its first bytes; every 4 KiB of filler differs, so every uploaded range does too.
 */
export async function paddedVideo(size: number): Promise<Buffer> {
  const head = await makeVideo({ seconds: 1, size: '160x120', rate: 10 });
  const bytes = Buffer.alloc(size);
  head.copy(bytes);
  for (let i = head.length; i < size; i += 4096) bytes.writeUInt32BE(i, i);
  return bytes;
}

/** A JPEG of ffmpeg's test pattern. */
export async function makeJpeg(size = '320x240'): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crier-image-'));
  const file = path.join(dir, 'i.jpg');
  try {
    await promisify(execFile)(tools.ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${size}`, '-frames:v', '1', file]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An MP4 whose movie header says it lasts `seconds` (ftyp, then moov with a version-0 mvhd): what a network's processing reads the length from. */
export function mp4Lasting(seconds: number): Buffer {
  const box = (type: string, payload: Buffer) => {
    const header = Buffer.alloc(8);
    header.writeUInt32BE(8 + payload.length);
    header.write(type, 4, 'latin1');
    return Buffer.concat([header, payload]);
  };
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12);
  mvhd.writeUInt32BE(seconds * 1000, 16);
  return Buffer.concat([box('ftyp', Buffer.from('isom\0\0\0\0isommp41', 'latin1')), box('moov', box('mvhd', mvhd))]);
}
