// The publishing half of the LinkedIn emulator's test handle: what was posted, uploaded and called,
// and the knobs for processing, quotas and duplicates.
import { assetView, commentView, postView, type CallLog, type LinkedInAssetView, type LinkedInCall, type LinkedInCommentView, type LinkedInPostView } from './inspect.ts';
import type { AssetKind, PostStats } from './publishing.ts';
import { addComment } from './routes/comments.ts';
import type { DailyQuota } from './quota.ts';
import type { LinkedInWorld } from './world.ts';

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
