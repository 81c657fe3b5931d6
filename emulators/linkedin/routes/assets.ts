// The Images, Documents and Videos APIs: initializeUpload hands out upload URLs on the emulator's own
// origin (PUT there, see uploads.ts), videos are finalized with the ETags of their parts, and GET
// reports the status, which moves WAITING_UPLOAD → PROCESSING → AVAILABLE | PROCESSING_FAILED.
import { randomBytes } from 'node:crypto';
import type { Reply } from '../../shared/http.ts';
import { isPlainObject, jsonBody } from '../../shared/http.ts';
import { accessDenied, illegalArgument, notFound, schemaErrors } from '../errors.ts';
import { assetStatus, sealAsset, type Asset, type AssetKind } from '../publishing.ts';
import { mayActAs, type LinkedInWorld } from '../state.ts';
import { restGuard, urnParam, writeScopeFor, type Caller, type Route } from './context.ts';

/** LinkedIn's video part size: every part but the last is exactly 4 MiB. */
export const VIDEO_PART_BYTES = 4 * 1024 * 1024;
/** The largest video the Videos API takes (learn.microsoft.com …/videos-api: up to 500 MB). */
export const MAX_VIDEO_BYTES = 500 * 1024 * 1024;
const URL_LIFETIME_MS = 24 * 3600 * 1000;

export function assetRoutes(world: LinkedInWorld): Route[] {
  const rest = restGuard(world);
  const { publishing } = world;
  const uploadUrl = (asset: Asset, part: number | 'thumbnail' | 'captions') => `${world.origin}/dms-uploads/${asset.kind}/${encodeURIComponent(asset.urn)}/${part}`;

  /** The owner of an initializeUpload request, checked like a post author; or the refusal. */
  const readOwner = (caller: Caller, body: unknown, resource: string): { owner: string; request: Record<string, unknown> } | Reply => {
    const parsed = jsonBody(body);
    const request = isPlainObject(parsed) ? parsed.initializeUploadRequest : undefined;
    if (!isPlainObject(request)) return schemaErrors(['/initializeUploadRequest :: field is required but not found and has no default value']);
    const owner = request.owner;
    if (typeof owner !== 'string') return schemaErrors([owner === undefined ? '/initializeUploadRequest/owner :: field is required but not found and has no default value' : `/initializeUploadRequest/owner :: ${JSON.stringify(owner)} cannot be coerced to Urn`]);
    if (!caller.scopes.includes(writeScopeFor(owner)) || !mayActAs(world, caller.sub, owner)) return accessDenied(resource);
    return { owner, request };
  };

  const initializeSingle = (kind: 'image' | 'document') => rest(`${kind}s.ACTION-initializeUpload`, [], (caller, { body, query }) => {
    if (query.action !== 'initializeUpload') return illegalArgument(`Unsupported action: ${query.action ?? '(missing)'}`);
    const read = readOwner(caller, body, `${kind}s.ACTION-initializeUpload`);
    if ('status' in read) return read;
    const asset = publishing.newAsset(kind, read.owner, null);
    return { status: 200, body: { value: { uploadUrlExpiresAt: world.clock.now() + URL_LIFETIME_MS, uploadUrl: uploadUrl(asset, 0), [kind]: asset.urn } } };
  });

  const initializeVideo = rest('videos.ACTION-initializeUpload', [], (caller, { body }) => {
    const read = readOwner(caller, body, 'videos.ACTION-initializeUpload');
    if ('status' in read) return read;
    const size = read.request.fileSizeBytes;
    if (size === undefined) return schemaErrors(['/initializeUploadRequest/fileSizeBytes :: field is required but not found and has no default value']);
    if (!Number.isInteger(size) || (size as number) < 1) return schemaErrors([`/initializeUploadRequest/fileSizeBytes :: ${JSON.stringify(size)} cannot be coerced to Long`]);
    if ((size as number) > MAX_VIDEO_BYTES) return illegalArgument(`fileSizeBytes ${size} exceeds the maximum of ${MAX_VIDEO_BYTES} bytes`);
    const asset = publishing.newAsset('video', read.owner, size as number);
    const parts = Math.ceil((size as number) / VIDEO_PART_BYTES);
    // A single-part upload gets an empty uploadToken, which finalizeUpload echoes.
    asset.uploadToken = parts > 1 ? randomBytes(24).toString('base64url') : '';
    const instructions = Array.from({ length: parts }, (_, i) => ({
      uploadUrl: uploadUrl(asset, i),
      firstByte: i * VIDEO_PART_BYTES,
      lastByte: Math.min((i + 1) * VIDEO_PART_BYTES, size as number) - 1,
    }));
    return {
      status: 200,
      body: {
        value: {
          uploadUrlsExpireAt: world.clock.now() + URL_LIFETIME_MS,
          video: asset.urn,
          uploadInstructions: instructions,
          uploadToken: asset.uploadToken,
          ...(read.request.uploadThumbnail === true ? { thumbnailUploadUrl: uploadUrl(asset, 'thumbnail') } : {}),
          ...(read.request.uploadCaptions === true ? { captionsUploadUrl: uploadUrl(asset, 'captions') } : {}),
        },
      },
    };
  });

  const finalizeVideo = rest('videos.ACTION-finalizeUpload', [], (caller, { body }) => {
    const parsed = jsonBody(body);
    const request = isPlainObject(parsed) ? parsed.finalizeUploadRequest : undefined;
    if (!isPlainObject(request)) return schemaErrors(['/finalizeUploadRequest :: field is required but not found and has no default value']);
    const missing = ['video', 'uploadToken', 'uploadedPartIds'].filter((name) => request[name] === undefined);
    if (missing.length) return schemaErrors(missing.map((name) => `/finalizeUploadRequest/${name} :: field is required but not found and has no default value`));
    const asset = publishing.assets.get(String(request.video));
    if (!asset || asset.kind !== 'video') return notFound(`Video ${String(request.video)} does not exist`);
    if (!caller.scopes.includes(writeScopeFor(asset.owner)) || !mayActAs(world, caller.sub, asset.owner)) return accessDenied('videos.ACTION-finalizeUpload');
    if (asset.finalized) return { status: 200 };
    if (request.uploadToken !== asset.uploadToken) return illegalArgument('Invalid uploadToken for this video');
    const expected = Math.ceil((asset.declaredSize ?? 0) / VIDEO_PART_BYTES);
    const ids = Array.isArray(request.uploadedPartIds) ? request.uploadedPartIds : [];
    const etags = asset.parts.map((p) => p.etag);
    if (asset.parts.length !== expected) return illegalArgument(`Upload incomplete: ${asset.parts.length} of ${expected} parts received`);
    if (ids.length !== expected || ids.some((id, i) => id !== etags[i])) return illegalArgument('uploadedPartIds do not match the uploaded parts (ETags, in upload-instruction order)');
    startVideoProcessing(world, asset);
    return { status: 200 };
  });

  const getAsset = (kind: AssetKind) => rest(`${kind}s.GET`, [], (caller, { params }) => {
    const urn = urnParam(params.urn);
    const asset = publishing.assets.get(urn);
    if (!asset || asset.kind !== kind) return notFound(`${kind} ${urn} does not exist`);
    if (!mayActAs(world, caller.sub, asset.owner)) return accessDenied(`${kind}s.GET`);
    return { status: 200, body: assetResource(asset, world.clock.now()) };
  });

  return [
    { method: 'POST', url: '/rest/images', handler: initializeSingle('image') },
    { method: 'POST', url: '/rest/documents', handler: initializeSingle('document') },
    {
      method: 'POST',
      url: '/rest/videos',
      handler: (input) => {
        if (input.query.action === 'initializeUpload') return initializeVideo(input);
        if (input.query.action === 'finalizeUpload') return finalizeVideo(input);
        return illegalArgument(`Unsupported action: ${input.query.action ?? '(missing)'}`);
      },
    },
    { method: 'GET', url: '/rest/images/:urn', handler: getAsset('image') },
    { method: 'GET', url: '/rest/documents/:urn', handler: getAsset('document') },
    { method: 'GET', url: '/rest/videos/:urn', handler: getAsset('video') },
  ];
}

/** Finalize: the whole-file hash closes and processing starts, as the test controls set it. */
function startVideoProcessing(world: LinkedInWorld, asset: Asset): void {
  const controls = world.processing;
  asset.finalized = true;
  sealAsset(asset, asset.parts.length);
  asset.processingSince = world.clock.now();
  asset.processingMs = controls.stickNextVideo ? Infinity : (controls.perVideoMs.get(asset.urn) ?? controls.videoMs);
  const isVideo = asset.mime === 'video/mp4' || asset.mime === 'video/quicktime';
  const reason = controls.failNextVideo ?? (isVideo ? null : 'Unsupported video format');
  asset.outcome = reason === null ? { status: 'AVAILABLE' } : { status: 'PROCESSING_FAILED', reason };
  controls.stickNextVideo = false;
  controls.failNextVideo = null;
}

/** An asset as GET /rest/{images|documents|videos}/{urn} answers it. */
function assetResource(asset: Asset, now: number) {
  const status = assetStatus(asset, now);
  const available = status === 'AVAILABLE';
  const download = available ? { downloadUrl: `https://media.licdn.com/dms/${asset.kind}/${encodeURIComponent(asset.urn)}`, downloadUrlExpiresAt: now + URL_LIFETIME_MS } : {};
  return {
    id: asset.urn,
    owner: asset.owner,
    status,
    ...download,
    ...(asset.kind === 'video' && status === 'PROCESSING_FAILED' && asset.outcome.status === 'PROCESSING_FAILED' ? { processingFailureReason: asset.outcome.reason } : {}),
    ...(asset.kind === 'video' && available ? { aspectRatioWidth: 16, aspectRatioHeight: 9 } : {}),
  };
}
