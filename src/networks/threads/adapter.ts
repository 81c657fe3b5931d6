// Publishing to Threads (graph.threads.net/v1.0) as the connected profile: every container becomes a
// Threads media container — text, one image, one video, or a carousel of 2 to 20 — which Threads
// fetches by URL and processes; once FINISHED it is published with threads_publish. The root carries
// the threads block (threads.content, reply_control, allowlisted countries); later containers are
// replies to the root (reply_to_id), in order. Creating and polling a container are checkpointed steps
// (containers.ts); the publish call is the last network call of a step that began from a checkpoint
// marked ready, so a crash before it leaves a checkpoint that proves nothing was published. After a
// crash in that step, the container's status says whether it was published (PUBLISHED) and the post
// is then found among the profile's recent posts or replies.
import { PublishError, PublishWait } from '../../core/errors.ts';
import { reconcileErrors } from '../errors.ts';
import { checkFetchableByNetwork, type PublicUrlContext } from '../public-url.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import type { PartRef } from '../../core/post.ts';
import { isMediaNotFound, ThreadsClient, type ThreadsPost } from './client.ts';
import { advance, type ContainerCheckpoint, type ContainerParams, type Timing } from './containers.ts';
import type { ThreadsBlock } from './options.ts';
import { judge } from './shape.ts';

const { cannotTell, orUnknown } = reconcileErrors('threads', 'the account');

/** "Media Not Found" right after FINISHED is a known Threads race: the publish is tried again this many times. */
const MAX_NOT_FOUND_RETRIES = 3;
/** Our clock against Threads': a search for a post starts this much before its reservation. */
const CLOCK_MARGIN_MS = 5 * 60_000;
/** Pages of the profile's posts a search reads at most before saying it cannot tell. */
const SEARCH_PAGES = 5;
/** A spent publishing limit: pages read to find the window's oldest post (1,000 replies at 100 a page), the wait when it cannot be found, the shortest wait. */
const LIMIT_PAGES = 11;
const LIMIT_FALLBACK_MS = 3600_000;
const LIMIT_MIN_WAIT_MS = 60_000;

export interface ThreadsAdapterOptions extends Partial<Timing> {
  apiUrl: string;
  publicUrl: PublicUrlContext;
  /** The first wait before publishing again after "Media Not Found"; it doubles each time. */
  notFoundWaitMs?: number;
}

export function createThreadsAdapter(options: ThreadsAdapterOptions): NetworkAdapter {
  // Meta: a video takes seconds to minutes; asked again after 1 s, 2 s, 4 s... then every minute.
  const timing: Timing = { pollMs: options.pollMs ?? 1000, maxPollMs: options.maxPollMs ?? 60_000, maxProcessingMs: options.maxProcessingMs ?? 15 * 60_000 };
  return {
    network: 'threads',
    async prepare(input) {
      if (!input.account.accessToken) throw new PublishError('auth', 'threads: the account has no access token; reconnect it');
      checkShape(input, options.publicUrl);
      const client = new ThreadsClient(options.apiUrl, input.account.accessToken, input.account.networkUniqueId);
      return preparedFor(client, input, timing, options.notFoundWaitMs ?? 1000);
    },
  };
}

function preparedFor(client: ThreadsClient, input: PublishInput, timing: Timing, notFoundWaitMs: number): PreparedPublish {
  const block = (input.block ?? {}) as ThreadsBlock;
  const textOf = (position: number) => (position === 0 ? block.content ?? input.containers[0]!.content : input.containers[position]!.content);
  const stored = (position: number) => {
    const cp = input.checkpoint as ContainerCheckpoint | undefined;
    return cp?.position === position ? cp : undefined;
  };

  function paramsFor(position: number, root: PartRef | undefined): ContainerParams {
    const text = textOf(position) || undefined;
    if (position > 0) return { text, reply_to_id: root!.platformId };
    return {
      text,
      reply_control: block.reply_control,
      allowlisted_country_codes: block.countries?.length ? block.countries.join(',') : undefined,
    };
  }

  async function publishReady(position: number, cp: ContainerCheckpoint): Promise<PartRef> {
    await checkLimit(client, position > 0);
    let mediaId: string;
    try {
      mediaId = await client.publish(cp.container!);
    } catch (error) {
      if (!(error instanceof PublishError) || !isMediaNotFound(error)) throw error;
      const tries = (cp.notFound ?? 0) + 1;
      if (tries > MAX_NOT_FOUND_RETRIES) {
        throw new PublishError('permanent', `threads: Threads reported container ${cp.container} ready but answered "Media Not Found" to ${tries} publish attempts (${error.message.replace(/^threads: /, '')})`, undefined, 'not_found');
      }
      throw new PublishWait(notFoundWaitMs * 2 ** (tries - 1), { ...cp, notFound: tries }, 'threads: the container is not visible to publishing yet');
    }
    return { platformId: mediaId, url: await permalinkOf(client, mediaId, input.account.username) };
  }

  /** The published post among the profile's recent posts (or replies to the root); undefined when none matches. */
  async function findPublished(position: number, reservation: Record<string, unknown>, root: PartRef | undefined): Promise<PartRef | undefined> {
    const sinceSecs = Math.floor((Date.parse(String(reservation.startedAt)) - CLOCK_MARGIN_MS) / 1000);
    const text = textOf(position);
    const matches: ThreadsPost[] = [];
    let after: string | undefined;
    for (let page = 0; page < SEARCH_PAGES; page++) {
      const found = await orUnknown(position, () => client.postsPage(position > 0, sinceSecs, after));
      matches.push(...found.posts.filter((p) => (p.text ?? '') === text && (position === 0 || p.replied_to?.id === root?.platformId)));
      if (!found.after) break;
      after = found.after;
      if (page === SEARCH_PAGES - 1) throw cannotTell(position, 'the profile has posted too much since to search');
    }
    // Several posts with the same text since the reservation (an empty caption, a repeated reply): which is ours cannot be told.
    if (matches.length > 1) throw cannotTell(position, `${matches.length} posts since then have the same text`);
    const [match] = matches;
    return match ? { platformId: match.id, url: match.permalink ?? await permalinkOf(client, match.id, input.account.username) } : undefined;
  }

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, root) {
      const cp = stored(position);
      if (cp?.ready) return publishReady(position, cp);
      return advance(client, input.containers[position]!, paramsFor(position, root), cp ? { ...cp } : { position }, timing);
    },
    async reconcile(position, reservation, root) {
      const cp = stored(position);
      // Without a stored ready checkpoint the publish call was never made.
      if (!cp?.ready || !cp.container) return 'absent';
      const { status } = await orUnknown(position, () => client.containerStatus(cp.container!));
      if (status !== 'PUBLISHED') return 'absent';
      const found = await findPublished(position, reservation, root);
      if (!found) throw cannotTell(position, `container ${cp.container} is published but the post was not found among the profile's recent ones`);
      return found;
    },
  };
}

/** The profile's publishing limit (250 posts, 1,000 replies per moving 24 h), checked before publishing. */
async function checkLimit(client: ThreadsClient, replies: boolean): Promise<void> {
  let limit;
  try {
    limit = await client.publishingLimit(replies);
  } catch (error) {
    // The check is advisory (threads_publish enforces the limit itself): only a dead token or throttling stops here.
    if (error instanceof PublishError && error.kind !== 'permanent') throw error;
    return;
  }
  if (limit.total <= 0 || limit.used < limit.total) return;
  const what = replies ? 'replies' : 'posts';
  const waitMs = await freesInMs(client, replies, limit.durationSecs);
  throw new PublishError('retryable', `threads: the profile has published ${limit.used} of the ${limit.total} ${what} Threads allows per ${Math.round(limit.durationSecs / 3600)} h (a moving window); `
    + `the oldest of them ages out at ${new Date(Date.now() + waitMs).toISOString()}: trying again then`, waitMs, 'quota');
}

/**
 * When the moving window frees a place: the oldest post (or reply) in it ages out. Threads does not
 * say (the limit endpoint gives usage only), so it is read from the profile's posts of the window;
 * posts made outside the API are listed too and may make it early, which costs one more check.
 */
async function freesInMs(client: ThreadsClient, replies: boolean, durationSecs: number): Promise<number> {
  const now = Date.now();
  let oldest: number | undefined;
  let after: string | undefined;
  try {
    for (let page = 0; page < LIMIT_PAGES; page++) {
      const found = await client.postsPage(replies, Math.floor(now / 1000) - durationSecs, after);
      for (const post of found.posts) {
        const at = Date.parse(post.timestamp ?? '');
        if (Number.isFinite(at) && (oldest === undefined || at < oldest)) oldest = at;
      }
      if (!found.after) break;
      after = found.after;
    }
  } catch {
    return LIMIT_FALLBACK_MS;
  }
  if (oldest === undefined) return LIMIT_FALLBACK_MS;
  return Math.min(durationSecs * 1000, Math.max(LIMIT_MIN_WAIT_MS, oldest + durationSecs * 1000 - now));
}

/** The post's permalink; the profile's address when Threads does not give it (a copyright-flagged post) or cannot now. */
async function permalinkOf(client: ThreadsClient, mediaId: string, username: string): Promise<string> {
  try {
    return (await client.permalink(mediaId)) ?? profileUrl(username);
  } catch {
    // The post is published: a failed read must not fail it (nor make the engine publish it again).
    return profileUrl(username);
  }
}

const profileUrl = (username: string) => `https://www.threads.com/@${encodeURIComponent(username)}`;

/** The shape (shape.ts), and media at a Crier address Threads could not reach (PUBLIC_BASE_URL not public). */
function checkShape(input: PublishInput, publicUrl: PublicUrlContext): void {
  judge(input);
  for (const container of input.containers) for (const media of container.media) checkFetchableByNetwork('threads', media.url, publicUrl);
}

