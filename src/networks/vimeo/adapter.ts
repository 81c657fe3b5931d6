// Publishing to Vimeo as the connected member: the root container is a video uploaded by tus
// (uploads.ts), named and described from the vimeo block (`title`; `description`, else the block's
// `content`, else the container's text) with the block's privacy; every later container is a comment
// on it, in order. The post's URL is the video's `link`.
//
// Never a second video: the checkpoint naming the created video is stored before its first byte, and
// every step after it resumes that video. The one gap — a worker killed between Vimeo's answer to the
// creation and that checkpoint — is closed by reconcile, which looks among the member's newest videos
// for one of this name and size created since the reservation, and hands it to publishPart to resume.
import { PublishError } from '../../core/errors.ts';
import { reconcileErrors } from '../errors.ts';
import type { MediaSource, NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import type { PartRef } from '../../core/post.ts';
import { videoNameOf } from './shape.ts';
import { idOf, VimeoClient, type ListedVideo } from './client.ts';
import type { VimeoBlock } from './options.ts';
import { checkShape } from './shape.ts';
import { startUpload, startedUpload, uploadedVideo, type UploadTiming, type VideoCheckpoint } from './uploads.ts';

const { cannotTell, orUnknown } = reconcileErrors('vimeo', 'the account\'s videos');

/** Our clock against Vimeo's: a search starts this much before the reservation. */
const CLOCK_MARGIN_MS = 5 * 60_000;
const PAGE = 50;
/** Pages of videos or comments a reconcile reads before saying it cannot tell. */
const MAX_PAGES = 10;

export interface VimeoAdapterOptions extends Partial<UploadTiming> {
  apiUrl: string;
}

export function createVimeoAdapter(options: VimeoAdapterOptions): NetworkAdapter {
  // 16 MiB chunks: a crash re-sends at most that; transcodes are asked about after 1 s, 2 s, 4 s... then every minute.
  const timing: UploadTiming = {
    chunkBytes: options.chunkBytes ?? 16 * 1024 * 1024,
    pollMs: options.pollMs ?? 1000,
    maxPollMs: options.maxPollMs ?? 60_000,
    maxTranscodeMs: options.maxTranscodeMs ?? 6 * 3600_000,
  };
  return {
    network: 'vimeo',
    async prepare(input) {
      if (!input.account.accessToken) throw new PublishError('auth', 'vimeo: the account has no access token; reconnect it');
      checkShape(input);
      return preparedFor(new VimeoClient(options.apiUrl, input.account.accessToken), input, timing);
    },
  };
}

function preparedFor(client: VimeoClient, input: PublishInput, timing: UploadTiming): PreparedPublish {
  const block = (input.block ?? {}) as VimeoBlock;
  const root = input.containers[0]!;
  const video = root.media[0]!;
  const name = videoNameOf(block, video.filename);
  const me = `/users/${input.account.networkUniqueId}`;
  const since = (reservation: Record<string, unknown>) => Date.parse(String(reservation.startedAt)) - CLOCK_MARGIN_MS;
  /** A video reconcile found created by an earlier attempt that died before storing it. */
  let found: ListedVideo | undefined;
  let opened: MediaSource | undefined;
  const source = async () => (opened ??= await openVideo(input, video.url, video.filename));

  const stored = (): VideoCheckpoint | undefined => {
    const cp = input.checkpoint as VideoCheckpoint | undefined;
    return cp?.position === 0 && typeof cp.video === 'string' ? { ...cp } : undefined;
  };

  async function publishRoot(): Promise<PartRef> {
    const cp = stored();
    if (!cp && found?.uploadLink) throw startedUpload({ uri: found.uri, uploadLink: found.uploadLink }, (await source()).size);
    if (!cp) return startUpload(client, await source(), video.filename, metadata(block, root.content, name));
    const done = await uploadedVideo(client, source, cp, timing);
    return { platformId: idOf(done.uri), url: done.link, ref: { uri: done.uri } };
  }

  /** The member's newest video of this name and size, created since `from`; undefined when there is none. */
  async function findVideo(from: number): Promise<ListedVideo | undefined> {
    const size = (await orUnknown(0, source)).size;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { items, hasNext } = await orUnknown(0, () => client.myVideos(page, PAGE));
      // A time Vimeo did not give (NaN) does not rule a candidate out.
      const match = items.find((v) => v.name === name && v.size === size && !(v.createdTime < from));
      if (match) return match;
      if (!hasNext || items.some((v) => v.createdTime < from)) return undefined;
    }
    throw cannotTell(0, `the account has uploaded more than ${MAX_PAGES * PAGE} videos since`);
  }

  async function findComment(position: number, rootRef: PartRef, from: number): Promise<PartRef | undefined> {
    const text = input.containers[position]!.content;
    const videoUri = String(rootRef.ref?.uri ?? `/videos/${rootRef.platformId}`);
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { items, hasNext } = await orUnknown(position, () => client.comments(videoUri, page, PAGE));
      const match = items.find((c) => c.userUri === me && c.text === text && !(c.createdOn < from));
      if (match) return commentRef(rootRef, match.uri);
      if (!hasNext || items.some((c) => c.createdOn < from)) return undefined;
    }
    throw cannotTell(position, `the video has more than ${MAX_PAGES * PAGE} comments since`);
  }

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, rootRef) {
      if (position === 0) return publishRoot();
      const videoUri = String(rootRef!.ref?.uri ?? `/videos/${rootRef!.platformId}`);
      return commentRef(rootRef!, await client.comment(videoUri, input.containers[position]!.content));
    },
    async reconcile(position, reservation, rootRef) {
      if (position > 0) return (await findComment(position, rootRef!, since(reservation))) ?? 'absent';
      const cp = stored();
      if (cp) {
        // The video exists and the checkpoint resumes it: published only once Vimeo has transcoded it.
        const status = await orUnknown(0, () => client.videoStatus(cp.video));
        return status.transcode === 'complete' ? { platformId: idOf(status.uri), url: status.link, ref: { uri: status.uri } } : 'absent';
      }
      found = await findVideo(since(reservation));
      if (found && !found.uploadLink) throw cannotTell(0, `${found.uri} looks like ours but Vimeo did not give its upload link`);
      // Absent or not, publishPart carries on: with the video found, it resumes that one.
      return 'absent';
    },
  };
}

/** POST /me/videos's metadata: the spec's precedence for the description, the block's privacy. */
function metadata(block: VimeoBlock, content: string, name: string): Record<string, unknown> {
  const description = block.description ?? block.content ?? content;
  const privacy = { ...(block.privacyView ? { view: block.privacyView } : {}), ...(block.privacyEmbed ? { embed: block.privacyEmbed } : {}) };
  return { name, ...(description ? { description } : {}), ...(Object.keys(privacy).length ? { privacy } : {}) };
}

function commentRef(rootRef: PartRef, uri: string): PartRef {
  return { platformId: idOf(uri), url: `${rootRef.url}#comment_${idOf(uri)}`, ref: { uri } };
}

/** The root's file, which Vimeo must be able to take as a video. */
async function openVideo(input: PublishInput, url: string, filename: string): Promise<MediaSource> {
  const source = await input.openMedia(url);
  if (!source.contentType.startsWith('video/') && source.contentType !== 'application/octet-stream') {
    throw new PublishError('permanent', `vimeo: ${filename} is ${source.contentType}; Vimeo takes a video file`, undefined, 'media_rejected');
  }
  return source;
}
