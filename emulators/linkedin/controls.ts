// The LinkedIn emulator's test handle beyond the API: what was posted, uploaded and called (read-only
// views: copies, so tests cannot change the state by accident), and the knobs for processing, quotas,
// duplicates and engagement.
import type { Clock } from '../shared/clock.ts';
import type { Mention } from './little.ts';
import { assetStatus, type Asset, type AssetKind, type AssetStatus, type LinkedInComment, type LinkedInPost, type PostContent, type PostStats, type UploadedPart } from './publishing.ts';
import { addComment } from './routes/comments.ts';
import type { DailyQuota } from './quota.ts';
import type { LinkedInWorld } from './state.ts';

export interface LinkedInPostView {
  urn: string;
  /** The activity URN comments on the post are built on. */
  activityUrn: string;
  author: string;
  /** The commentary LinkedIn kept (cut at the first unescaped reserved character). */
  commentary: string;
  /** The commentary exactly as sent. */
  commentarySent: string;
  /** True when LinkedIn cut the commentary short. */
  truncated: boolean;
  mentions: Mention[];
  visibility: string;
  lifecycleState: string;
  content?: PostContent;
  createdAt: number;
  deleted: boolean;
  /** The POST body as received. */
  request: Record<string, unknown>;
}

export interface LinkedInCommentView {
  urn: string;
  id: string;
  postUrn: string;
  actor: string;
  text: string;
  parentComment?: string;
  createdAt: number;
  likes: number;
}

export interface LinkedInAssetView {
  urn: string;
  kind: AssetKind;
  owner: string;
  status: AssetStatus;
  /** Videos: fileSizeBytes given at initializeUpload; null for images and documents. */
  declaredSize: number | null;
  /** Bytes received. */
  size: number;
  /** SHA-256 (hex) of the whole file, once every part is in (videos: after finalize). */
  sha256: string | null;
  /** What the first bytes say the file is. */
  mime: string | null;
  /** Each byte range received, with how many times it was PUT. */
  parts: UploadedPart[];
  finalized: boolean;
  processingFailureReason?: string;
  thumbnail?: { size: number; sha256: string };
  captions?: { size: number; sha256: string };
}

export interface LinkedInCall {
  method: string;
  /** The path with URL-encoding undone (URNs readable). */
  path: string;
  /** The last value of each query parameter. */
  query: Record<string, string>;
  /** Every value of each query parameter, in order: a repeated one keeps them all. */
  queryAll: Record<string, string[]>;
  status: number;
  /** Emulator clock, ms. */
  at: number;
}

export function postView(post: LinkedInPost): LinkedInPostView {
  return structuredClone({
    urn: post.urn,
    activityUrn: post.activityUrn,
    author: post.author,
    commentary: post.commentary,
    commentarySent: post.commentarySent,
    truncated: post.commentary !== post.commentarySent,
    mentions: post.mentions,
    visibility: post.visibility,
    lifecycleState: post.lifecycleState,
    ...(post.content ? { content: post.content } : {}),
    createdAt: post.createdAt,
    deleted: post.deleted,
    request: post.request,
  });
}

export function commentView(c: LinkedInComment): LinkedInCommentView {
  return { urn: c.urn, id: c.id, postUrn: c.postUrn, actor: c.actor, text: c.text, ...(c.parentComment ? { parentComment: c.parentComment } : {}), createdAt: c.createdAt, likes: c.likes };
}

export function assetView(a: Asset, now: number): LinkedInAssetView {
  const status = assetStatus(a, now);
  return {
    urn: a.urn,
    kind: a.kind,
    owner: a.owner,
    status,
    declaredSize: a.declaredSize,
    size: a.size,
    sha256: a.sha256,
    mime: a.mime,
    parts: a.parts.map((p) => ({ ...p })),
    finalized: a.finalized,
    ...(status === 'PROCESSING_FAILED' && a.outcome.status === 'PROCESSING_FAILED' ? { processingFailureReason: a.outcome.reason } : {}),
    ...(a.extras.thumbnail ? { thumbnail: { ...a.extras.thumbnail } } : {}),
    ...(a.extras.captions ? { captions: { ...a.extras.captions } } : {}),
  };
}

export type CallLog = ReturnType<typeof callLog>;

/** The request log behind calls(). */
export function callLog(clock: Clock) {
  const entries: LinkedInCall[] = [];
  return {
    record(method: string, url: string, status: number) {
      const [rawPath, search = ''] = url.split('?');
      let path = rawPath!;
      try {
        path = decodeURIComponent(path);
      } catch {
        // Not valid percent-encoding: keep it as sent.
      }
      const params = new URLSearchParams(search);
      const queryAll: Record<string, string[]> = {};
      for (const [name, value] of params) (queryAll[name] ??= []).push(value);
      entries.push({ method, path, query: Object.fromEntries(params), queryAll, status, at: clock.now() });
    },
    list: (): LinkedInCall[] => entries.map((e) => ({ ...e, query: { ...e.query }, queryAll: structuredClone(e.queryAll) })),
  };
}


export interface PublishingControls {
  /** Every post created, in creation order (deleted ones flagged), with the mentions parsed from its commentary. */
  posts(): LinkedInPostView[];
  /** The comments made on a post (share or activity URN), in creation order. */
  comments(postUrn: string): LinkedInCommentView[];
  images(): LinkedInAssetView[];
  videos(): LinkedInAssetView[];
  documents(): LinkedInAssetView[];
  /** Every request received, in order (URNs in paths decoded), with the status answered. */
  calls(): LinkedInCall[];
  /**
   * How long video processing takes after finalizeUpload: the default for videos finalized from now
   * on, or, with `urn`, that video's (counted from its finalize). Default 0: AVAILABLE at once.
   */
  setVideoProcessing(opts: { ms: number; urn?: string }): void;
  /** How long image / document processing takes after the PUT (default 0). */
  setImageProcessing(opts: { ms: number }): void;
  setDocumentProcessing(opts: { ms: number }): void;
  /** The next video finalized stays PROCESSING until releaseVideo(urn). */
  stickNextVideo(): void;
  /** Ends a video's processing now (with its outcome: AVAILABLE, or PROCESSING_FAILED if armed). */
  releaseVideo(urn: string): void;
  /** The next video finalized ends PROCESSING_FAILED with this processingFailureReason. */
  failNextVideo(reason?: string): void;
  /** Daily quota of one endpoint ('POST /rest/posts', 'GET /rest/posts/:urn', …) or, with '*', of every endpoint. */
  setDailyQuota(endpoint: string, quota: Partial<DailyQuota>): void;
  /** The duplicate-commentary window (ms). */
  setDuplicateWindow(ms: number): void;
  /**
   * A comment by anyone (another member's or organization's URN as `actor`) on a post (share or
   * activity URN), or, with a comment URN as `on`, an answer to that comment.
   */
  addComment(input: { on: string; actor: string; text: string; likes?: number }): LinkedInCommentView;
  /** Sets a post's counters (impressions, clicks, reactions, reshares…) as LinkedIn's statistics report them. */
  setPostStatistics(postUrn: string, stats: Partial<PostStats>): void;
  /** Sets how many members follow an organization. */
  setFollowers(organizationId: number, followers: number): void;
}

export function publishingControls(world: LinkedInWorld, calls: CallLog): PublishingControls {
  const assetsOf = (kind: AssetKind) => [...world.publishing.assets.values()].filter((a) => a.kind === kind).map((a) => assetView(a, world.clock.now()));
  return {
    posts: () => world.publishing.posts.map(postView),
    comments: (postUrn) => {
      const post = world.publishing.posts.find((p) => p.urn === postUrn || p.activityUrn === postUrn);
      return world.publishing.comments.filter((c) => c.postUrn === post?.urn).map(commentView);
    },
    images: () => assetsOf('image'),
    videos: () => assetsOf('video'),
    documents: () => assetsOf('document'),
    calls: () => calls.list(),
    setVideoProcessing: ({ ms, urn }) => {
      if (urn === undefined) return void (world.processing.videoMs = ms);
      const video = world.publishing.assets.get(urn);
      if (!video || video.kind !== 'video') throw new Error(`no LinkedIn video ${urn}`);
      world.processing.perVideoMs.set(urn, ms);
      if (video.finalized) video.processingMs = ms;
    },
    setImageProcessing: ({ ms }) => void (world.processing.imageMs = ms),
    setDocumentProcessing: ({ ms }) => void (world.processing.documentMs = ms),
    stickNextVideo: () => void (world.processing.stickNextVideo = true),
    releaseVideo: (urn) => {
      const video = world.publishing.assets.get(urn);
      if (!video?.processingSince) throw new Error(`LinkedIn video ${urn} is not processing`);
      video.processingMs = world.clock.now() - video.processingSince;
    },
    failNextVideo: (reason = 'Video processing failed') => void (world.processing.failNextVideo = reason),
    setDailyQuota: (endpoint, quota) => world.quotas.set(endpoint, quota),
    setDuplicateWindow: (ms) => void (world.duplicateWindowMs = ms),
    addComment: ({ on, actor, text, likes }) => {
      const parent = on.startsWith('urn:li:comment:') ? world.publishing.findComment(on) : undefined;
      const post = parent?.post ?? world.publishing.findPost(on);
      if (!post) throw new Error(`no LinkedIn post or comment ${on}`);
      return commentView(addComment(world, post, { actor, text, likes, parentComment: parent?.comment.urn }));
    },
    setPostStatistics: (postUrn, stats) => {
      const post = world.publishing.posts.find((p) => p.urn === postUrn || p.activityUrn === postUrn);
      if (!post) throw new Error(`no LinkedIn post ${postUrn}`);
      Object.assign(post.stats, stats);
    },
    setFollowers: (organizationId, followers) => {
      const org = world.organizations.get(organizationId);
      if (!org) throw new Error(`no LinkedIn organization ${organizationId}`);
      org.followers = followers;
    },
  };
}
