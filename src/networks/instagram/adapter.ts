// Publishing to Instagram (Instagram API with Facebook Login) as the connected professional account:
// the root container becomes an image, a Reel, a Story or a carousel (plan.ts) through Meta's
// containers (containers.ts: created, processed, then published with media_publish as the last call
// of its step), and every later container a comment on it. After a crash, a root whose ready
// checkpoint was stored is looked up by its container: PUBLISHED means it is on the account (found
// among the recent media by caption), any other status means it was never published.
import { PublishError } from '../../core/errors.ts';
import { reconcileErrors } from '../errors.ts';
import { checkFetchableByNetwork, type PublicUrlContext } from '../public-url.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import type { PartRef } from '../../core/post.ts';
import { InstagramClient } from './client.ts';
import { readyContainer, type ContainerCheckpoint, type ContainerTiming } from './containers.ts';
import type { InstagramBlock } from './options.ts';
import { planRoot, type ContainerPlan } from './plan.ts';

const { cannotTell, orUnknown } = reconcileErrors('instagram', 'the account');

/** Our clock against Meta's: a search for a post starts this much before its reservation. */
const CLOCK_MARGIN_MS = 5 * 60_000;
const SEARCH_LIMIT = 50;

export interface InstagramAdapterOptions extends Partial<ContainerTiming> {
  apiUrl: string;
  publicUrl: PublicUrlContext;
}

export function createInstagramAdapter(options: InstagramAdapterOptions): NetworkAdapter {
  // Meta asks for polling about once a minute for video; images are done in seconds. 1 s, 2 s, 4 s...
  // then every minute, for up to 30 minutes.
  const timing: ContainerTiming = { pollMs: options.pollMs ?? 1000, maxPollMs: options.maxPollMs ?? 60_000, maxProcessingMs: options.maxProcessingMs ?? 30 * 60_000 };
  return {
    network: 'instagram',
    async prepare(input) {
      if (!input.account.accessToken) throw new PublishError('auth', 'instagram: the account has no access token; reconnect it');
      const plan = planRoot(input);
      for (const url of urlsOf(input)) checkFetchableByNetwork('instagram', url, options.publicUrl);
      return preparedFor(new InstagramClient(options.apiUrl, input.account.accessToken, input.account.networkUniqueId), input, plan, timing);
    },
  };
}

function preparedFor(client: InstagramClient, input: PublishInput, plan: ContainerPlan, timing: ContainerTiming): PreparedPublish {
  const stored = input.checkpoint as ContainerCheckpoint | undefined;
  const checkpoint = (): ContainerCheckpoint => (stored?.position === 0 ? { ...stored, items: [...stored.items] } : { position: 0, items: [] });
  const profile = `https://www.instagram.com/${input.account.username}/`;

  async function publishRoot(): Promise<PartRef> {
    const creationId = await readyContainer(client, plan, checkpoint(), timing);
    const mediaId = await client.publish(creationId);
    // Published: the permalink is a nicety, and no failure past this point may have the post sent again.
    const url = await client.permalink(mediaId).catch(() => undefined);
    return { platformId: mediaId, url: url ?? profile };
  }

  /** Ours among the account's recent media: the caption, published since the reservation. */
  async function findRoot(since: number): Promise<PartRef> {
    const recent = await orUnknown(0, () => client.recentMedia(plan.story, SEARCH_LIMIT));
    const match = recent.find((m) => (m.caption ?? '') === plan.caption && Date.parse(m.timestamp.replace(/\+0000$/, 'Z')) >= since);
    if (!match) throw cannotTell(0, 'its container is published but the media was not found among the account\'s recent ones');
    return { platformId: match.id, url: match.permalink ?? profile };
  }

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, root) {
      if (position === 0) return publishRoot();
      const id = await client.comment(root!.platformId, input.containers[position]!.content);
      return { platformId: id, url: root!.url };
    },
    async reconcile(position, reservation, root) {
      if (position > 0) {
        const text = input.containers[position]!.content;
        const comments = await orUnknown(position, () => client.comments(root!.platformId));
        const match = comments.find((c) => c.text === text && (c.username === undefined || c.username === input.account.username));
        return match ? { platformId: match.id, url: root!.url } : 'absent';
      }
      if (!stored?.ready) return 'absent';
      const { code } = await orUnknown(0, () => client.containerStatus(stored.parent ?? stored.items[0]!));
      if (code !== 'PUBLISHED') return 'absent';
      return findRoot(Date.parse(String(reservation.startedAt)) - CLOCK_MARGIN_MS);
    },
  };
}

/** Every URL Instagram will download: the root's media and a Reel cover. */
function urlsOf(input: PublishInput): string[] {
  const block = (input.block ?? {}) as InstagramBlock;
  return [...input.containers[0]!.media.map((m) => m.url), ...(block.reelCoverUrl ? [block.reelCoverUrl] : [])];
}


