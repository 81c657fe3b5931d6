// The AppView's hydrated views of what the repositories hold (app.bsky.feed.defs, app.bsky.actor.defs):
// posts with their author and counts, profiles with follower counts, embed views. Counts are computed
// from every hosted repository's like, repost, follow and post records, as an AppView indexes them.
import type { StoredRecord } from './state.ts';
import type { PdsWorld } from './xrpc.ts';

const POST = 'app.bsky.feed.post';
const CDN = 'https://cdn.bsky.app/img';

type Value = Record<string, any>;

function profileRecord(world: PdsWorld, did: string): Value | undefined {
  return world.store.getRecord(did, 'app.bsky.actor.profile', 'self')?.value as Value | undefined;
}

/** app.bsky.actor.defs#profileViewBasic */
export function profileViewBasic(world: PdsWorld, did: string): Record<string, unknown> {
  const account = world.store.accounts.get(did);
  const profile = profileRecord(world, did);
  const avatar = profile?.avatar?.ref?.$link as string | undefined;
  return {
    did,
    handle: account?.handle ?? 'handle.invalid',
    ...(typeof profile?.displayName === 'string' ? { displayName: profile.displayName } : {}),
    ...(avatar ? { avatar: `${CDN}/avatar/plain/${did}/${avatar}@jpeg` } : {}),
    labels: [],
  };
}

/** app.bsky.actor.defs#profileViewDetailed */
export function profileViewDetailed(world: PdsWorld, did: string): Record<string, unknown> {
  const records = world.store.records;
  const profile = profileRecord(world, did);
  return {
    ...profileViewBasic(world, did),
    ...(typeof profile?.description === 'string' ? { description: profile.description } : {}),
    followersCount: records.filter((r) => r.collection === 'app.bsky.graph.follow' && (r.value as Value).subject === did).length,
    followsCount: records.filter((r) => r.collection === 'app.bsky.graph.follow' && r.did === did).length,
    postsCount: records.filter((r) => r.collection === POST && r.did === did).length,
    indexedAt: world.clock.iso(),
  };
}

const subjectIs = (uri: string) => (r: StoredRecord) => (r.value as Value).subject?.uri === uri;

/** app.bsky.feed.defs#postView */
export function postView(world: PdsWorld, record: StoredRecord): Record<string, unknown> {
  const records = world.store.records;
  const value = record.value as Value;
  const embed = embedView(record.did, value.embed);
  return {
    uri: record.uri,
    cid: record.cid,
    author: profileViewBasic(world, record.did),
    record: value,
    ...(embed ? { embed } : {}),
    replyCount: records.filter((r) => r.collection === POST && (r.value as Value).reply?.parent?.uri === record.uri).length,
    repostCount: records.filter((r) => r.collection === 'app.bsky.feed.repost' && subjectIs(record.uri)(r)).length,
    likeCount: records.filter((r) => r.collection === 'app.bsky.feed.like' && subjectIs(record.uri)(r)).length,
    quoteCount: records.filter((r) => r.collection === POST && quotedUri((r.value as Value).embed) === record.uri).length,
    bookmarkCount: world.store.bookmarks.get(record.uri) ?? 0,
    indexedAt: record.indexedAt,
    labels: [],
  };
}

function quotedUri(embed: Value | undefined): string | undefined {
  if (embed?.$type === 'app.bsky.embed.record') return embed.record?.uri;
  if (embed?.$type === 'app.bsky.embed.recordWithMedia') return embed.record?.record?.uri;
  return undefined;
}

/** The views of image and video embeds (the ones a post's media count needs); others are left out. */
function embedView(did: string, embed: Value | undefined): Record<string, unknown> | undefined {
  if (embed?.$type === 'app.bsky.embed.images') {
    return {
      $type: 'app.bsky.embed.images#view',
      images: (embed.images as Value[]).map((image) => ({
        thumb: `${CDN}/feed_thumbnail/plain/${did}/${image.image?.ref?.$link}@jpeg`,
        fullsize: `${CDN}/feed_fullsize/plain/${did}/${image.image?.ref?.$link}@jpeg`,
        alt: image.alt ?? '',
        ...(image.aspectRatio ? { aspectRatio: image.aspectRatio } : {}),
      })),
    };
  }
  if (embed?.$type === 'app.bsky.embed.video') {
    const cid = embed.video?.ref?.$link;
    return { $type: 'app.bsky.embed.video#view', cid, playlist: `https://video.bsky.app/watch/${encodeURIComponent(did)}/${cid}/playlist.m3u8` };
  }
  return undefined;
}
