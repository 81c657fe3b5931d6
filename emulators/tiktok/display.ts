// The Display API's videos (the routes are in routes/display.ts): a creator's public videos — those a
// test adds, every direct post that completed with a public id, and inbox drafts the creator finished
// in the app (`postFromInbox`: a new id Crier never learns).
import { newInt64Id, type Publish, type Publishing } from './publishing.ts';
import type { TikTokWorld } from './state.ts';

/** A public video as the Display API's Video Object describes it. */
export interface DisplayVideo {
  id: string;
  openId: string;
  /** Milliseconds (create_time answers seconds; the cursor is in milliseconds). */
  createdAtMs: number;
  title: string;
  videoDescription: string;
  duration: number;
  width: number;
  height: number;
  likeCount: number;
  commentCount: number;
  shareCount: number;
  viewCount: number;
  /** The publish it came from, when Crier's post became it. */
  publishId: string | null;
}

export type AddVideoInput = Partial<Omit<DisplayVideo, 'openId'>>;

export class DisplayVideos {
  readonly #videos: DisplayVideo[] = [];
  readonly #publishing: Publishing;
  readonly #world: TikTokWorld;

  constructor(publishing: Publishing, world: TikTokWorld) {
    this.#publishing = publishing;
    this.#world = world;
  }

  add(openId: string, input: AddVideoInput = {}): DisplayVideo {
    const video: DisplayVideo = {
      id: input.id ?? newVideoId(), openId, createdAtMs: input.createdAtMs ?? this.#world.clock.now(),
      title: input.title ?? '', videoDescription: input.videoDescription ?? '', duration: input.duration ?? 15, width: input.width ?? 1080,
      height: input.height ?? 1920, likeCount: input.likeCount ?? 0, commentCount: input.commentCount ?? 0, shareCount: input.shareCount ?? 0,
      viewCount: input.viewCount ?? 0, publishId: input.publishId ?? null,
    };
    this.#videos.push(video);
    return video;
  }

  /** The creator's public videos, newest first (direct posts that got a public id included). */
  of(openId: string): DisplayVideo[] {
    for (const publish of this.#publishing.publishes.values()) this.#adopt(publish);
    return this.#videos.filter((v) => v.openId === openId).sort((a, b) => b.createdAtMs - a.createdAtMs);
  }

  find(id: string): DisplayVideo | undefined {
    this.of('');
    return this.#videos.find((v) => v.id === id);
  }

  /** The creator posts an inbox draft from the app: a public video under a new id. */
  postFromInbox(publishId: string): DisplayVideo {
    const publish = this.#publishing.publishes.get(publishId);
    if (!publish || publish.status !== 'SEND_TO_USER_INBOX') throw new Error(`${publishId} is not a draft in a creator's inbox`);
    publish.leftInbox = true;
    return this.add(publish.openId, { publishId, title: String(publish.postInfo.title ?? ''), videoDescription: String(publish.postInfo.description ?? publish.postInfo.title ?? '') });
  }

  #adopt(publish: Publish): void {
    if (!publish.postId || this.#videos.some((v) => v.id === publish.postId)) return;
    const title = String(publish.postInfo.title ?? '');
    this.add(publish.openId, { id: publish.postId, publishId: publish.publishId, title, videoDescription: title, createdAtMs: publish.createdAt });
  }
}

/** The Video Object's `id` is a string (of an int64's digits), unlike the status fetch's post ids. */
const newVideoId = () => newInt64Id(74n);
