// Publishing to Bluesky with the official client (@atproto/api). The record key of each post is
// chosen and stored before createRecord, so after a crash getRecord tells for sure whether it exists.
// The account's PDS address is the user's (see pds.ts): calls to it go through the SSRF guard.
import { RichText, XRPCError, type AtpAgent } from '@atproto/api';
import { TID } from '@atproto/common-web';
import { PublishError } from '../../core/errors.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import type { PartRef } from '../../core/post.ts';
import { classifierFor, openSession, type Classifier } from './session.ts';
import { judge, textsOf } from './shape.ts';

const POST = 'app.bsky.feed.post';
/**
 * app.bsky.embed.images' image blob `maxSize` in the official lexicon: 2,000,000 bytes since
 * 2026-04-08 (bluesky-social/atproto #4823; 1,000,000 before).
 */
const MAX_IMAGE_BYTES = 2_000_000;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);

export function createBlueskyAdapter(options: { service: string }): NetworkAdapter {
  return {
    network: 'bluesky',
    async prepare(input) {
      judge(input);
      const texts = textsOf(input);
      const agent = await openSession(input, options.service);
      return preparedFor(agent, input, texts, classifierFor(agent, options.service));
    },
  };
}

function preparedFor(agent: AtpAgent, input: PublishInput, texts: string[], classify: Classifier): PreparedPublish {
  const did = agent.session!.did;
  const handle = agent.session!.handle;
  const refFor = (uri: string, cid: string, rkey: string): PartRef => ({
    platformId: uri,
    url: `https://bsky.app/profile/${handle}/post/${rkey}`,
    ref: { uri, cid },
  });
  const replyTo = (root: PartRef | undefined) => {
    if (!root?.ref) return undefined;
    const strong = { uri: String(root.ref.uri), cid: String(root.ref.cid) };
    // Spec: every later container replies to the root.
    return { root: strong, parent: strong };
  };

  return {
    reserve: () => ({ rkey: TID.nextStr() }),
    async publishPart(position, reservation, root) {
      const rkey = String(reservation.rkey);
      const rich = new RichText({ text: texts[position]! });
      try {
        await rich.detectFacets(agent);
        const images = [];
        for (const media of input.containers[position]!.media) {
          images.push({ image: await uploadImage(agent, input, media.url, media.filename), alt: media.altText ?? '' });
        }
        const record = {
          $type: POST,
          text: rich.text,
          ...(rich.facets?.length ? { facets: rich.facets } : {}),
          ...(images.length ? { embed: { $type: 'app.bsky.embed.images', images } } : {}),
          ...(replyTo(root) ? { reply: replyTo(root) } : {}),
          createdAt: new Date().toISOString(),
        };
        const res = await agent.com.atproto.repo.createRecord({ repo: did, collection: POST, rkey, record });
        return refFor(res.data.uri, res.data.cid, rkey);
      } catch (error) {
        throw classify(error, `publishing container ${position + 1}`);
      }
    },
    async reconcile(_position, reservation) {
      const rkey = String(reservation.rkey);
      try {
        const res = await agent.com.atproto.repo.getRecord({ repo: did, collection: POST, rkey });
        return refFor(res.data.uri, res.data.cid!, rkey);
      } catch (error) {
        if (error instanceof XRPCError && (error.error === 'RecordNotFound' || /could not locate record/i.test(error.message))) return 'absent';
        const classified = classify(error, 'checking an earlier attempt');
        throw classified.kind === 'retryable' ? classified : new PublishError('unknown', `${classified.message}; could not tell whether it was published`);
      }
    },
  };
}

async function uploadImage(agent: AtpAgent, input: PublishInput, url: string, filename: string) {
  const { bytes, contentType } = await input.fetchMedia(url);
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (!IMAGE_TYPES.has(type)) throw new PublishError('permanent', `bluesky: ${filename} is ${type || 'of an unknown type'}; Bluesky accepts JPEG, PNG, WEBP and GIF images`);
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new PublishError('permanent', `bluesky: ${filename} is ${bytes.length} bytes; Bluesky accepts images up to ${MAX_IMAGE_BYTES} bytes`);
  }
  const res = await agent.uploadBlob(new Uint8Array(bytes), { encoding: type });
  return res.data.blob;
}
