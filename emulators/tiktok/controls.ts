// What tests may do beyond the API on the Content Posting side: read what the emulator received
// (inits with their bodies, chunks in order, status fetches, creator info calls) and what became of
// each publish, and turn the switches that make TikTok answer otherwise (a creator's settings,
// verified prefixes, caps, failures).
import type { RateLimits } from './routes/publish.ts';
import type { ChunkStall, CreatorSettings, InitCall, PhotoPull, Publish, Publishing, ReceivedChunk, VideoPull } from './publishing.ts';
import type { TikTokWorld } from './state.ts';

/** A publish as tests read it: its state (publishing.ts Publish) without the emulator's bookkeeping. */
export interface PublishView extends Pick<Publish, 'publishId' | 'openId' | 'kind' | 'mode' | 'postInfo' | 'status' | 'failReason' | 'postId'> {
  /** A video: the size and chunking declared at init, the bytes received whole, their SHA-256 once complete. */
  video?: { size: number; chunkSize: number; chunkCount: number; receivedBytes: number; sha256: string | null };
  /** A PULL_FROM_URL video: its URL, the download's state, the bytes downloaded and their SHA-256. */
  pulledVideo?: VideoPull;
  photos?: PhotoPull[];
}

export interface TikTokInspector {
  /** Every init call (video, inbox video, photo) with its body and TikTok's answer code, in order. */
  inits(path?: string): InitCall[];
  /** Chunks received whole, in order (of one publish, or all). */
  chunks(publishId?: string): ReceivedChunk[];
  statusPolls(publishId?: string): { publishId: string; status: string; at: number }[];
  creatorInfoCalls(): { openId: string; at: number }[];
  publishes(): PublishView[];
  /** Creators who direct-posted in the emulator's last 24 hours. */
  activeCreators(): string[];
  /** The next publish whose content arrives ends FAILED with this fail_reason. */
  failNextPublish(failReason: string): void;
  setCreator(openId: string, settings: Partial<CreatorSettings>): void;
  setVerifiedPrefixes(prefixes: string[]): void;
  /** Certificate authorities trusted when downloading photos and pulled videos (a test's local HTTPS host). */
  trustCa(ca: string): void;
  setCreatorCap(cap: number): void;
  setCreatorDailyPosts(max: number): void;
  /** Inbox drafts a creator may have pending in 24 hours (TikTok's 5; 0 turns the check off). */
  setPendingShareCap(cap: number): void;
  /** The next public post gets this id (an int64's decimal digits), e.g. one a JS number would round. */
  nextPostId(id: string): void;
  setUnaudited(unaudited: boolean): void;
  setProcessingPolls(polls: number): void;
  setRateLimits(limits: Partial<RateLimits>): void;
  /** The next PUT of chunk `index` hangs `ms` (its sender killed meanwhile), its body unread or received whole. */
  stallChunk(stall: ChunkStall): void;
  /** Chunk indexes whose PUT is hanging now. */
  stalledChunks(): number[];
}

export class TikTokInspection {
  readonly #publishing: Publishing;
  readonly #world: TikTokWorld;

  constructor(publishing: Publishing, world: TikTokWorld) {
    this.#publishing = publishing;
    this.#world = world;
  }

  handle(): TikTokInspector {
    const p = this.#publishing;
    const world = this.#world;
    return {
      inits: (path) => structuredClone(p.inits.filter((c) => path === undefined || c.path === path)),
      chunks: (publishId) => p.chunks.filter((c) => publishId === undefined || c.publishId === publishId).map((c) => ({ ...c })),
      statusPolls: (publishId) => p.statusPolls.filter((s) => publishId === undefined || s.publishId === publishId).map((s) => ({ ...s })),
      creatorInfoCalls: () => p.creatorInfoCalls.map((c) => ({ ...c })),
      publishes: () => [...p.publishes.values()].map((pub): PublishView => ({
        publishId: pub.publishId, openId: pub.openId, kind: pub.kind, mode: pub.mode, postInfo: structuredClone(pub.postInfo),
        status: pub.status, failReason: pub.failReason, postId: pub.postId,
        ...(pub.upload ? { video: { size: pub.upload.videoSize, chunkSize: pub.upload.chunkSize, chunkCount: pub.upload.totalChunkCount, receivedBytes: pub.upload.received, sha256: pub.upload.sha256 } } : {}),
        ...(pub.pulledVideo ? { pulledVideo: { ...pub.pulledVideo } } : {}),
        ...(pub.photos ? { photos: pub.photos.map((ph) => ({ ...ph })) } : {}),
      })),
      activeCreators: () => [...p.activeCreators()],
      failNextPublish: (failReason) => void p.failures.push(failReason),
      setCreator: (openId, settings) => {
        const user = world.users.get(openId);
        if (!user) throw new Error(`no TikTok user ${openId}`);
        user.creator = { ...user.creator, ...settings };
      },
      setVerifiedPrefixes: (prefixes) => void (p.verifiedPrefixes = [...prefixes]),
      trustCa: (ca) => void p.trustedCa.push(ca),
      setCreatorCap: (cap) => void (p.creatorCap = cap),
      setCreatorDailyPosts: (max) => void (p.creatorDailyPosts = max),
      setPendingShareCap: (cap) => void (p.pendingShareCap = cap),
      nextPostId: (id) => {
        if (!/^[1-9]\d{0,18}$/.test(id) || BigInt(id) > 2n ** 63n - 1n) throw new Error(`${id} is not a positive int64`);
        p.nextPostIds.push(id);
      },
      setUnaudited: (unaudited) => void (p.unaudited = unaudited),
      setProcessingPolls: (polls) => void (p.processingPolls = polls),
      setRateLimits: (limits) => void Object.assign(world.rateLimits, limits),
      stallChunk: (stall) => void (p.stall = { ...stall }),
      stalledChunks: () => [...p.stalled],
    };
  }
}
