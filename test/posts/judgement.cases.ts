// One table of posts per network, each fed to POST /v1/posts?dry_run=true and to a real create that
// publishes on the network's emulator (judgement.test.ts): the dry run's verdict must be publishing's.
// Lengths are at each network's limit (published) and one past it (refused: at create for every
// network but X and Bluesky, whose lengths the spec leaves to publishing), in the network's own
// counting; then wrong media kinds and counts, and media missing where a network needs some.
import type { NetworkId } from '../../src/core/network-id.ts';

/** The media a case can carry: files uploaded to the sandbox, which its emulators fetch. */
export interface CaseMedia {
  image: { url: string; filename: string };
  video: { url: string; filename: string };
  /** Pinterest's board (the sandbox account's first). */
  boardId: string;
}

export interface JudgementCase {
  name: string;
  network: NetworkId;
  /** The create body without `accounts` (the network's sandbox account is added). */
  body(media: CaseMedia): Record<string, unknown>;
  /**
   * `published`: the dry run says ok and the destination publishes. `failed`: the dry run says not ok
   * and publishing fails, both with `reason`. `refused`: the dry run and the create are the same 400,
   * naming `field`, and the network's adapter refuses the post with its judgement before any call.
   */
  expect: { verdict: 'published' } | { verdict: 'failed'; reason: string } | { verdict: 'refused'; field: string; reason?: string };
}

const text = (n: number, char = 'a') => char.repeat(n);
/** A URL of 60 characters, which X counts as 23. */
const LONG_URL = `https://example.com/${'p'.repeat(40)}`;
const published = { verdict: 'published' } as const;
const failed = (reason: string) => ({ verdict: 'failed', reason }) as const;
const refused = (field: string, reason?: string) => ({ verdict: 'refused', field, ...(reason ? { reason } : {}) }) as const;
const TARGET = 'socialAccounts[0]';

const xCases: JudgementCase[] = [
  { name: 'x: 280 characters publish', network: 'x', body: () => ({ content: text(280) }), expect: published },
  {
    name: 'x: 349 characters fail, in the dry run as when publishing (issue 33)',
    network: 'x',
    body: () => ({ content: text(349) }),
    expect: failed('x: container 1 is 349 characters as X counts them; X allows 280 (links count 23, most CJK characters and every emoji 2)'),
  },
  { name: 'x: 140 CJK characters weigh 280 and publish', network: 'x', body: () => ({ content: text(140, '日') }), expect: published },
  {
    name: 'x: 141 CJK characters weigh 282 and fail',
    network: 'x',
    body: () => ({ content: text(141, '日') }),
    expect: failed('x: container 1 is 282 characters as X counts them; X allows 280 (links count 23, most CJK characters and every emoji 2)'),
  },
  { name: 'x: a 60-character link counts 23 (256 + space + link = 280) and publishes', network: 'x', body: () => ({ content: `${text(256)} ${LONG_URL}` }), expect: published },
  {
    name: 'x: a reply over the limit fails the thread, naming its container',
    network: 'x',
    body: () => ({ containers: [{ content: 'root' }, { content: text(281) }] }),
    expect: failed('x: container 2 is 281 characters as X counts them; X allows 280 (links count 23, most CJK characters and every emoji 2)'),
  },
  { name: 'x: five images are refused at create', network: 'x', body: (m) => ({ containers: [{ content: 'five', media: [m.image, m.image, m.image, m.image, m.image] }] }), expect: refused(TARGET, 'x: container 1 has 5 media; X allows up to 4 images or 1 video per post') },
];

const blueskyCases: JudgementCase[] = [
  { name: 'bluesky: 300 graphemes publish', network: 'bluesky', body: () => ({ content: text(300) }), expect: published },
  { name: 'bluesky: 349 graphemes fail (issue 33)', network: 'bluesky', body: () => ({ content: text(349) }), expect: failed('bluesky: container 1 has 349 characters (graphemes); Bluesky allows 300') },
  { name: 'bluesky: 300 family emoji are 300 graphemes but 5,400 bytes, and fail', network: 'bluesky', body: () => ({ content: text(300, '👩‍👩‍👧') }), expect: failed('bluesky: container 1 is 5400 bytes in UTF-8; Bluesky allows 3000') },
  { name: 'bluesky: an override over the limit fails', network: 'bluesky', body: () => ({ content: 'short', bluesky: { content: text(301) } }), expect: failed('bluesky: container 1 has 301 characters (graphemes); Bluesky allows 300') },
  { name: 'bluesky: a video is refused at create', network: 'bluesky', body: (m) => ({ containers: [{ content: 'clip', media: [m.video] }] }), expect: refused(TARGET) },
];

const threadsCases: JudgementCase[] = [
  { name: 'threads: 500 characters publish', network: 'threads', body: () => ({ content: text(500) }), expect: published },
  { name: 'threads: 501 characters are refused at create (the spec)', network: 'threads', body: () => ({ content: text(501) }), expect: refused('containers[0].content') },
];

const linkedinCases: JudgementCase[] = [
  { name: 'linkedin: 3,000 characters publish', network: 'linkedin', body: () => ({ content: text(3000) }), expect: published },
  { name: 'linkedin: 3,001 characters are refused at create', network: 'linkedin', body: () => ({ content: text(3001) }), expect: refused(TARGET, 'linkedin: the post\'s text is 3001 characters; LinkedIn takes up to 3000') },
];

const facebookCases: JudgementCase[] = [
  { name: 'facebook: 63,206 characters publish', network: 'facebook', body: () => ({ content: text(63_206) }), expect: published },
  { name: 'facebook: 63,207 characters are refused at create', network: 'facebook', body: () => ({ content: text(63_207) }), expect: refused(TARGET, 'facebook: the post\'s text is 63207 characters; Facebook takes up to 63206') },
];

const instagramCases: JudgementCase[] = [
  { name: 'instagram: an image with a 2,200-character caption publishes', network: 'instagram', body: (m) => ({ containers: [{ content: text(2200), media: [m.image] }] }), expect: published },
  { name: 'instagram: a 2,201-character caption is refused at create', network: 'instagram', body: (m) => ({ containers: [{ content: text(2201), media: [m.image] }] }), expect: refused(TARGET, 'instagram: the caption is 2201 characters; Instagram takes up to 2200') },
  { name: 'instagram: a text alone is refused at create', network: 'instagram', body: () => ({ content: 'words' }), expect: refused(TARGET, 'instagram: Instagram needs an image or a video in the first container') },
];

const googleBusinessCases: JudgementCase[] = [
  { name: 'google_business: 1,500 characters publish', network: 'google_business', body: () => ({ content: text(1500) }), expect: published },
  { name: 'google_business: 1,501 characters are refused at create', network: 'google_business', body: () => ({ content: text(1501) }), expect: refused('containers[0].content') },
];

const redditCases: JudgementCase[] = [
  { name: 'reddit: a 300-character title and a 40,000-character text publish', network: 'reddit', body: () => ({ content: text(40_000), reddit: { subreddit: 'crier_sandbox', title: text(300) } }), expect: published },
  { name: 'reddit: a 40,001-character text is refused at create', network: 'reddit', body: () => ({ content: text(40_001), reddit: { subreddit: 'crier_sandbox', title: 'T' } }), expect: refused(TARGET, 'reddit: the post\'s text is 40001 characters; Reddit takes up to 40000') },
];

const pinterestCases: JudgementCase[] = [
  { name: 'pinterest: an image with an 800-character description publishes', network: 'pinterest', body: (m) => ({ containers: [{ content: text(800), media: [m.image] }], pinterest: { board_id: m.boardId } }), expect: published },
  { name: 'pinterest: an 801-character description is refused at create', network: 'pinterest', body: (m) => ({ containers: [{ content: text(801), media: [m.image] }], pinterest: { board_id: m.boardId } }), expect: refused('containers[0].content') },
  { name: 'pinterest: a text alone is refused at create', network: 'pinterest', body: (m) => ({ content: 'words', pinterest: { board_id: m.boardId } }), expect: refused(TARGET, 'pinterest: a pin needs an image or a video in the first container') },
];

const tiktokCases: JudgementCase[] = [
  { name: 'tiktok: a photo with a 90-unit title publishes', network: 'tiktok', body: (m) => ({ containers: [{ content: 'photo', media: [m.image] }], tiktok: { title: text(90) } }), expect: published },
  { name: 'tiktok: a 91-unit title is refused at create', network: 'tiktok', body: (m) => ({ containers: [{ content: 'photo', media: [m.image] }], tiktok: { title: text(91) } }), expect: refused('tiktok.title') },
  { name: 'tiktok: a text alone is refused at create', network: 'tiktok', body: () => ({ content: 'words' }), expect: refused(TARGET, 'tiktok: a TikTok post needs a video or photos in its first container') },
];

const youtubeCases: JudgementCase[] = [
  { name: 'youtube: a video with a 100-character title publishes', network: 'youtube', body: (m) => ({ containers: [{ content: 'description', media: [m.video] }], youtube: { title: text(100) } }), expect: published },
  { name: 'youtube: a 101-character title is refused at create', network: 'youtube', body: (m) => ({ containers: [{ content: 'description', media: [m.video] }], youtube: { title: text(101) } }), expect: refused('youtube.title') },
  { name: 'youtube: an image is refused at create', network: 'youtube', body: (m) => ({ containers: [{ content: 'photo', media: [m.image] }] }), expect: refused(TARGET) },
  { name: 'youtube: a text alone is refused at create', network: 'youtube', body: () => ({ content: 'words' }), expect: refused(TARGET, 'youtube: a YouTube post is one video in the first container, this one has 0 media') },
];

const vimeoCases: JudgementCase[] = [
  { name: 'vimeo: an image is refused at create', network: 'vimeo', body: (m) => ({ containers: [{ content: 'photo', media: [m.image] }] }), expect: refused(TARGET, 'vimeo: photo.jpg is an image; Vimeo publishes exactly one video') },
  { name: 'vimeo: a text alone is refused at create', network: 'vimeo', body: () => ({ content: 'words' }), expect: refused(TARGET, 'vimeo: the first container has 0 media; Vimeo publishes exactly one video') },
];

export const judgementCases: JudgementCase[] = [
  ...xCases, ...blueskyCases, ...threadsCases, ...linkedinCases, ...facebookCases, ...instagramCases,
  ...googleBusinessCases, ...redditCases, ...pinterestCases, ...tiktokCases, ...youtubeCases, ...vimeoCases,
];
