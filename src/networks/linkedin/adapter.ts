// Publishing to LinkedIn (/rest/posts) as the connected member or organization: the root container
// is the post — text, one image, several images, one video, one document, or an article card —
// and every later container a comment on it (the spec: replies to the root). Media uploads and
// LinkedIn's processing are checkpointed steps (uploads.ts). LinkedIn has no client-chosen ids, so
// after a crash a post is looked for among the author's recent posts (same commentary, created since
// the reservation) and a comment among the root's comments. A refusal as a duplicate names the post
// already live: it is the result only when it provably came from this destination's own attempt
// (afterDuplicate); otherwise the destination fails with LinkedIn's refusal.
import { PublishError, PublishWait } from '../../core/errors.ts';
import { reconcileErrors } from '../errors.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import type { PartRef } from '../../core/post.ts';
import { duplicateOf, LinkedInClient, type LinkedInPost } from './client.ts';
import { toCommentary, type Mention } from './commentary.ts';
import { checkShape } from './shape.ts';
import { uploadedMedia, uploadedThumbnail, type MediaCheckpoint, type MediaTiming, type Uploaded } from './uploads.ts';

const { cannotTell, orUnknown } = reconcileErrors('linkedin', 'the account');

/** Our clock against LinkedIn's: a search for a post starts this much before its reservation. */
const CLOCK_MARGIN_MS = 5 * 60_000;
/** A post LinkedIn calls a duplicate is adopted only if created at most this much before the reservation (clocks differ a little). */
const ADOPTION_MARGIN_MS = 2000;
/** How many of the author's newest posts a search reads at most before saying it cannot tell. */
const SEARCH_LIMIT = 500;
const PAGE = 50;
/** LinkedIn's multiImage takes 2 to 20 images. */

export interface LinkedInAdapterOptions extends Partial<MediaTiming> {
  apiUrl: string;
}

interface LinkedInBlock {
  content?: string;
  article?: { source: string; title?: string; description?: string; thumbnailUrl?: string };
  mentions?: Mention[];
  caption?: string;
}

export function createLinkedInAdapter(options: LinkedInAdapterOptions): NetworkAdapter {
  // A video takes LinkedIn seconds to minutes: asked again after 1 s, 2 s, 4 s... then every minute.
  const timing: MediaTiming = { pollMs: options.pollMs ?? 1000, maxPollMs: options.maxPollMs ?? 60_000, maxProcessingMs: options.maxProcessingMs ?? 2 * 3600_000 };
  return {
    network: 'linkedin',
    async prepare(input) {
      if (!input.account.accessToken) throw new PublishError('auth', 'linkedin: the account has no access token; reconnect it');
      checkShape(input);
      return preparedFor(new LinkedInClient(options.apiUrl, input.account.accessToken), input, timing);
    },
  };
}

function preparedFor(client: LinkedInClient, input: PublishInput, timing: MediaTiming): PreparedPublish {
  const author = input.account.networkUniqueId;
  const block = (input.block ?? {}) as LinkedInBlock;
  const rootCommentary = toCommentary(block.content ?? input.containers[0]!.content, block.mentions);
  const postRef = (urn: string): PartRef => ({ platformId: urn, url: `https://www.linkedin.com/feed/update/${urn}/` });
  const commentRef = (root: PartRef, urn: string): PartRef => ({
    platformId: urn,
    url: `https://www.linkedin.com/feed/update/${root.platformId}/?commentUrn=${encodeURIComponent(urn)}`,
  });
  const since = (reservation: Record<string, unknown>) => Date.parse(String(reservation.startedAt)) - CLOCK_MARGIN_MS;

  // With media (or an article thumbnail) the post is created only in a step that began from a stored
  // checkpoint saying every file is ready: until then, the post was certainly never sent.
  const rootHasFiles = input.containers[0]!.media.length > 0 || Boolean(block.article?.thumbnailUrl);
  const storedReady = () => {
    const stored = input.checkpoint as MediaCheckpoint | undefined;
    return stored?.position === 0 && stored.ready === true;
  };

  async function publishRoot(reservation: Record<string, unknown>): Promise<PartRef> {
    const cp = checkpointFor(input, 0);
    const content = await rootContent(client, input, author, block, cp, timing);
    if (rootHasFiles && !storedReady()) throw new PublishWait(0, { ...cp, ready: true }, 'linkedin: the media are ready');
    try {
      return postRef(await client.createPost({
        author,
        commentary: rootCommentary,
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
        ...(content ? { content } : {}),
      }));
    } catch (error) {
      const named = error instanceof PublishError ? duplicateOf(error) : undefined;
      if (!named) throw error;
      return afterDuplicate(named, reservation);
    }
  }

  /**
   * LinkedIn refused the post as a duplicate and named the post already live. It is this
   * destination's only if it can be shown to come from this destination's own attempt (an answer
   * lost, then the call sent again): created since the reservation, the same commentary and media,
   * owned by no other destination. A post the token may not read (members' apps lack the permission
   * to read posts) cannot be shown to be ours: then, as otherwise, LinkedIn's refusal is the outcome.
   */
  async function afterDuplicate(urn: string, reservation: Record<string, unknown>): Promise<PartRef> {
    const post = await client.getPost(urn).catch(() => undefined);
    const since = Date.parse(String(reservation.startedAt)) - ADOPTION_MARGIN_MS;
    const owned = input.ownedElsewhere ? await input.ownedElsewhere([urn]) : new Set<string>();
    if (post && (post.createdAt ?? 0) >= since && post.commentary === rootCommentary && sameContent(post) && !owned.has(urn)) {
      return { ...postRef(urn), adopted: true };
    }
    throw new PublishError('permanent', `linkedin: LinkedIn refused it as a duplicate of an earlier post: ${postRef(urn).url}`, undefined, 'duplicate');
  }

  /** The post carries what this one would: as many media, and an article card exactly when this one has one. */
  function sameContent(post: LinkedInPost): boolean {
    const content = post.content ?? {};
    const media = content.multiImage ? (content.multiImage.images ?? []).length : content.media ? 1 : 0;
    return media === input.containers[0]!.media.length && Boolean(content.article) === Boolean(block.article);
  }

  /** Our post among the author's posts created since `from` (same commentary and media, no other destination's); undefined when all of them were read. */
  async function findPost(from: number): Promise<PartRef | undefined> {
    for (let start = 0; start < SEARCH_LIMIT; start += PAGE) {
      const { posts } = await orUnknown(0, () => client.postsPage(author, start, PAGE));
      const candidates = posts.filter((p) => p.commentary === rootCommentary && (p.createdAt ?? Infinity) >= from && sameContent(p));
      const owned = candidates.length && input.ownedElsewhere ? await input.ownedElsewhere(candidates.map((p) => p.id)) : new Set<string>();
      const match = candidates.find((p) => !owned.has(p.id));
      if (match) return postRef(match.id);
      if (posts.length < PAGE || posts.some((p) => (p.createdAt ?? 0) < from)) return undefined;
    }
    throw cannotTell(0, `the account has posted more than ${SEARCH_LIMIT} times since`);
  }

  async function findComment(position: number, root: PartRef): Promise<PartRef | undefined> {
    const text = input.containers[position]!.content;
    for (let start = 0; ; start += PAGE) {
      const { comments, total } = await orUnknown(position, () => client.commentsPage(root.platformId, start, PAGE));
      const match = comments.find((c) => c.actor === author && c.text === text);
      if (match) return commentRef(root, match.urn);
      if (comments.length < PAGE || (total !== undefined && start + PAGE >= total)) return undefined;
    }
  }

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, reservation, root) {
      if (position === 0) return publishRoot(reservation);
      return commentRef(root!, await client.comment(root!.platformId, author, input.containers[position]!.content));
    },
    async reconcile(position, reservation, root) {
      if (position === 0 && rootHasFiles && !storedReady()) return 'absent';
      const found = position === 0 ? await findPost(since(reservation)) : await findComment(position, root!);
      return found ?? 'absent';
    },
  };
}

/** The post's `content`: the root container's media, or the article card; undefined for text alone. */
async function rootContent(
  client: LinkedInClient, input: PublishInput, author: string, block: LinkedInBlock, cp: MediaCheckpoint, timing: MediaTiming,
): Promise<Record<string, unknown> | undefined> {
  const media = input.containers[0]!.media;
  if (media.length === 0) {
    if (!block.article) return undefined;
    const { source, title, description, thumbnailUrl } = block.article;
    const thumbnail = thumbnailUrl ? await uploadedThumbnail(client, input, author, thumbnailUrl, cp, timing) : undefined;
    return { article: { source, ...(title ? { title } : {}), ...(description ? { description } : {}), ...(thumbnail ? { thumbnail } : {}) } };
  }
  const uploaded = await uploadedMedia(client, input, author, media, cp, timing);
  if (uploaded.length > 1) {
    if (uploaded.some((u) => u.kind !== 'image')) throw mixed(uploaded);
    return { multiImage: { images: uploaded.map((u, i) => ({ id: u.urn, ...altText(media[i]!.altText) })) } };
  }
  const [only] = uploaded as [Uploaded];
  // A document needs a title (its file name); the caption is for a single image or video (spec).
  const title = only.kind === 'document' ? media[0]!.filename : block.caption;
  return { media: { id: only.urn, ...(title ? { title } : {}), ...(only.kind === 'image' ? altText(media[0]!.altText) : {}) } };
}

const altText = (text: string | undefined) => (text ? { altText: text } : {});

function mixed(uploaded: Uploaded[]): PublishError {
  return new PublishError('permanent', `linkedin: a post takes several images, or one video, or one document; this one has ${uploaded.map((u) => u.kind).join(', ')}`, undefined, 'media_rejected');
}

/** The checkpoint of the container at `position`, or a fresh one. */
function checkpointFor(input: PublishInput, position: number): MediaCheckpoint {
  const cp = input.checkpoint as MediaCheckpoint | undefined;
  return cp?.position === position ? cp : { position, media: [] };
}



