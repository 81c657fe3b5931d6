// processMedia: before a target's adapter runs, each video of the post is inspected against the
// target network's profile; one that falls outside is re-encoded once into a rendition that meets it,
// cached per (org, source, profile), served like media, billed in 10-second blocks, and handed to the
// adapter in place of the original. Videos that already fit, and everything that is not a video, pass
// through untouched (inspection is free; nothing is billed).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { withTransaction, type Db } from '../db/pool.ts';
import { isVideo } from '../networks/media-kind.ts';
import type { ContainerInput, MediaInput } from '../core/post.ts';
import type { MediaFetcher } from '../networks/contract.ts';
import type { NetworkId } from '../core/network-id.ts';
import { PublishError } from '../core/errors.ts';
import { judge, planRendition } from './conform.ts';
import { mediaStorage, newToken, publicMediaUrl, tokenOfPublicUrl } from './context.ts';
import { encodeVideo } from './encode.ts';
import { probeVideo, ProbeError, type VideoInfo } from './probe.ts';
import { videoProfileFor, type VideoProfile } from './profiles.ts';
import type { MediaStorage } from './storage.ts';
import { mediaTools, ToolError, type MediaTools } from './tools.ts';

export interface PrepareMediaInput {
  orgId: number;
  network: NetworkId;
  /** The target's platform block: it may select a profile variant (a Reel, a Story, a Short). */
  block: Record<string, unknown> | undefined;
  containers: ContainerInput[];
}

/** The engine's hook: the containers an adapter publishes when the post asked for processMedia. */
export type PrepareMedia = (input: PrepareMediaInput) => Promise<ContainerInput[]>;

export interface RenditionDeps {
  db: Db;
  storage: MediaStorage;
  tools: MediaTools;
  /** Downloads a URL that is not Crier's own media, through the SSRF guard. */
  fetchMedia: MediaFetcher;
  publicBaseUrl: string;
  retentionDays: number;
  encodeConcurrency: number;
}

export function createVideoProcessor(config: Config, db: Db, fetchMedia: MediaFetcher): PrepareMedia {
  return prepareMediaWith({
    db,
    storage: mediaStorage(config),
    tools: mediaTools(config.media),
    fetchMedia,
    publicBaseUrl: config.publicBaseUrl,
    retentionDays: config.media.retentionDays,
    encodeConcurrency: config.media.encodeConcurrency,
  });
}

export function prepareMediaWith(deps: RenditionDeps): PrepareMedia {
  const encodes = semaphore(deps.encodeConcurrency);
  return async ({ orgId, network, block, containers }) => {
    const profile = videoProfileFor(network, block);
    if (!profile || !containers.some((c) => c.media.some(isVideo))) return containers;
    const out: ContainerInput[] = [];
    for (const container of containers) {
      const media: MediaInput[] = [];
      for (const item of container.media) media.push(isVideo(item) ? await conformVideo(deps, encodes, orgId, network, profile, item) : item);
      out.push({ ...container, media });
    }
    return out;
  };
}

interface Rendition {
  id: number;
  token: string;
  filename: string;
}

async function conformVideo(deps: RenditionDeps, encodes: Semaphore, orgId: number, network: NetworkId, profile: VideoProfile, media: MediaInput): Promise<MediaInput> {
  const source = await openSource(deps, orgId, media.url);
  try {
    const cached = await findRendition(deps.db, orgId, source.key, profile.id);
    if (cached) return asMedia(deps, cached, media);
    const info = await inspect(deps, network, media, source.path);
    const verdict = judge(profile, info);
    if (verdict.unfixable.length) throw new PublishError('permanent', `${network}: ${media.filename} ${verdict.unfixable.join('; ')}`);
    if (!verdict.fixable.length) return media; // already fine: published as supplied, nothing billed
    const rendition = await withRenditionLock(deps.db, orgId, source.key, profile.id, async () =>
      (await findRendition(deps.db, orgId, source.key, profile.id)) ??
      (await encodes(() => createRendition(deps, { orgId, network, profile, media, source, info }))),
    );
    return asMedia(deps, rendition, media);
  } finally {
    await source.release();
  }
}

function asMedia(deps: RenditionDeps, rendition: Rendition, original: MediaInput): MediaInput {
  const url = publicMediaUrl(deps.publicBaseUrl, rendition.token, rendition.filename);
  return { ...original, url, filename: rendition.filename };
}

async function inspect(deps: RenditionDeps, network: NetworkId, media: MediaInput, file: string): Promise<VideoInfo> {
  try {
    return await probeVideo(deps.tools, file);
  } catch (error) {
    if (error instanceof ProbeError) throw new PublishError('permanent', `${network}: ${media.filename} could not be read as a video (${error.message})`);
    throw error;
  }
}

// ---- the source ------------------------------------------------------------------------------

interface Source {
  /** 'media:<id>' for Crier's own media (its bytes never change once confirmed); else 'sha256:<hex>'. */
  key: string;
  url: string;
  mediaId: number | null;
  path: string;
  release(): Promise<void>;
}

/**
 * Crier's own media (a URL under PUBLIC_BASE_URL/media/ of this org) is read from storage; any other
 * URL is downloaded through the SSRF guard, like the adapters do, and keyed by its content: the same
 * URL may serve other bytes tomorrow.
 */
async function openSource(deps: RenditionDeps, orgId: number, url: string): Promise<Source> {
  const own = await findOwnMedia(deps, orgId, url);
  if (own) {
    const copy = await deps.storage.localCopy(own.storage_key);
    return { key: `media:${own.id}`, url, mediaId: own.id, path: copy.path, release: copy.release };
  }
  const { bytes } = await deps.fetchMedia(url);
  const file = await deps.storage.tempFile(path.extname(new URL(url).pathname).slice(0, 8));
  await writeFile(file, bytes);
  const key = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  return { key, url, mediaId: null, path: file, release: () => rm(file, { force: true }) };
}

async function findOwnMedia(deps: RenditionDeps, orgId: number, url: string): Promise<{ id: number; storage_key: string } | undefined> {
  const token = tokenOfPublicUrl(deps.publicBaseUrl, url);
  if (!token) return undefined;
  const { rows } = await deps.db.query<{ id: number; storage_key: string }>(
    "SELECT id, storage_key FROM media WHERE token = $1 AND org_id = $2 AND status = 'ready' AND expires_at > now()",
    [token, orgId],
  );
  return rows[0];
}

// ---- the rendition ---------------------------------------------------------------------------

/** A hit keeps the rendition at least a day longer: a network may fetch it by URL minutes from now. */
async function findRendition(db: Db, orgId: number, sourceKey: string, profile: string): Promise<Rendition | undefined> {
  const { rows } = await db.query<Rendition>(
    `UPDATE renditions SET expires_at = greatest(expires_at, now() + interval '1 day')
      WHERE org_id = $1 AND source_key = $2 AND profile = $3 RETURNING id, token, filename`,
    [orgId, sourceKey, profile],
  );
  return rows[0];
}

interface RenditionJob {
  orgId: number;
  network: NetworkId;
  profile: VideoProfile;
  media: MediaInput;
  source: Source;
  info: VideoInfo;
}

async function createRendition(deps: RenditionDeps, job: RenditionJob): Promise<Rendition> {
  const output = await deps.storage.tempFile('.mp4');
  try {
    await encode(deps, job, output);
    const result = await probeVideo(deps.tools, output);
    const left = judge(job.profile, result);
    if (left.fixable.length || left.unfixable.length) {
      throw new PublishError('permanent', `${job.network}: ${job.media.filename} could not be re-encoded within ${job.profile.label}'s limits (${[...left.unfixable, ...left.fixable].join('; ')})`);
    }
    const storageKey = `renditions/${job.orgId}/${newToken().toLowerCase()}.mp4`;
    const sha256 = await hashFile(output);
    await deps.storage.importFile(storageKey, output);
    try {
      return await recordRendition(deps, job, { storageKey, sha256, info: result });
    } catch (error) {
      await deps.storage.delete(storageKey);
      throw error;
    }
  } finally {
    await rm(output, { force: true });
  }
}

async function encode(deps: RenditionDeps, job: RenditionJob, output: string): Promise<void> {
  try {
    await encodeVideo(deps.tools, job.source.path, output, planRendition(job.profile, job.info), job.info.durationMs);
  } catch (error) {
    // A machine problem (disk, memory) may pass; the attempt budget bounds the retries.
    if (error instanceof ToolError) throw new PublishError('retryable', `${job.network}: re-encoding ${job.media.filename} failed: ${error.message}`);
    throw error;
  }
}

/** 10-second blocks of output, rounded up, at least one (spec: processMedia billing). */
export function billedBlocks(durationMs: number): number {
  return Math.max(1, Math.ceil(durationMs / 10_000));
}

/** The rendition and its usage record commit together: no rendition is ever free, none billed twice. */
async function recordRendition(deps: RenditionDeps, job: RenditionJob, made: { storageKey: string; sha256: Buffer; info: VideoInfo }): Promise<Rendition> {
  const filename = `${path.parse(job.media.filename).name || 'video'}.mp4`;
  const { info } = made;
  return withTransaction(deps.db, async (tx) => {
    const { rows } = await tx.query<Rendition>(
      `INSERT INTO renditions (org_id, source_key, source_url, media_id, profile, filename, token, storage_key, size, sha256, duration_ms, width, height, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now() + make_interval(days => $14))
       RETURNING id, token, filename`,
      [job.orgId, job.source.key, job.source.url, job.source.mediaId, job.profile.id, filename, newToken(), made.storageKey, info.sizeBytes, made.sha256,
        info.durationMs, info.video!.width, info.video!.height, deps.retentionDays],
    );
    const rendition = rows[0]!;
    await tx.query(
      `INSERT INTO usage_records (org_id, kind, rendition_id, profile, source_url, duration_ms, blocks)
       VALUES ($1, 'video_rendition', $2, $3, $4, $5, $6)`,
      [job.orgId, rendition.id, job.profile.id, job.source.url, info.durationMs, billedBlocks(info.durationMs)],
    );
    return rendition;
  });
}

async function hashFile(file: string): Promise<Buffer> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest();
}

// ---- coordination ----------------------------------------------------------------------------

const RENDITION_LOCK = 727_002;

/**
 * One encode per (org, source, profile) across every worker: two targets of a post on the same
 * network (or a retry racing a stuck attempt) wait for the first and reuse its rendition. The lock is
 * a session advisory lock on a connection of its own, so a crashed worker's lock dies with it.
 */
async function withRenditionLock<T>(db: Db, orgId: number, sourceKey: string, profile: string, work: () => Promise<T>): Promise<T> {
  const client = await db.connect();
  const name = `${orgId}|${sourceKey}|${profile}`;
  let healthy = true;
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [RENDITION_LOCK, name]);
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [RENDITION_LOCK, name]).catch(() => {
        healthy = false; // a connection we could not unlock on is thrown away, taking its lock along
      });
    }
  } finally {
    client.release(!healthy);
  }
}

type Semaphore = <T>(work: () => Promise<T>) => Promise<T>;

/** At most `limit` encodes at once in this process: each one already keeps every core busy. */
function semaphore(limit: number): Semaphore {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // a finishing encode hands over its slot
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
