// Publishing to Pinterest (API v5) as the connected account: the root container becomes a pin on the
// block's board — one image, two to five images (a carousel), or one video — with the block's title
// (default: the first 100 characters of the description), the description (pinterest.content, else the
// root's text), link and alt text. Images go by URL or as base64 (uploads.ts says when); a video is
// registered, uploaded, processed, and only then is the pin created with its cover (the other order
// gives corrupt video pins). Pinterest has no replies, and API v5 has no comment endpoint for apps
// (no comment path in pinterest/api-description v5): later containers are not published, and the
// destination says so (a note on the root). Pinterest has no client-chosen ids, so after a crash a pin
// is looked for among the board's pins (same title and description, created since the reservation).
import { checkFetchableByNetwork } from '../public-url.ts';
import { PublishError, PublishWait } from '../../core/errors.ts';
import { reconcileErrors } from '../errors.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import type { PartRef } from '../../core/post.ts';
import { pinUrl, PinterestClient, type PinterestPin } from './client.ts';
import { descriptionOf, titleOf, type PinterestBlock } from './options.ts';
import { judge } from './shape.ts';
import { isVideo } from '../media-kind.ts';
import { coverFields, imageSource, processedVideo, type ByUrl, type PinCheckpoint, type VideoTiming } from './uploads.ts';

const { cannotTell, orUnknown } = reconcileErrors('pinterest', 'the board on Pinterest');

/** Our clock against Pinterest's: a search for a pin starts this much before its reservation. */
const CLOCK_MARGIN_MS = 5 * 60_000;
/**
 * How many of the board's pins a search reads at most before saying it cannot tell. The order of
 * GET /v5/boards/{id}/pins is not documented, so a search cannot stop at the first older pin: it reads
 * the board (Pinterest's largest pages: 10 calls at most).
 */
const SEARCH_LIMIT = 2500;
const PAGE = 250;

export interface PinterestAdapterOptions extends Partial<VideoTiming> {
  apiUrl: string;
  /** Crier's PUBLIC_BASE_URL, where Pinterest fetches Crier's own media from. */
  publicBaseUrl: string;
  /** The real Pinterest (no CRIER_PINTEREST_BASE_URL), which reaches only a public PUBLIC_BASE_URL. */
  realNetwork: boolean;
}

export function createPinterestAdapter(options: PinterestAdapterOptions): NetworkAdapter {
  // A video takes Pinterest seconds to minutes: asked again after 1 s, 2 s, 4 s... then every minute.
  const timing: VideoTiming = { pollMs: options.pollMs ?? 1000, maxPollMs: options.maxPollMs ?? 60_000, maxProcessingMs: options.maxProcessingMs ?? 3600_000 };
  const byUrl = byUrlFor(options);
  return {
    network: 'pinterest',
    async prepare(input) {
      if (!input.account.accessToken) throw new PublishError('auth', 'pinterest: the account has no access token; reconnect it');
      const block = judge(input);
      return preparedFor(new PinterestClient(options.apiUrl, input.account.accessToken), input, block, { timing, byUrl });
    },
  };
}

/**
 * Images by URL only when they are Crier's own media and Pinterest can reach PUBLIC_BASE_URL (a
 * public https address, or the emulator): Pinterest then downloads them itself and Crier sends a few
 * bytes. Anything else is sent as base64 of the bytes Crier fetched: a local install's media
 * (http://localhost), which Pinterest could never reach, and other sites' files, which Crier fetches
 * through its SSRF guard and checks (JPEG or PNG) rather than have Pinterest fail on them later with
 * a vaguer reason.
 */
function byUrlFor(options: PinterestAdapterOptions): ByUrl {
  const ctx = { publicBaseUrl: options.publicBaseUrl, realNetwork: options.realNetwork };
  return (url) => {
    if (!url.startsWith(`${options.publicBaseUrl}/`)) return false;
    try {
      checkFetchableByNetwork('pinterest', url, ctx);
      return true;
    } catch {
      return false;
    }
  };
}

function preparedFor(client: PinterestClient, input: PublishInput, block: PinterestBlock, how: { timing: VideoTiming; byUrl: ByUrl }): PreparedPublish {
  const root = input.containers[0]!;
  const description = descriptionOf(block, root.content);
  const title = titleOf(block, description);
  const videoPin = root.media.length === 1 && isVideo(root.media[0]!);
  const storedReady = () => (input.checkpoint as PinCheckpoint | undefined)?.ready === true;
  const refOf = (pin: Pick<PinterestPin, 'id'>): PartRef => ({ platformId: pin.id, url: pinUrl(pin.id) });

  async function mediaSource(): Promise<Record<string, unknown>> {
    if (!videoPin) return imageSource(input, root.media, how.byUrl);
    const cp = (input.checkpoint as PinCheckpoint | undefined) ?? { position: 0 };
    if (!storedReady()) {
      await processedVideo(client, input, cp, how.timing);
      // Creating the pin is a step of its own, begun from a checkpoint that says the video is ready.
      throw new PublishWait(0, { ...cp, ready: true }, 'pinterest: the video is processed');
    }
    // The cover is attached now, with the pin, after processing succeeded: the other order gives corrupt video pins.
    return { source_type: 'video_id', media_id: cp.video!.mediaId, ...(await coverFields(input, block.cover_image_url, how.byUrl)) };
  }

  async function publishRoot(): Promise<PartRef> {
    const pin = await withBoardContext(block.board_id, () => mediaSource().then((media_source) => client.createPin({
      board_id: block.board_id,
      // A media-only post has no text: the pin then goes without title and description.
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      ...(block.link ? { link: block.link } : {}),
      ...(block.alt_text ? { alt_text: block.alt_text } : {}),
      media_source,
    })));
    const skipped = input.containers.length - 1;
    if (!skipped) return refOf(pin);
    const which = skipped === 1 ? 'container 2 was' : `containers 2 to ${input.containers.length} were`;
    return { ...refOf(pin), note: `Pinterest has no replies or comments for apps: ${which} not published` };
  }

  /** Our pin among the board's pins created since `from`; undefined when the whole board was read. */
  async function findPin(from: number): Promise<PartRef | undefined> {
    let bookmark: string | undefined;
    for (let read = 0; read < SEARCH_LIMIT; read += PAGE) {
      const page = await orUnknown(0, () => client.boardPins(block.board_id, bookmark, PAGE));
      const match = page.items.find((p) => (p.title ?? '') === title && (p.description ?? '') === description && createdAt(p) >= from);
      if (match) return refOf(match);
      if (!page.bookmark) return undefined;
      bookmark = page.bookmark;
    }
    throw cannotTell(0, `the board has more than ${SEARCH_LIMIT} pins`);
  }

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, rootRef) {
      if (position === 0) return publishRoot();
      // Nothing is sent for a later container (the root's note says so): it stands for the pin.
      return { platformId: rootRef!.platformId, url: rootRef!.url };
    },
    async reconcile(position, reservation, rootRef) {
      if (position > 0) return { platformId: rootRef!.platformId, url: rootRef!.url };
      // A video pin is created only in a step begun from a checkpoint marked ready: without one, never sent.
      if (videoPin && !storedReady()) return 'absent';
      return (await findPin(Date.parse(String(reservation.startedAt)) - CLOCK_MARGIN_MS)) ?? 'absent';
    },
  };
}

/** Pinterest's created_at is UTC, written without a zone ("2022-10-13T01:40:29"). */
function createdAt(pin: PinterestPin): number {
  if (!pin.created_at) return Infinity;
  return Date.parse(/Z|[+-]\d\d:?\d\d$/.test(pin.created_at) ? pin.created_at : `${pin.created_at}Z`);
}

/** A board Pinterest does not find, or will not let the account pin to, named in the failure. */
async function withBoardContext<T>(boardId: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof PublishError)) throw error;
    const reason = error.message.replace(/^pinterest: /, '');
    if (error.code === 'not_found' && /board/i.test(reason)) {
      throw new PublishError('permanent', `pinterest: board ${boardId} does not exist or is not this account's (${reason}); GET /v1/social-accounts/:id/boards lists the account's boards`, undefined, 'not_found');
    }
    if (error.code === 'forbidden') throw new PublishError('permanent', `pinterest: the account may not pin to board ${boardId} (${reason})`, undefined, 'forbidden');
    throw error;
  }
}

