// Publishing to a Google Business Profile location: the root container becomes one localPost on the
// location the account was connected to (its networkUniqueId, "accounts/{a}/locations/{l}"); the post
// is known by its `name` and shown at its `searchUrl`. Google reviews a post after accepting it:
// PROCESSING, then LIVE or REJECTED (content policy). A post still PROCESSING is read again later from a
// checkpoint naming it (never created twice); a REJECTED one fails the destination. Posts take no
// replies: later containers are not published, and the result says so.
//
// Google has no client-chosen ids, so after a crash the post is looked for among the location's
// localPosts (same summary, topic, event title and photo, created since the reservation), or read by
// the name a review checkpoint holds; one found still PROCESSING goes on waiting for the review.
import { PublishError, PublishWait } from '../../core/errors.ts';
import { reconcileErrors } from '../errors.ts';
import { checkFetchableByNetwork, type PublicUrlContext } from '../public-url.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import type { PartRef } from '../../core/post.ts';
import { GoogleBusinessClient, type LocalPost } from './client.ts';
import { localPostBody, type LocalPostBody } from './local-post.ts';
import type { GoogleBusinessBlock } from './options.ts';
import { judge } from './shape.ts';

const { cannotTell, orUnknown } = reconcileErrors('google_business', 'the location\'s posts in Business Profile Manager');

/** Our clock against Google's: a search starts this much before its reservation. */
const CLOCK_MARGIN_MS = 5 * 60_000;
const PAGE_SIZE = 100;
/** Pages of the location's posts a search reads before saying it cannot tell. */
const MAX_PAGES = 10;
/** Google's review is read again after 2 s, 4 s, 8 s… up to a minute apart, about ten minutes in all. */
const FIRST_REVIEW_WAIT_MS = 2_000;
const MAX_REVIEW_WAIT_MS = 60_000;
const MAX_REVIEW_READS = 14;
const LOCATION_NAME = /^accounts\/[^/]+\/locations\/[^/]+$/;

export interface GoogleBusinessAdapterOptions {
  apiUrl: string;
  publicUrl: PublicUrlContext;
}

/** The checkpoint of a post Google is still reviewing. */
interface ReviewCheckpoint {
  post: string;
  reads: number;
}

export function createGoogleBusinessAdapter(options: GoogleBusinessAdapterOptions): NetworkAdapter {
  return {
    network: 'google_business',
    async prepare(input) {
      if (!input.account.accessToken) throw new PublishError('auth', 'google_business: the account has no access token; reconnect it');
      const location = input.account.networkUniqueId;
      if (!LOCATION_NAME.test(location)) throw refused(`the account names no location ("${location}"); reconnect it and pick the location`);
      checkShape(input, options.publicUrl);
      const body = localPostBody((input.block ?? {}) as GoogleBusinessBlock, input.containers);
      return preparedFor(new GoogleBusinessClient(options.apiUrl, input.account.accessToken, location), input, body);
    },
  };
}

function preparedFor(client: GoogleBusinessClient, input: PublishInput, body: LocalPostBody): PreparedPublish {
  const later = input.containers.length - 1;
  const threadNote = later > 0
    ? `Google Business Profile posts take no replies: container${later > 1 ? `s 2-${later + 1} were` : ' 2 was'} not published`
    : undefined;
  const refOf = (post: LocalPost, note?: string): PartRef => {
    const notes = [note, threadNote].filter(Boolean).join('; ');
    return { platformId: post.name, url: post.searchUrl ?? '', ...(notes ? { note: notes } : {}) };
  };

  /** What a post's state means: published, rejected, or read again later. */
  const settle = (post: LocalPost, reads: number): PartRef => {
    if (post.state === 'REJECTED') throw rejected(post);
    if (post.state !== 'PROCESSING') return refOf(post);
    if (reads >= MAX_REVIEW_READS) return refOf(post, `Google was still reviewing the post (PROCESSING) after ${reads} reads; check it in Business Profile Manager`);
    const checkpoint: ReviewCheckpoint = { post: post.name, reads: reads + 1 };
    throw new PublishWait(Math.min(MAX_REVIEW_WAIT_MS, FIRST_REVIEW_WAIT_MS * 2 ** reads), { ...checkpoint }, 'waiting for Google to review the post');
  };

  const reviewing = (): ReviewCheckpoint | undefined => {
    const checkpoint = input.checkpoint as Partial<ReviewCheckpoint> | undefined;
    return typeof checkpoint?.post === 'string' ? { post: checkpoint.post, reads: Number(checkpoint.reads ?? 0) } : undefined;
  };

  /** The post made since `since` with our summary, topic, event title and photo, if the location lists it. */
  async function find(since: number): Promise<LocalPost | undefined> {
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { posts, next } = await orUnknown(0, () => client.list(pageToken, PAGE_SIZE));
      const match = posts.find((post) => isOurs(post, body, since));
      if (match) return match;
      if (!next) return undefined;
      pageToken = next;
    }
    throw cannotTell(0, `the location has more than ${MAX_PAGES * PAGE_SIZE} posts to look through`);
  }

  /** A later container stands for the one post (the root's ref, its note said once on the root). */
  const root = (first: PartRef | undefined): PartRef => ({ platformId: first!.platformId, url: first!.url });

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, first) {
      // Later containers: nothing to publish (no replies on Google Business Profile), said on the root.
      if (position > 0) return root(first);
      const review = reviewing();
      if (review) return settle(await readUnderReview(client, review.post), review.reads);
      return settle(await client.create(body), 0);
    },
    async reconcile(position, reservation, first) {
      if (position > 0) return root(first);
      const review = reviewing();
      const post = review
        ? await orUnknown(0, () => readUnderReview(client, review.post))
        : await find(Date.parse(String(reservation.startedAt)) - CLOCK_MARGIN_MS);
      if (!post) return 'absent';
      // Found: LIVE is published, REJECTED fails, and PROCESSING waits for the review like publishPart
      // (a PublishWait: the engine stores the checkpoint naming the post, and the next step reads it).
      return settle(post, review?.reads ?? 0);
    },
  };
}

/** A post under review, read again; gone (deleted meanwhile in Business Profile Manager) fails for good. */
async function readUnderReview(client: GoogleBusinessClient, name: string): Promise<LocalPost> {
  try {
    return await client.get(name);
  } catch (error) {
    if (error instanceof PublishError && error.code === 'not_found') {
      throw new PublishError('permanent', `google_business: the post ${name} was deleted while Google reviewed it`, undefined, 'not_found');
    }
    throw error;
  }
}

function isOurs(post: LocalPost, body: LocalPostBody, since: number): boolean {
  const created = Date.parse(post.createTime ?? '');
  if (!Number.isFinite(created) || created < since) return false;
  if ((post.summary ?? '') !== (body.summary ?? '') || (post.topicType ?? 'STANDARD') !== body.topicType) return false;
  const title = (body.event as { title?: string } | undefined)?.title;
  if (title !== undefined && post.event?.title !== title) return false;
  const photo = (body.media as { sourceUrl: string }[] | undefined)?.[0]?.sourceUrl;
  return photo === undefined || post.media?.some((m) => m.sourceUrl === photo) === true;
}

const rejected = (post: LocalPost) => new PublishError('permanent',
  `google_business: Google rejected the post for a content policy violation (state REJECTED, ${post.name}); edit it and post again`, undefined, 'invalid');

/** The judgement (shape.ts), and a Crier photo Google could not fetch (PUBLIC_BASE_URL not public). */
function checkShape(input: PublishInput, publicUrl: PublicUrlContext): void {
  judge(input);
  const photo = input.containers[0]?.media[0];
  if (photo) checkFetchableByNetwork('google_business', photo.url, publicUrl);
}

const refused = (why: string) => new PublishError('permanent', `google_business: ${why}`, undefined, 'invalid');
