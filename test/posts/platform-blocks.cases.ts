// Contract cases for the platform configuration blocks of POST /v1/posts (spec: "Platform configuration
// blocks", Errors, rules 5, 8, 9). Each case targets one account per listed network; a 400 case lists the
// fields that must appear in `details[].field`. Run over HTTP by the posts driver and, without a server,
// by test/networks/options.test.ts.
import type { NetworkId } from '../../src/core/network-id.ts';

/**
 * Where a 400 comes from: `block`, a rule on the block alone (its values, how they combine, the text
 * they refer to), which holds whatever the post targets; `target`, a rule that holds only because an
 * account of that network is targeted (the shape of the shared containers for it, cross-posting, a
 * block the network cannot publish without).
 */
export type RuleScope = 'block' | 'target';

export interface BlockCase {
  name: string;
  networks: NetworkId[];
  body: Record<string, unknown>;
  expect: { status: 200 } | { status: 400; fields: string[]; scope?: RuleScope };
}

const media = (filename: string) => ({ url: `https://cdn.example.com/${filename}`, filename });
const img = (filename = 'a.jpg') => media(filename);
const vid = (filename = 'v.mp4') => media(filename);
const text = (length: number, char = 'a') => char.repeat(length);
const ok = { status: 200 } as const;
const bad = (...fields: string[]) => ({ status: 400 as const, fields, scope: 'block' as const });
const badWhenTargeted = (...fields: string[]) => ({ status: 400 as const, fields, scope: 'target' as const });

/** A copy of `object` without `key`, for "field missing" cases. */
function without(object: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = object;
  return rest;
}

const event = {
  title: 'Launch party',
  startDate: { year: 2030, month: 5, day: 1 },
  startTime: { hours: 18, minutes: 0 },
  endDate: { year: 2030, month: 5, day: 1 },
  endTime: { hours: 22, minutes: 30 },
};

// A block that satisfies the network's required fields, so a case can focus on one other field.
const pinterest = { board_id: 'board-1' };
const reddit = { subreddit: 'typescript', title: 'A title' };
const requiredBlocks: Partial<Record<NetworkId, Record<string, unknown>>> = { pinterest, reddit };

const NETWORK_IDS: NetworkId[] = [
  'x', 'threads', 'linkedin', 'instagram', 'bluesky', 'youtube',
  'facebook', 'tiktok', 'google_business', 'pinterest', 'vimeo', 'reddit',
];

// Networks that cannot publish text alone get a video, so every 200 case is also publishable.
const NEEDS_MEDIA = new Set<NetworkId>(['instagram', 'youtube', 'tiktok', 'pinterest', 'vimeo']);
const rootFor = (network: NetworkId) => NEEDS_MEDIA.has(network)
  ? { content: 'Shared text', media: [vid()] }
  : { content: 'Shared text' };

// Every block accepts `content` with min length 1.
const contentCases: BlockCase[] = NETWORK_IDS.flatMap((network): BlockCase[] => [
  {
    name: `${network}: an empty content override is rejected`,
    networks: [network],
    body: { containers: [rootFor(network)], [network]: { ...requiredBlocks[network], content: '' } },
    expect: bad(`${network}.content`),
  },
  {
    name: `${network}: a content override is accepted`,
    networks: [network],
    body: { containers: [rootFor(network)], [network]: { ...requiredBlocks[network], content: `Text for ${network}` } },
    expect: ok,
  },
]);

const xBlueskyCases: BlockCase[] = [
  { name: 'x: the length limit is not checked at request time', networks: ['x'], body: { content: text(1000) }, expect: ok },
  { name: 'bluesky: the 300-character limit is not checked at request time', networks: ['bluesky'], body: { content: text(301) }, expect: ok },
  { name: 'x: a non-string content override is rejected', networks: ['x'], body: { content: 'Hi', x: { content: 42 } }, expect: bad('x.content') },
  { name: 'bluesky: an unknown key in the block is dropped, not rejected', networks: ['bluesky'], body: { content: 'Hi', bluesky: { Content: 'typo' } }, expect: ok },
];

const threadsCases: BlockCase[] = [
  { name: 'threads: a 500-character root container is accepted', networks: ['threads'], body: { containers: [{ content: text(500) }] }, expect: ok },
  { name: 'threads: a 501-character root container is rejected', networks: ['threads'], body: { containers: [{ content: text(501) }] }, expect: badWhenTargeted('containers[0].content') },
  { name: 'threads: a 501-character reply container is rejected', networks: ['threads'], body: { containers: [{ content: 'Root' }, { content: text(501) }] }, expect: badWhenTargeted('containers[1].content') },
  { name: 'threads: a 501-character threads.content is rejected', networks: ['threads'], body: { content: 'Short', threads: { content: text(501) } }, expect: bad('threads.content') },
  { name: 'threads: threads.content replaces an over-long root text', networks: ['threads'], body: { containers: [{ content: text(600) }], threads: { content: 'Short for Threads' } }, expect: ok },
  {
    name: 'threads: threads.content does not excuse an over-long reply',
    networks: ['threads'],
    body: { containers: [{ content: 'Root' }, { content: text(501) }], threads: { content: 'Short' } },
    expect: badWhenTargeted('containers[1].content'),
  },
  { name: 'threads: 125 emoji (500 UTF-8 bytes) are accepted', networks: ['threads'], body: { containers: [{ content: text(125, '😀') }] }, expect: ok },
  { name: 'threads: 126 emoji count as 504 characters and are rejected', networks: ['threads'], body: { containers: [{ content: text(126, '😀') }] }, expect: badWhenTargeted('containers[0].content') },
  { name: 'threads: accented letters count one each', networks: ['threads'], body: { containers: [{ content: text(500, 'é') }] }, expect: ok },
  { name: 'threads: the limit applies in a cross-post', networks: ['threads', 'x'], body: { containers: [{ content: text(501) }] }, expect: badWhenTargeted('containers[0].content') },
  { name: 'threads: the limit does not apply when no Threads account is targeted', networks: ['x', 'linkedin'], body: { containers: [{ content: text(501) }] }, expect: ok },
  { name: 'threads: ISO country codes are accepted', networks: ['threads'], body: { content: 'Hi', threads: { countries: ['US', 'DE'] } }, expect: ok },
  { name: 'threads: a country that is not an alpha-2 code is rejected', networks: ['threads'], body: { content: 'Hi', threads: { countries: ['US', 'usa'] } }, expect: bad('threads.countries[1]') },
  { name: 'threads: countries must be an array', networks: ['threads'], body: { content: 'Hi', threads: { countries: 'US' } }, expect: bad('threads.countries') },
  { name: 'threads: reply_control accounts_you_follow is accepted', networks: ['threads'], body: { content: 'Hi', threads: { reply_control: 'accounts_you_follow' } }, expect: ok },
  { name: 'threads: an unknown reply_control is rejected', networks: ['threads'], body: { content: 'Hi', threads: { reply_control: 'nobody' } }, expect: bad('threads.reply_control') },
];

const instagramCases: BlockCase[] = [
  { name: 'instagram: a story with one image and no text is accepted', networks: ['instagram'], body: { containers: [{ media: [img()] }], instagram: { publishAsStory: true } }, expect: ok },
  { name: 'instagram: a story with one video is accepted', networks: ['instagram'], body: { containers: [{ media: [vid()] }], instagram: { publishAsStory: true } }, expect: ok },
  { name: 'instagram: a story with two images (carousel) is rejected', networks: ['instagram'], body: { containers: [{ media: [img('a.jpg'), img('b.png')] }], instagram: { publishAsStory: true } }, expect: badWhenTargeted('containers[0].media') },
  { name: 'instagram: a story without media is rejected', networks: ['instagram'], body: { containers: [{ content: 'Only text' }], instagram: { publishAsStory: true } }, expect: badWhenTargeted('containers[0].media', 'containers[0].content') },
  { name: 'instagram: a story with a non-image, non-video file is rejected', networks: ['instagram'], body: { containers: [{ media: [media('deck.pdf')] }], instagram: { publishAsStory: true } }, expect: badWhenTargeted('containers[0].media[0].filename') },
  { name: 'instagram: a story with root text is rejected (no caption)', networks: ['instagram'], body: { containers: [{ content: 'Caption', media: [img()] }], instagram: { publishAsStory: true } }, expect: badWhenTargeted('containers[0].content') },
  { name: 'instagram: a story with instagram.caption is rejected', networks: ['instagram'], body: { containers: [{ media: [img()] }], instagram: { publishAsStory: true, caption: 'Caption' } }, expect: bad('instagram.caption') },
  { name: 'instagram: a story with instagram.content is rejected', networks: ['instagram'], body: { containers: [{ media: [img()] }], instagram: { publishAsStory: true, content: 'Caption' } }, expect: bad('instagram.content') },
  { name: 'instagram: a story with collaborators is rejected', networks: ['instagram'], body: { containers: [{ media: [img()] }], instagram: { publishAsStory: true, collaborators: ['friend'] } }, expect: bad('instagram.collaborators') },
  {
    name: 'instagram: a story may be cross-posted with text that only another network publishes',
    networks: ['instagram', 'x'],
    body: { containers: [{ media: [img()] }], instagram: { publishAsStory: true }, x: { content: 'Text for X' } },
    expect: ok,
  },
  { name: 'instagram: publishAsStory must be a boolean', networks: ['instagram'], body: { containers: [{ media: [img()] }], instagram: { publishAsStory: 'true' } }, expect: bad('instagram.publishAsStory') },
  { name: 'instagram: a carousel with a caption is accepted', networks: ['instagram'], body: { containers: [{ content: 'Carousel', media: [img('a.jpg'), img('b.jpg'), vid()] }], instagram: { isAiGenerated: true } }, expect: ok },
  { name: 'instagram: 3 collaborators are accepted', networks: ['instagram'], body: { containers: [{ content: 'Hi', media: [img()] }], instagram: { collaborators: ['a', 'b', 'c'] } }, expect: ok },
  { name: 'instagram: more than 3 collaborators is rejected', networks: ['instagram'], body: { containers: [{ content: 'Hi', media: [img()] }], instagram: { collaborators: ['a', 'b', 'c', 'd'] } }, expect: bad('instagram.collaborators') },
  { name: 'instagram: a trial reel with one video is accepted', networks: ['instagram'], body: { containers: [{ content: 'Reel', media: [vid()] }], instagram: { trialReel: { graduationStrategy: 'SS_PERFORMANCE' } } }, expect: ok },
  { name: 'instagram: a trial reel with an image is rejected', networks: ['instagram'], body: { containers: [{ content: 'Pic', media: [img()] }], instagram: { trialReel: { graduationStrategy: 'MANUAL' } } }, expect: badWhenTargeted('instagram.trialReel') },
  { name: 'instagram: a trial reel with two videos (carousel) is rejected', networks: ['instagram'], body: { containers: [{ content: 'Two', media: [vid('a.mp4'), vid('b.mov')] }], instagram: { trialReel: { graduationStrategy: 'MANUAL' } } }, expect: badWhenTargeted('instagram.trialReel') },
  { name: 'instagram: a trial reel cannot be a story', networks: ['instagram'], body: { containers: [{ media: [vid()] }], instagram: { publishAsStory: true, trialReel: { graduationStrategy: 'MANUAL' } } }, expect: bad('instagram.trialReel') },
  { name: 'instagram: trialReel needs graduationStrategy', networks: ['instagram'], body: { containers: [{ content: 'Reel', media: [vid()] }], instagram: { trialReel: {} } }, expect: bad('instagram.trialReel.graduationStrategy') },
  { name: 'instagram: an unknown graduationStrategy is rejected', networks: ['instagram'], body: { containers: [{ content: 'Reel', media: [vid()] }], instagram: { trialReel: { graduationStrategy: 'AUTO' } } }, expect: bad('instagram.trialReel.graduationStrategy') },
  { name: 'instagram: user tags with username, x and y are accepted', networks: ['instagram'], body: { containers: [{ content: 'Hi', media: [img()] }], instagram: { userTags: [{ username: 'friend', x: 0.5, y: 0.25 }] } }, expect: ok },
  { name: 'instagram: a user tag without y is rejected', networks: ['instagram'], body: { containers: [{ content: 'Hi', media: [img()] }], instagram: { userTags: [{ username: 'friend', x: 0.5 }] } }, expect: bad('instagram.userTags[0].y') },
  { name: 'instagram: a user tag without username is rejected', networks: ['instagram'], body: { containers: [{ content: 'Hi', media: [img()] }], instagram: { userTags: [{ x: 0.5, y: 0.5 }] } }, expect: bad('instagram.userTags[0].username') },
  {
    name: 'instagram: a reel cover and thumb offset on a single video are accepted',
    networks: ['instagram'],
    body: { containers: [{ content: 'Reel', media: [vid()] }], instagram: { reelCoverUrl: 'https://cdn.example.com/cover.jpg', reelThumbOffset: 1500, locationId: '123' } },
    expect: ok,
  },
  { name: 'instagram: a reel cover on an image post is rejected', networks: ['instagram'], body: { containers: [{ content: 'Pic', media: [img()] }], instagram: { reelCoverUrl: 'https://cdn.example.com/cover.jpg' } }, expect: badWhenTargeted('instagram.reelCoverUrl') },
  { name: 'instagram: a reel cover that is not a URL is rejected', networks: ['instagram'], body: { containers: [{ content: 'Reel', media: [vid()] }], instagram: { reelCoverUrl: 'cover.jpg' } }, expect: bad('instagram.reelCoverUrl') },
  { name: 'instagram: reelThumbOffset must be a number', networks: ['instagram'], body: { containers: [{ content: 'Reel', media: [vid()] }], instagram: { reelThumbOffset: '500' } }, expect: bad('instagram.reelThumbOffset') },
  { name: 'instagram: caption and altText overrides are accepted', networks: ['instagram'], body: { containers: [{ content: 'Shared', media: [img()] }], instagram: { caption: 'For Instagram', altText: 'A cat' } }, expect: ok },
];

const facebookCases: BlockCase[] = [
  { name: 'facebook: a story with one image is accepted', networks: ['facebook'], body: { containers: [{ media: [img()] }], facebook: { publishAsStory: true } }, expect: ok },
  { name: 'facebook: a story with one video is accepted', networks: ['facebook'], body: { containers: [{ media: [vid('s.mov')] }], facebook: { publishAsStory: true } }, expect: ok },
  { name: 'facebook: a story with facebook.content is rejected', networks: ['facebook'], body: { containers: [{ media: [img()] }], facebook: { publishAsStory: true, content: 'Caption' } }, expect: bad('facebook.content') },
  { name: 'facebook: a story with root text is rejected', networks: ['facebook'], body: { containers: [{ content: 'Caption', media: [img()] }], facebook: { publishAsStory: true } }, expect: badWhenTargeted('containers[0].content') },
  { name: 'facebook: a story with a comment container is rejected', networks: ['facebook'], body: { containers: [{ media: [img()] }, { content: 'First comment' }], facebook: { publishAsStory: true } }, expect: badWhenTargeted('containers[1]') },
  {
    name: 'facebook: a story with mentions is rejected, not dropped',
    networks: ['facebook'],
    body: { containers: [{ media: [img()] }], facebook: { publishAsStory: true, mentions: [{ pageId: '123', text: 'Acme' }] } },
    expect: bad('facebook.mentions'),
  },
  { name: 'facebook: a story with two images is rejected', networks: ['facebook'], body: { containers: [{ media: [img('a.jpg'), img('b.jpg')] }], facebook: { publishAsStory: true } }, expect: badWhenTargeted('containers[0].media') },
  { name: 'facebook: a story without media is rejected', networks: ['facebook'], body: { containers: [{ content: 'Text' }], facebook: { publishAsStory: true } }, expect: badWhenTargeted('containers[0].media', 'containers[0].content') },
  { name: 'facebook: a story with an unknown file type is rejected', networks: ['facebook'], body: { containers: [{ media: [media('clip.avi')] }], facebook: { publishAsStory: true } }, expect: badWhenTargeted('containers[0].media[0].filename') },
  { name: 'facebook: publishAsStory with publishAsReel is rejected', networks: ['facebook'], body: { containers: [{ media: [vid()] }], facebook: { publishAsStory: true, publishAsReel: true } }, expect: bad('facebook.publishAsReel') },
  {
    name: 'facebook: a story with a video cover is rejected',
    networks: ['facebook'],
    body: { containers: [{ media: [vid()] }], facebook: { publishAsStory: true, videoCoverUrl: 'https://cdn.example.com/cover.jpg' } },
    expect: bad('facebook.videoCoverUrl'),
  },
  {
    name: 'facebook: a story cross-posted with captioned content for another network is rejected',
    networks: ['facebook', 'x'],
    body: { containers: [{ media: [img()] }], facebook: { publishAsStory: true }, x: { content: 'Text for X' } },
    expect: badWhenTargeted('facebook.publishAsStory'),
  },
  {
    name: 'facebook: a story cross-posted with a LinkedIn caption is rejected',
    networks: ['facebook', 'linkedin'],
    body: { containers: [{ media: [img()] }], facebook: { publishAsStory: true }, linkedin: { caption: 'Under the image' } },
    expect: badWhenTargeted('facebook.publishAsStory'),
  },
  {
    name: 'facebook: a story with shared root text cross-posted to another network is rejected',
    networks: ['facebook', 'bluesky'],
    body: { containers: [{ content: 'Shared caption', media: [img()] }], facebook: { publishAsStory: true } },
    expect: badWhenTargeted('containers[0].content', 'facebook.publishAsStory'),
  },
  {
    name: 'facebook: a story cross-posted with an Instagram story (no text anywhere) is accepted',
    networks: ['facebook', 'instagram'],
    body: { containers: [{ media: [img()] }], facebook: { publishAsStory: true }, instagram: { publishAsStory: true } },
    expect: ok,
  },
  {
    name: 'facebook: a text block for a network that is not targeted does not block a story',
    networks: ['facebook'],
    body: { containers: [{ media: [img()] }], facebook: { publishAsStory: true }, x: { content: 'Not targeted' } },
    expect: ok,
  },
  { name: 'facebook: a reel with one video is accepted', networks: ['facebook'], body: { containers: [{ content: 'Description', media: [vid()] }], facebook: { publishAsReel: true } }, expect: ok },
  { name: 'facebook: a reel keeps its comment containers', networks: ['facebook'], body: { containers: [{ content: 'Reel', media: [vid()] }, { content: 'First comment' }], facebook: { publishAsReel: true } }, expect: ok },
  { name: 'facebook: a reel with an image is rejected', networks: ['facebook'], body: { containers: [{ content: 'Reel', media: [img()] }], facebook: { publishAsReel: true } }, expect: badWhenTargeted('containers[0].media') },
  { name: 'facebook: a reel with two videos is rejected', networks: ['facebook'], body: { containers: [{ content: 'Reel', media: [vid('a.mp4'), vid('b.mp4')] }], facebook: { publishAsReel: true } }, expect: badWhenTargeted('containers[0].media') },
  { name: 'facebook: a reel without media is rejected', networks: ['facebook'], body: { content: 'Reel', facebook: { publishAsReel: true } }, expect: badWhenTargeted('containers[0].media') },
  { name: 'facebook: a video cover on a single video is accepted', networks: ['facebook'], body: { containers: [{ content: 'Video', media: [vid()] }], facebook: { videoCoverUrl: 'https://cdn.example.com/cover.jpg' } }, expect: ok },
  { name: 'facebook: a video cover on a reel is accepted', networks: ['facebook'], body: { containers: [{ content: 'Reel', media: [vid()] }], facebook: { publishAsReel: true, videoCoverUrl: 'https://cdn.example.com/cover.jpg' } }, expect: ok },
  { name: 'facebook: a video cover on an image post is rejected', networks: ['facebook'], body: { containers: [{ content: 'Pic', media: [img()] }], facebook: { videoCoverUrl: 'https://cdn.example.com/cover.jpg' } }, expect: badWhenTargeted('facebook.videoCoverUrl') },
  { name: 'facebook: a video cover with two videos is rejected', networks: ['facebook'], body: { containers: [{ content: 'Two', media: [vid('a.mp4'), vid('b.mp4')] }], facebook: { videoCoverUrl: 'https://cdn.example.com/cover.jpg' } }, expect: badWhenTargeted('facebook.videoCoverUrl') },
  { name: 'facebook: a video cover that is not an http(s) URL is rejected', networks: ['facebook'], body: { containers: [{ content: 'Video', media: [vid()] }], facebook: { videoCoverUrl: 'ftp://cdn.example.com/cover.jpg' } }, expect: bad('facebook.videoCoverUrl') },
  {
    name: 'facebook: a mention whose text is in a comment container is accepted',
    networks: ['facebook'],
    body: { containers: [{ content: 'Big news' }, { content: 'Thanks to Acme Corp for the help' }], facebook: { mentions: [{ pageId: '1001', text: 'Acme Corp' }] } },
    expect: ok,
  },
  {
    name: 'facebook: a mention whose text is only in the root container is rejected',
    networks: ['facebook'],
    body: { containers: [{ content: 'Thanks to Acme Corp' }, { content: 'More below' }], facebook: { mentions: [{ pageId: '1001', text: 'Acme Corp' }] } },
    expect: badWhenTargeted('facebook.mentions[0].text'),
  },
  {
    name: 'facebook: a mention without any comment container is rejected',
    networks: ['facebook'],
    body: { content: 'Thanks to Acme Corp', facebook: { mentions: [{ pageId: '1001', text: 'Acme Corp' }] } },
    expect: badWhenTargeted('facebook.mentions[0].text'),
  },
  {
    name: 'facebook: a mention must match its comment text verbatim (case-sensitive)',
    networks: ['facebook'],
    body: { containers: [{ content: 'News' }, { content: 'thanks to acme corp' }], facebook: { mentions: [{ pageId: '1001', text: 'Acme Corp' }] } },
    expect: badWhenTargeted('facebook.mentions[0].text'),
  },
  {
    name: 'facebook: each mention is checked on its own',
    networks: ['facebook'],
    body: {
      containers: [{ content: 'News' }, { content: 'Thanks Acme' }],
      facebook: { mentions: [{ pageId: '1001', text: 'Acme' }, { pageId: '1002', text: 'Globex' }] },
    },
    expect: badWhenTargeted('facebook.mentions[1].text'),
  },
  { name: 'facebook: a mention without pageId is rejected', networks: ['facebook'], body: { containers: [{ content: 'News' }, { content: 'Acme' }], facebook: { mentions: [{ text: 'Acme' }] } }, expect: bad('facebook.mentions[0].pageId') },
  { name: 'facebook: a mention with empty text is rejected', networks: ['facebook'], body: { containers: [{ content: 'News' }, { content: 'Acme' }], facebook: { mentions: [{ pageId: '1001', text: '' }] } }, expect: bad('facebook.mentions[0].text') },
];

const mention = (text: string, urn = 'urn:li:organization:1337') => ({ urn, text });

const linkedinCases: BlockCase[] = [
  { name: 'linkedin: a mention found in the root text is accepted', networks: ['linkedin'], body: { content: 'Proud to work with Acme Corp today', linkedin: { mentions: [mention('Acme Corp')] } }, expect: ok },
  { name: 'linkedin: a person mention is accepted', networks: ['linkedin'], body: { content: 'Welcome Jane Doe!', linkedin: { mentions: [mention('Jane Doe', 'urn:li:person:AbC-123_x')] } }, expect: ok },
  { name: 'linkedin: a mention missing from the text is rejected', networks: ['linkedin'], body: { content: 'Proud to work with them', linkedin: { mentions: [mention('Acme Corp')] } }, expect: bad('linkedin.mentions[0].text') },
  { name: 'linkedin: a mention is matched case-sensitively', networks: ['linkedin'], body: { content: 'Proud to work with ACME CORP', linkedin: { mentions: [mention('Acme Corp')] } }, expect: bad('linkedin.mentions[0].text') },
  { name: 'linkedin: a mention is matched in linkedin.content when set', networks: ['linkedin'], body: { content: 'Shared text', linkedin: { content: 'Thanks Acme Corp', mentions: [mention('Acme Corp')] } }, expect: ok },
  {
    name: 'linkedin: a mention only in the root text is rejected when linkedin.content replaces it',
    networks: ['linkedin'],
    body: { content: 'Thanks Acme Corp', linkedin: { content: 'Thanks everyone', mentions: [mention('Acme Corp')] } },
    expect: bad('linkedin.mentions[0].text'),
  },
  { name: 'linkedin: two mentions of the same text need two occurrences of it', networks: ['linkedin'], body: { content: 'Sam met Sam', linkedin: { mentions: [mention('Sam', 'urn:li:person:1'), mention('Sam', 'urn:li:person:2')] } }, expect: ok },
  { name: 'linkedin: a second mention of a text that appears once is rejected', networks: ['linkedin'], body: { content: 'Sam met everyone', linkedin: { mentions: [mention('Sam', 'urn:li:person:1'), mention('Sam', 'urn:li:person:2')] } }, expect: bad('linkedin.mentions[1].text') },
  { name: 'linkedin: a mention whose only occurrence lies inside a longer mention is rejected', networks: ['linkedin'], body: { content: 'Thanks Sam_Co', linkedin: { mentions: [mention('Sam'), mention('Sam_Co')] } }, expect: bad('linkedin.mentions[0].text') },
  { name: 'linkedin: the second of two mentions is checked too', networks: ['linkedin'], body: { content: 'Acme Corp and friends', linkedin: { mentions: [mention('Acme Corp'), mention('Globex')] } }, expect: bad('linkedin.mentions[1].text') },
  { name: 'linkedin: a mention urn of another type is rejected', networks: ['linkedin'], body: { content: 'Acme Corp', linkedin: { mentions: [mention('Acme Corp', 'urn:li:company:1337')] } }, expect: bad('linkedin.mentions[0].urn') },
  { name: 'linkedin: a mention urn without an id is rejected', networks: ['linkedin'], body: { content: 'Acme Corp', linkedin: { mentions: [mention('Acme Corp', 'urn:li:person:')] } }, expect: bad('linkedin.mentions[0].urn') },
  { name: 'linkedin: a mention urn with whitespace is rejected', networks: ['linkedin'], body: { content: 'Acme Corp', linkedin: { mentions: [mention('Acme Corp', 'urn:li:person:ab cd')] } }, expect: bad('linkedin.mentions[0].urn') },
  { name: 'linkedin: a mention with empty text is rejected', networks: ['linkedin'], body: { content: 'Acme Corp', linkedin: { mentions: [mention('')] } }, expect: bad('linkedin.mentions[0].text') },
  { name: 'linkedin: a mention without urn is rejected', networks: ['linkedin'], body: { content: 'Acme Corp', linkedin: { mentions: [{ text: 'Acme Corp' }] } }, expect: bad('linkedin.mentions[0].urn') },
  { name: 'linkedin: a 400-character caption is accepted', networks: ['linkedin'], body: { containers: [{ content: 'Pic', media: [img()] }], linkedin: { caption: text(400) } }, expect: ok },
  { name: 'linkedin: a 401-character caption is rejected', networks: ['linkedin'], body: { containers: [{ content: 'Pic', media: [img()] }], linkedin: { caption: text(401) } }, expect: bad('linkedin.caption') },
  { name: 'linkedin: an empty caption is rejected', networks: ['linkedin'], body: { containers: [{ content: 'Pic', media: [img()] }], linkedin: { caption: '' } }, expect: bad('linkedin.caption') },
  {
    name: 'linkedin: a full article card is accepted',
    networks: ['linkedin'],
    body: {
      content: 'Read our post',
      linkedin: { article: { source: 'https://blog.example.com/post', title: text(400), description: text(4000), thumbnailUrl: 'https://cdn.example.com/thumb.png' } },
    },
    expect: ok,
  },
  { name: 'linkedin: an article with only its source is accepted', networks: ['linkedin'], body: { content: 'Read this', linkedin: { article: { source: 'https://blog.example.com/post' } } }, expect: ok },
  { name: 'linkedin: an article without source is rejected', networks: ['linkedin'], body: { content: 'Read this', linkedin: { article: { title: 'Post' } } }, expect: bad('linkedin.article.source') },
  { name: 'linkedin: an article source that is not a URL is rejected', networks: ['linkedin'], body: { content: 'Read this', linkedin: { article: { source: 'blog post' } } }, expect: bad('linkedin.article.source') },
  { name: 'linkedin: a 401-character article title is rejected', networks: ['linkedin'], body: { content: 'Read this', linkedin: { article: { source: 'https://blog.example.com/p', title: text(401) } } }, expect: bad('linkedin.article.title') },
  { name: 'linkedin: an empty article title is rejected', networks: ['linkedin'], body: { content: 'Read this', linkedin: { article: { source: 'https://blog.example.com/p', title: '' } } }, expect: bad('linkedin.article.title') },
  {
    name: 'linkedin: a 4001-character article description is rejected',
    networks: ['linkedin'],
    body: { content: 'Read this', linkedin: { article: { source: 'https://blog.example.com/p', description: text(4001) } } },
    expect: bad('linkedin.article.description'),
  },
  { name: 'linkedin: an article thumbnail that is not a URL is rejected', networks: ['linkedin'], body: { content: 'Read this', linkedin: { article: { source: 'https://blog.example.com/p', thumbnailUrl: 'thumb' } } }, expect: bad('linkedin.article.thumbnailUrl') },
];

const youtubeCases: BlockCase[] = [
  {
    name: 'youtube: a full block is accepted',
    networks: ['youtube'],
    body: {
      containers: [{ content: 'Description', media: [vid()] }],
      youtube: {
        title: 'My video', isShort: false, categoryId: '22', privacyStatus: 'unlisted', madeForKids: false,
        containsSyntheticMedia: true, tags: ['a', 'b'], thumbnailUrl: 'https://cdn.example.com/thumb.jpg',
      },
    },
    expect: ok,
  },
  { name: 'youtube: an unknown privacyStatus is rejected', networks: ['youtube'], body: { containers: [{ media: [vid()] }], youtube: { privacyStatus: 'hidden' } }, expect: bad('youtube.privacyStatus') },
  { name: 'youtube: tags must be an array of strings', networks: ['youtube'], body: { containers: [{ media: [vid()] }], youtube: { tags: ['a', 3] } }, expect: bad('youtube.tags[1]') },
  { name: 'youtube: a thumbnail that is not a URL is rejected', networks: ['youtube'], body: { containers: [{ media: [vid()] }], youtube: { thumbnailUrl: 'not a url' } }, expect: bad('youtube.thumbnailUrl') },
  { name: 'youtube: madeForKids must be a boolean', networks: ['youtube'], body: { containers: [{ media: [vid()] }], youtube: { madeForKids: 'no' } }, expect: bad('youtube.madeForKids') },
];

const tiktokCases: BlockCase[] = [
  { name: 'tiktok: DIRECT_POST with a privacy level is accepted', networks: ['tiktok'], body: { containers: [{ media: [vid()] }], tiktok: { postMode: 'DIRECT_POST', privacyLevel: 'SELF_ONLY', videoCoverTimestampMs: 0 } }, expect: ok },
  { name: 'tiktok: DIRECT_POST without a privacy level is rejected', networks: ['tiktok'], body: { containers: [{ media: [vid()] }], tiktok: { postMode: 'DIRECT_POST' } }, expect: bad('tiktok.privacyLevel') },
  { name: 'tiktok: MEDIA_UPLOAD without a privacy level is accepted', networks: ['tiktok'], body: { containers: [{ media: [vid()] }], tiktok: { postMode: 'MEDIA_UPLOAD' } }, expect: ok },
  { name: 'tiktok: the default post mode needs no privacy level', networks: ['tiktok'], body: { containers: [{ media: [vid()] }], tiktok: { disableDuet: true, disableStitch: true, isAigc: false } }, expect: ok },
  { name: 'tiktok: an unknown postMode is rejected', networks: ['tiktok'], body: { containers: [{ media: [vid()] }], tiktok: { postMode: 'DRAFT' } }, expect: bad('tiktok.postMode') },
  { name: 'tiktok: an unknown privacyLevel is rejected', networks: ['tiktok'], body: { containers: [{ media: [vid()] }], tiktok: { postMode: 'DIRECT_POST', privacyLevel: 'FRIENDS' } }, expect: bad('tiktok.privacyLevel') },
  {
    name: 'tiktok: a 90-character photo title and 4000-character description are accepted',
    networks: ['tiktok'],
    body: { containers: [{ media: [img('a.jpg'), img('b.webp')] }], tiktok: { title: text(90), description: text(4000), autoAddMusic: true } },
    expect: ok,
  },
  { name: 'tiktok: a 91-character title is rejected', networks: ['tiktok'], body: { containers: [{ media: [img()] }], tiktok: { title: text(91) } }, expect: bad('tiktok.title') },
  { name: 'tiktok: 45 emoji (90 UTF-16 units) fit the title', networks: ['tiktok'], body: { containers: [{ media: [img()] }], tiktok: { title: text(45, '😀') } }, expect: ok },
  { name: 'tiktok: 46 emoji (92 UTF-16 units) exceed the title', networks: ['tiktok'], body: { containers: [{ media: [img()] }], tiktok: { title: text(46, '😀') } }, expect: bad('tiktok.title') },
  { name: 'tiktok: a 4001-character description is rejected', networks: ['tiktok'], body: { containers: [{ media: [img()] }], tiktok: { description: text(4001) } }, expect: bad('tiktok.description') },
  { name: 'tiktok: 2001 emoji (4002 UTF-16 units) exceed the description', networks: ['tiktok'], body: { containers: [{ media: [img()] }], tiktok: { description: text(2001, '😀') } }, expect: bad('tiktok.description') },
  { name: 'tiktok: a negative cover timestamp is rejected', networks: ['tiktok'], body: { containers: [{ media: [vid()] }], tiktok: { videoCoverTimestampMs: -1 } }, expect: bad('tiktok.videoCoverTimestampMs') },
  { name: 'tiktok: a fractional cover timestamp is rejected', networks: ['tiktok'], body: { containers: [{ media: [vid()] }], tiktok: { videoCoverTimestampMs: 1.5 } }, expect: bad('tiktok.videoCoverTimestampMs') },
  { name: 'tiktok: disclosure toggles must be booleans', networks: ['tiktok'], body: { containers: [{ media: [vid()] }], tiktok: { brandContentToggle: 'yes' } }, expect: bad('tiktok.brandContentToggle') },
];

const gbp = (block: Record<string, unknown>): Record<string, unknown> => ({ content: 'Come visit', google_business: block });

const googleBusinessCases: BlockCase[] = [
  { name: 'google_business: a STANDARD post is accepted', networks: ['google_business'], body: gbp({ topicType: 'STANDARD' }), expect: ok },
  { name: 'google_business: an EVENT with a full event is accepted', networks: ['google_business'], body: gbp({ topicType: 'EVENT', event }), expect: ok },
  { name: 'google_business: an EVENT without event is rejected', networks: ['google_business'], body: gbp({ topicType: 'EVENT' }), expect: bad('google_business.event') },
  { name: 'google_business: an OFFER without event is rejected', networks: ['google_business'], body: gbp({ topicType: 'OFFER', offer: { couponCode: 'SAVE10' } }), expect: bad('google_business.event') },
  {
    name: 'google_business: an OFFER with event and offer details is accepted',
    networks: ['google_business'],
    body: gbp({ topicType: 'OFFER', event, offer: { couponCode: 'SAVE10', redeemOnlineUrl: 'https://shop.example.com/redeem', termsConditions: 'One per customer' } }),
    expect: ok,
  },
  { name: 'google_business: an event without title is rejected', networks: ['google_business'], body: gbp({ topicType: 'EVENT', event: without(event, 'title') }), expect: bad('google_business.event.title') },
  { name: 'google_business: an event without endTime is rejected', networks: ['google_business'], body: gbp({ topicType: 'EVENT', event: without(event, 'endTime') }), expect: bad('google_business.event.endTime') },
  { name: 'google_business: an event without endDate is rejected', networks: ['google_business'], body: gbp({ topicType: 'EVENT', event: without(event, 'endDate') }), expect: bad('google_business.event.endDate') },
  { name: 'google_business: an event startDate without day is rejected', networks: ['google_business'], body: gbp({ topicType: 'EVENT', event: { ...event, startDate: { year: 2030, month: 5 } } }), expect: bad('google_business.event.startDate.day') },
  { name: 'google_business: an event startTime without minutes is rejected', networks: ['google_business'], body: gbp({ topicType: 'EVENT', event: { ...event, startTime: { hours: 9 } } }), expect: bad('google_business.event.startTime.minutes') },
  { name: 'google_business: event time parts must be numbers', networks: ['google_business'], body: gbp({ topicType: 'EVENT', event: { ...event, startTime: { hours: '9', minutes: 0 } } }), expect: bad('google_business.event.startTime.hours') },
  { name: 'google_business: an unknown topicType is rejected', networks: ['google_business'], body: gbp({ topicType: 'ALERT' }), expect: bad('google_business.topicType') },
  { name: 'google_business: LEARN_MORE with a url is accepted', networks: ['google_business'], body: gbp({ callToAction: { actionType: 'LEARN_MORE', url: 'https://example.com' } }), expect: ok },
  { name: 'google_business: LEARN_MORE without url is rejected', networks: ['google_business'], body: gbp({ callToAction: { actionType: 'LEARN_MORE' } }), expect: bad('google_business.callToAction.url') },
  { name: 'google_business: BOOK without url is rejected', networks: ['google_business'], body: gbp({ topicType: 'STANDARD', callToAction: { actionType: 'BOOK' } }), expect: bad('google_business.callToAction.url') },
  { name: 'google_business: CALL without url is accepted', networks: ['google_business'], body: gbp({ callToAction: { actionType: 'CALL' } }), expect: ok },
  { name: 'google_business: a callToAction without url on an OFFER is ignored, not rejected', networks: ['google_business'], body: gbp({ topicType: 'OFFER', event, callToAction: { actionType: 'SHOP' } }), expect: ok },
  { name: 'google_business: an unknown actionType is rejected', networks: ['google_business'], body: gbp({ callToAction: { actionType: 'GET_OFFER', url: 'https://example.com' } }), expect: bad('google_business.callToAction.actionType') },
  { name: 'google_business: a callToAction without actionType is rejected', networks: ['google_business'], body: gbp({ callToAction: { url: 'https://example.com' } }), expect: bad('google_business.callToAction.actionType') },
  { name: 'google_business: a callToAction url must be a URL', networks: ['google_business'], body: gbp({ callToAction: { actionType: 'ORDER', url: 'order here' } }), expect: bad('google_business.callToAction.url') },
  { name: 'google_business: offer.redeemOnlineUrl must be a URL', networks: ['google_business'], body: gbp({ topicType: 'OFFER', event, offer: { redeemOnlineUrl: 'shop' } }), expect: bad('google_business.offer.redeemOnlineUrl') },
];

const pinterestCases: BlockCase[] = [
  { name: 'pinterest: a pin with board_id is accepted', networks: ['pinterest'], body: { containers: [{ content: 'Pin', media: [img()] }], pinterest }, expect: ok },
  { name: 'pinterest: targeting Pinterest without a block is rejected', networks: ['pinterest'], body: { containers: [{ content: 'Pin', media: [img()] }] }, expect: badWhenTargeted('pinterest.board_id') },
  { name: 'pinterest: a block without board_id is rejected', networks: ['pinterest'], body: { containers: [{ content: 'Pin', media: [img()] }], pinterest: { title: 'Pin' } }, expect: bad('pinterest.board_id') },
  { name: 'pinterest: an empty board_id is rejected', networks: ['pinterest'], body: { containers: [{ content: 'Pin', media: [img()] }], pinterest: { board_id: '' } }, expect: bad('pinterest.board_id') },
  {
    name: 'pinterest: a 100-character title and 500-character alt text are accepted',
    networks: ['pinterest'],
    body: { containers: [{ content: 'Pin', media: [img()] }], pinterest: { ...pinterest, title: text(100), alt_text: text(500), link: 'https://example.com/p' } },
    expect: ok,
  },
  { name: 'pinterest: a 101-character title is rejected', networks: ['pinterest'], body: { containers: [{ content: 'Pin', media: [img()] }], pinterest: { ...pinterest, title: text(101) } }, expect: bad('pinterest.title') },
  { name: 'pinterest: a 501-character alt text is rejected', networks: ['pinterest'], body: { containers: [{ content: 'Pin', media: [img()] }], pinterest: { ...pinterest, alt_text: text(501) } }, expect: bad('pinterest.alt_text') },
  { name: 'pinterest: a link that is not a URL is rejected', networks: ['pinterest'], body: { containers: [{ content: 'Pin', media: [img()] }], pinterest: { ...pinterest, link: 'example.com' } }, expect: bad('pinterest.link') },
  {
    name: 'pinterest: a video pin with a cover image is accepted',
    networks: ['pinterest'],
    body: { containers: [{ content: 'Video pin', media: [vid()] }], pinterest: { ...pinterest, cover_image_url: 'https://cdn.example.com/cover.jpg' } },
    expect: ok,
  },
  { name: 'pinterest: a cover image that is not a URL is rejected', networks: ['pinterest'], body: { containers: [{ content: 'Pin', media: [vid()] }], pinterest: { ...pinterest, cover_image_url: 'cover' } }, expect: bad('pinterest.cover_image_url') },
];

const vimeoCases: BlockCase[] = [
  {
    name: 'vimeo: title, description and privacy settings are accepted',
    networks: ['vimeo'],
    body: { containers: [{ media: [vid()] }], vimeo: { title: 'Film', description: 'About it', privacyView: 'unlisted', privacyEmbed: 'whitelist' } },
    expect: ok,
  },
  { name: 'vimeo: an unknown privacyView is rejected', networks: ['vimeo'], body: { containers: [{ media: [vid()] }], vimeo: { privacyView: 'public' } }, expect: bad('vimeo.privacyView') },
  { name: 'vimeo: an unknown privacyEmbed is rejected', networks: ['vimeo'], body: { containers: [{ media: [vid()] }], vimeo: { privacyEmbed: 'anybody' } }, expect: bad('vimeo.privacyEmbed') },
  { name: 'vimeo: title must be a string', networks: ['vimeo'], body: { containers: [{ media: [vid()] }], vimeo: { title: 7 } }, expect: bad('vimeo.title') },
];

const redditCases: BlockCase[] = [
  { name: 'reddit: a text post with subreddit and title is accepted', networks: ['reddit'], body: { content: 'Body', reddit: { ...reddit, nsfw: false, spoiler: false, sendReplies: true } }, expect: ok },
  { name: 'reddit: a link post is accepted', networks: ['reddit'], body: { content: 'Ignored', reddit: { ...reddit, url: 'https://example.com/article' } }, expect: ok },
  { name: 'reddit: a user-profile subreddit is accepted', networks: ['reddit'], body: { content: 'Body', reddit: { subreddit: 'u_someone', title: 'Hello' } }, expect: ok },
  { name: 'reddit: targeting Reddit without a block is rejected', networks: ['reddit'], body: { content: 'Body' }, expect: badWhenTargeted('reddit.subreddit', 'reddit.title') },
  { name: 'reddit: a block without title is rejected', networks: ['reddit'], body: { content: 'Body', reddit: { subreddit: 'typescript' } }, expect: bad('reddit.title') },
  { name: 'reddit: a block without subreddit is rejected', networks: ['reddit'], body: { content: 'Body', reddit: { title: 'Hello' } }, expect: bad('reddit.subreddit') },
  { name: 'reddit: an empty subreddit is rejected', networks: ['reddit'], body: { content: 'Body', reddit: { ...reddit, subreddit: '' } }, expect: bad('reddit.subreddit') },
  { name: 'reddit: a subreddit with the r/ prefix is rejected', networks: ['reddit'], body: { content: 'Body', reddit: { ...reddit, subreddit: 'r/typescript' } }, expect: bad('reddit.subreddit') },
  { name: 'reddit: an empty title is rejected', networks: ['reddit'], body: { content: 'Body', reddit: { ...reddit, title: '' } }, expect: bad('reddit.title') },
  { name: 'reddit: a 300-character title is accepted', networks: ['reddit'], body: { content: 'Body', reddit: { ...reddit, title: text(300) } }, expect: ok },
  { name: 'reddit: a 301-character title is rejected', networks: ['reddit'], body: { content: 'Body', reddit: { ...reddit, title: text(301) } }, expect: bad('reddit.title') },
  { name: 'reddit: a 64-character flair text is accepted', networks: ['reddit'], body: { content: 'Body', reddit: { ...reddit, flairId: 'f1', flairText: text(64) } }, expect: ok },
  { name: 'reddit: a 65-character flair text is rejected', networks: ['reddit'], body: { content: 'Body', reddit: { ...reddit, flairText: text(65) } }, expect: bad('reddit.flairText') },
  { name: 'reddit: a url that is not a URL is rejected', networks: ['reddit'], body: { content: 'Body', reddit: { ...reddit, url: 'example' } }, expect: bad('reddit.url') },
  { name: 'reddit: nsfw must be a boolean', networks: ['reddit'], body: { content: 'Body', reddit: { ...reddit, nsfw: 'yes' } }, expect: bad('reddit.nsfw') },
  { name: 'reddit: media in the root container is rejected', networks: ['reddit'], body: { containers: [{ content: 'Body', media: [img()] }], reddit }, expect: badWhenTargeted('containers[0].media') },
  { name: 'reddit: media in a reply container is rejected', networks: ['reddit'], body: { containers: [{ content: 'Body' }, { media: [vid()] }], reddit }, expect: badWhenTargeted('containers[1].media') },
  { name: 'reddit: media is rejected in a cross-post that targets Reddit', networks: ['reddit', 'x'], body: { containers: [{ content: 'Body', media: [img()] }], reddit }, expect: badWhenTargeted('containers[0].media') },
];

// Every URL that Crier or a network fetches (media, covers, thumbnails, article cards) must be https and
// not a literal private, loopback, link-local or metadata address however it is spelt, like the guarded
// client's rules at connect time (the spec allows http for facebook.videoCoverUrl: https only, stricter).
const UNFETCHABLE_URLS = [
  'http://cdn.example.com/cover.jpg', 'http://169.254.169.254/latest/cover.jpg', 'https://169.254.169.254/cover.jpg',
  'http://[::1]/cover.jpg', 'https://[::1]/cover.jpg', 'https://2130706433/cover.jpg', 'https://0x7f.1/cover.jpg',
  'https://[::ffff:127.0.0.1]/cover.jpg', 'https://10.0.0.5/cover.jpg', 'https://[fd00::1]/cover.jpg',
  'https://user:secret@cdn.example.com/cover.jpg', 'cover.jpg',
];

const FETCHED_URL_FIELDS: { field: string; network: NetworkId; body: (url: string) => Record<string, unknown> }[] = [
  { field: 'containers[0].media[0].url', network: 'x', body: (url) => ({ containers: [{ media: [{ url, filename: 'cover.jpg' }] }] }) },
  { field: 'youtube.thumbnailUrl', network: 'youtube', body: (url) => ({ containers: [{ media: [vid()] }], youtube: { thumbnailUrl: url } }) },
  { field: 'instagram.reelCoverUrl', network: 'instagram', body: (url) => ({ containers: [{ content: 'Reel', media: [vid()] }], instagram: { reelCoverUrl: url } }) },
  { field: 'facebook.videoCoverUrl', network: 'facebook', body: (url) => ({ containers: [{ content: 'Video', media: [vid()] }], facebook: { videoCoverUrl: url } }) },
  { field: 'linkedin.article.source', network: 'linkedin', body: (url) => ({ content: 'Read', linkedin: { article: { source: url } } }) },
  { field: 'linkedin.article.thumbnailUrl', network: 'linkedin', body: (url) => ({ content: 'Read', linkedin: { article: { source: 'https://blog.example.com/p', thumbnailUrl: url } } }) },
  { field: 'pinterest.cover_image_url', network: 'pinterest', body: (url) => ({ containers: [{ content: 'Pin', media: [vid()] }], pinterest: { ...pinterest, cover_image_url: url } }) },
];

const fetchedUrlCases: BlockCase[] = [
  ...FETCHED_URL_FIELDS.flatMap(({ field, network, body }) => UNFETCHABLE_URLS.map((url): BlockCase => ({
    name: `${field}: ${url} is refused, it is not a public https URL`, networks: [network], body: body(url), expect: bad(field),
  }))),
  // Links nobody on our side fetches (a destination, a call to action) stay plain http(s) links.
  { name: 'links: reddit.url may be any http link', networks: ['reddit'], body: { content: 'Body', reddit: { ...reddit, url: 'http://10.0.0.5/page' } }, expect: ok },
  { name: 'links: pinterest.link may be any http link', networks: ['pinterest'], body: { containers: [{ content: 'Pin', media: [img()] }], pinterest: { ...pinterest, link: 'http://192.168.1.2/p' } }, expect: ok },
  {
    name: 'links: a call to action and an offer may use any http link',
    networks: ['google_business'],
    body: gbp({ topicType: 'OFFER', event, callToAction: { actionType: 'SHOP', url: 'http://127.0.0.1/shop' }, offer: { redeemOnlineUrl: 'http://127.0.0.1/redeem' } }),
    expect: ok,
  },
];

const crossNetworkCases: BlockCase[] = [
  {
    name: 'cross-post: text networks, each with its own override or required fields, are accepted',
    networks: ['x', 'bluesky', 'threads', 'linkedin', 'facebook', 'google_business', 'reddit'],
    body: {
      containers: [{ content: 'Shared text' }, { content: 'A reply' }],
      x: { content: 'For X' }, bluesky: { content: 'For Bluesky' }, threads: { content: 'For Threads' },
      linkedin: { content: 'For LinkedIn' }, facebook: { content: 'For Facebook' },
      google_business: { topicType: 'STANDARD' }, reddit,
    },
    expect: ok,
  },
  {
    name: 'cross-post: one video to every network that takes a video is accepted',
    networks: ['x', 'threads', 'linkedin', 'facebook', 'instagram', 'youtube', 'tiktok', 'pinterest', 'vimeo'],
    body: {
      containers: [{ content: 'Shared text', media: [vid()] }],
      instagram: { caption: 'For Instagram' }, youtube: { title: 'Title', privacyStatus: 'public' },
      tiktok: { postMode: 'DIRECT_POST', privacyLevel: 'PUBLIC_TO_EVERYONE' }, pinterest, vimeo: { title: 'Title' },
    },
    expect: ok,
  },
  {
    // Target rules (no pinterest or reddit block) and a block rule (tiktok) together: all reported.
    name: 'cross-post: problems on several networks are all reported',
    networks: ['pinterest', 'reddit', 'tiktok'],
    body: { content: 'Body', tiktok: { postMode: 'DIRECT_POST' } },
    expect: { status: 400, fields: ['pinterest.board_id', 'reddit.subreddit', 'reddit.title', 'tiktok.privacyLevel'] },
  },
  {
    name: 'cross-post: a block rule of a network not targeted is reported beside a targeted network\'s problem',
    networks: ['threads'],
    body: { content: text(501), tiktok: { postMode: 'DIRECT_POST' } },
    expect: { status: 400, fields: ['containers[0].content', 'tiktok.privacyLevel'] },
  },
];

/**
 * Each scoped 400 case again, sent to an account of another network only, one that can publish what
 * the case carries (linkedin: any media in the first container; x: media in replies too, one video
 * per container): a block rule must refuse the block just the same — a tiktok.title of 91 characters
 * was once stored on a bluesky post — and a target rule must let it through.
 */
function withUntargetedTwins(cases: BlockCase[]): BlockCase[] {
  return cases.flatMap((c): BlockCase[] => {
    if (c.expect.status !== 400 || c.expect.scope === undefined) return [c];
    const other = untargetedTwinNetwork(c);
    const twin: BlockCase = c.expect.scope === 'block'
      ? { ...c, name: `${c.name}, even when only ${other} is targeted`, networks: [other], expect: { status: 400, fields: c.expect.fields } }
      : { ...c, name: `${c.name} only when targeted: accepted when only ${other} is`, networks: [other], expect: ok };
    return [c, twin];
  });
}

function untargetedTwinNetwork(c: BlockCase): NetworkId {
  const containers = ((c.body as { containers?: { media?: unknown[] }[] }).containers ?? []);
  const mediaInReplies = containers.slice(1).some((container) => container.media?.length);
  return mediaInReplies || c.networks.includes('linkedin') ? 'x' : 'linkedin';
}

export const blockCases: BlockCase[] = withUntargetedTwins([
  ...contentCases, ...xBlueskyCases, ...threadsCases, ...instagramCases, ...facebookCases, ...linkedinCases,
  ...youtubeCases, ...tiktokCases, ...googleBusinessCases, ...pinterestCases, ...vimeoCases, ...redditCases,
  ...fetchedUrlCases, ...crossNetworkCases,
]);
