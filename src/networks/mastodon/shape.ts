// Mastodon's judgement: what an instance cannot publish, judged from the post alone. The adapter
// refuses it before any call with the instance's own limits (GET /api/v2/instance, instance.ts); a dry
// run reports it and shows the post as Mastodon counts it (measure) with a default instance's limits;
// the create refuses only what no instance takes (a poll beside media, an empty status).
//
// How Mastodon counts (https://docs.joinmastodon.org/user/posting/#text, and StatusLengthValidator in
// mastodon/mastodon app/validators/status_length_validator.rb): the content warning and the text
// together, in grapheme clusters, every http(s) link as 23 characters whatever its length
// (`configuration.statuses.characters_reserved_per_url`), and a mention of a remote account as its
// local part only (`@alice@example.social` counts as `@alice`).
import type { JudgedWhen, MeasuredPart, MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';
import { mediaOf, overLimit, rootTextOf } from '../measure.ts';
import type { MastodonBlock } from './options.ts';

/** What an instance takes (its `configuration` in GET /api/v2/instance: https://docs.joinmastodon.org/entities/Instance/#configuration). */
export interface InstanceLimits {
  maxCharacters: number;
  charactersPerUrl: number;
  maxMedia: number;
  poll: { maxOptions: number; maxCharactersPerOption: number; minExpiration: number; maxExpiration: number };
  /** Bytes. */
  imageSizeLimit: number;
  videoSizeLimit: number;
}

/** A default Mastodon 4 instance (the Instance entity's example: https://docs.joinmastodon.org/entities/Instance/#example). */
export const DEFAULT_LIMITS: InstanceLimits = {
  maxCharacters: 500,
  charactersPerUrl: 23,
  maxMedia: 4,
  poll: { maxOptions: 4, maxCharactersPerOption: 50, minExpiration: 300, maxExpiration: 2_629_746 },
  imageSizeLimit: 16_777_216,
  videoSizeLimit: 103_809_024,
};

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (text: string): number => [...segmenter.segment(text)].length;

/** A link as Mastodon's extractor finds it (a scheme required), without the punctuation that ends a sentence. */
const URL_PATTERN = /https?:\/\/[^\s<>"]+?(?=[.,!?:;)\]'"]*(?:\s|$))/gi;
/** A mention (Account::MENTION_RE): `@user` or `@user@domain`, not inside a word or a path. */
const MENTION_PATTERN = /(^|[^/\w])@([a-z0-9_]+(?:[a-z0-9_.-]+[a-z0-9_]+)?)(?:@[\w.-]+\w)?/gi;

/** The text as Mastodon counts it: links as `charactersPerUrl` characters, mentions as their local part. */
export function countableText(text: string, charactersPerUrl: number): string {
  return text.replace(URL_PATTERN, 'x'.repeat(charactersPerUrl)).replace(MENTION_PATTERN, (_m, before: string, local: string) => `${before}@${local}`);
}

const blockOf = (post: PreflightPost): MastodonBlock => (post.block ?? {}) as MastodonBlock;

/** The text each container is sent with: the root's is the block's `content` when set. */
export const textsOf = (post: PreflightPost): string[] => post.containers.map((container, i) => (i === 0 ? rootTextOf(post) : container.content));

/** Every container a status of the thread, counted as the instance counts it (with the content warning). */
export function measureWith(post: PreflightPost, limits: InstanceLimits): MeasuredPost {
  const spoiler = blockOf(post).spoilerText ?? '';
  const texts = textsOf(post);
  return {
    parts: post.containers.map((container, i): MeasuredPart => {
      const counted = countableText(texts[i]!, limits.charactersPerUrl);
      const note = [spoiler ? 'counted with its content warning' : '', counted !== texts[i] ? `links counted as ${limits.charactersPerUrl} characters, mentions as their local part` : '']
        .filter(Boolean).join('; ');
      return {
        role: i === 0 ? 'post' : 'reply',
        text: texts[i]!,
        length: graphemes(spoiler + counted),
        limit: limits.maxCharacters,
        unit: 'graphemes',
        media: mediaOf(container),
        ...(note ? { note } : {}),
      };
    }),
    leftOut: 0,
  };
}

export const measure = (post: PreflightPost): MeasuredPost => measureWith(post, DEFAULT_LIMITS);

export function judge(post: PreflightPost, when: JudgedWhen = 'publish'): void {
  judgeWith(post, DEFAULT_LIMITS, when);
}

/**
 * What no instance takes (media that is neither image nor video, a poll beside media, an empty
 * status), then, except at create (an instance may take more than the default), the counts and
 * lengths `limits` allow.
 */
export function judgeWith(post: PreflightPost, limits: InstanceLimits, when: JudgedWhen = 'publish'): void {
  const poll = blockOf(post).poll;
  const texts = textsOf(post);
  post.containers.forEach((container, i) => {
    for (const m of container.media) {
      if (mediaKind(m.filename) === 'other') throw refused(`${m.filename} is neither an image nor a video; Crier publishes images and videos to Mastodon`);
    }
    if (i === 0 && poll && container.media.length) throw refused('the root carries media and the mastodon block a poll; Mastodon takes media or a poll on a status, not both');
    if (!container.media.length && !texts[i]!.trim()) throw refused(`container ${i + 1} has neither text nor media; Mastodon publishes no empty status`);
  });
  if (when === 'create') return;
  post.containers.forEach((container, i) => {
    if (container.media.length > limits.maxMedia) throw refused(`container ${i + 1} has ${container.media.length} media; the instance takes ${limits.maxMedia} at most`);
  });
  if (poll) judgePoll(poll, limits.poll);
  measureWith(post, limits).parts.forEach((part, i) => {
    if (overLimit(part)) throw refused(`container ${i + 1} has ${part.length} characters as Mastodon counts them (content warning and text, links as ${limits.charactersPerUrl}); the instance allows ${part.limit}`);
  });
}

function judgePoll(poll: NonNullable<MastodonBlock['poll']>, limits: InstanceLimits['poll']): void {
  if (poll.options.length > limits.maxOptions) throw refused(`the poll has ${poll.options.length} options; the instance takes ${limits.maxOptions} at most`);
  const long = poll.options.find((option) => graphemes(option) > limits.maxCharactersPerOption);
  if (long !== undefined) throw refused(`the poll option "${long}" has ${graphemes(long)} characters; the instance allows ${limits.maxCharactersPerOption} per option`);
  if (new Set(poll.options).size < poll.options.length) throw refused('the poll repeats an option; Mastodon refuses duplicate options');
  if (poll.expiresIn < limits.minExpiration || poll.expiresIn > limits.maxExpiration) {
    throw refused(`the poll closes after ${poll.expiresIn} seconds; the instance takes ${limits.minExpiration} to ${limits.maxExpiration}`);
  }
}

const refused = (why: string) => new PublishError('permanent', `mastodon: ${why}`, undefined, 'invalid');
