// What the test handle shows of the emulator's state: copies, so tests cannot change it by accident.
import type { Clock } from '../shared/clock.ts';
import type { Mention } from './little.ts';
import { assetStatus, type Asset, type AssetKind, type AssetStatus, type LinkedInComment, type LinkedInPost, type PostContent, type UploadedPart } from './publishing.ts';

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
