// POST /2/tweets, DELETE /2/tweets/:id and GET /2/tweets/:id.
import { randomBytes } from 'node:crypto';
import { isPlainObject, jsonBody } from '../../shared/http.ts';
import {
  badQueryValue,
  duplicateContent,
  fieldUnauthorized,
  forbidden,
  invalidRequest,
  notFoundItem,
  quotePostNotAvailable,
  replyNotSummoned,
  replyTargetGone,
  videoTooLong,
} from '../errors.ts';
import { FIELDS_PARAMETER, fieldValues, vocabulariesOf, type FieldVocabulary, type VocabularySetting } from '../validate/description.ts';
import type { XRoute } from './route.ts';
import { includesFor, parseExpansions } from './expansions.ts';
import { createPostSchema, validate } from '../validate/schema.ts';
import { isVideoLike, processingInfo, type XTweet, type XUser, type XWorld } from '../state.ts';
import { MAX_WEIGHTED_LENGTH, weightedLength } from '../text.ts';

const TOO_LONG =
  'Your Tweet text is too long. For more information on how Twitter determines text length see https://github.com/twitter/twitter-text.';
const PREMIUM_MAX_WEIGHTED_LENGTH = 25000;
const ID = /^[0-9]{1,19}$/;


export function tweetRoutes(world: XWorld): XRoute[] {
  const { store } = world;
  return [
    { method: 'POST', url: '/2/tweets', handler: ({ user, body, vocabulary }) => createTweet(world, user, jsonBody(body), vocabulary) },
    {
      method: 'DELETE',
      url: '/2/tweets/:id',
      handler: ({ user, params }) => {
        if (!ID.test(params.id)) return badQueryValue('id', params.id);
        const tweet = store.findTweet(params.id);
        if (!tweet) return { status: 200, body: { data: { deleted: false } } };
        if (tweet.authorId !== user.id) return forbidden('You are not allowed to delete this Tweet.');
        tweet.deleted = true;
        return { status: 200, body: { data: { deleted: true } } };
      },
    },
    {
      method: 'GET',
      url: '/2/tweets/:id',
      handler: ({ user, params, query, vocabulary }) => {
        if (!ID.test(params.id)) return badQueryValue('id', params.id);
        const fields = parseFields(world.fieldVocabulary, query);
        if ('invalid' in fields) return fields.invalid;
        const expanded = parseExpansions(world.fieldVocabulary, query);
        if ('invalid' in expanded) return expanded.invalid;
        const tweet = store.findTweet(params.id);
        if (!tweet) return { status: 200, body: { errors: [notFoundItem('tweet', params.id)] } };
        const problem = privateMetricsProblem(world, tweet, fields.names, user);
        if (problem) return { status: 200, body: { errors: [problem] } };
        return { status: 200, body: { data: renderTweet(world, tweet, fields.names, vocabulary), ...includesFor(world, [tweet], expanded) } };
      },
    },
  ];
}

function createTweet(world: XWorld, user: XUser, body: unknown, vocabulary: FieldVocabulary) {
  const { store, clock } = world;
  if (!isPlainObject(body)) return invalidRequest({ message: 'Request body must be a JSON object.' });
  const schemaErrors = validate(createPostSchema, body);
  if (schemaErrors.length > 0) return invalidRequest(...schemaErrors);
  if (body.edit_options !== undefined) {
    return invalidRequest({ parameters: { edit_options: [] }, message: 'Editing posts is not emulated.' });
  }
  // Quote posts left the self-serve plans on 20 Apr 2026 (changelog of 16 Apr 2026; create-post page).
  if (body.quote_tweet_id !== undefined && user.plan === 'self_serve') return quotePostNotAvailable();
  const text = (body.text as string | undefined) ?? '';
  const mediaIds = ((body.media as { media_ids?: string[] } | undefined)?.media_ids) ?? [];
  if (text.trim() === '' && mediaIds.length === 0 && body.poll === undefined) {
    return invalidRequest({ parameters: { text: [text] }, message: 'Post text is required unless media or a poll is attached.' });
  }
  const limit = user.premium ? PREMIUM_MAX_WEIGHTED_LENGTH : MAX_WEIGHTED_LENGTH;
  if (weightedLength(text) > limit) return invalidRequest({ parameters: { text: [text] }, message: TOO_LONG });

  const replyTo = (body.reply as { in_reply_to_tweet_id?: string } | undefined)?.in_reply_to_tweet_id;
  const parent = replyTo === undefined ? undefined : store.findTweet(replyTo);
  if (replyTo !== undefined && !parent) return replyTargetGone();
  if (parent && !summoned(world, user, parent)) return replyNotSummoned();

  const mediaProblem = checkMedia(world, user, mediaIds);
  if (mediaProblem) return mediaProblem;

  const since = clock.now() - world.duplicateWindowMs;
  // A window of 0 turns the check off (the publishing bench): no scan of every post stored so far.
  const duplicate = world.duplicateWindowMs > 0 && text !== '' && store.tweets.some(
    (t) => !t.deleted && t.authorId === user.id && t.text === text && Date.parse(t.createdAt) >= since,
  );
  if (duplicate) return duplicateContent();

  const id = store.nextId();
  const tweet: XTweet = {
    id,
    text,
    renderedText: renderText(text),
    authorId: user.id,
    authorUsername: user.username,
    createdAt: clock.iso(),
    conversationId: parent ? parent.conversationId : id,
    inReplyToTweetId: parent?.id,
    inReplyToUserId: parent?.authorId,
    replySettings: body.reply_settings as string | undefined,
    quoteTweetId: body.quote_tweet_id as string | undefined,
    metrics: {},
    mediaIds,
    deleted: false,
    request: body,
  };
  store.tweets.push(tweet);
  return { status: 201, body: { data: { id, text: tweet.renderedText, [editHistoryKey(vocabulary)]: [id] } } };
}

/**
 * The reply rule of self-serve plans (X changelog, 23 Feb 2026): a reply through the API is accepted
 * when the post answered is the user's own (threads), @mentions the user, or quotes one of the user's
 * posts. Enterprise apps are exempt.
 */
function summoned(world: XWorld, user: XUser, parent: XTweet): boolean {
  if (user.plan === 'enterprise' || parent.authorId === user.id) return true;
  const mention = new RegExp(`(^|[^A-Za-z0-9_])@${user.username}(?![A-Za-z0-9_])`, 'i');
  if (mention.test(parent.text)) return true;
  const quoted = parent.quoteTweetId === undefined ? undefined : world.store.tweets.find((t) => t.id === parent.quoteTweetId);
  return quoted?.authorId === user.id;
}

/** Media must be the user's own (or shared with them), finalized, processed and unexpired. */
function checkMedia(world: XWorld, user: XUser, ids: string[]) {
  const media = ids.map((id) => world.store.media.get(id));
  const invalid = ids.filter((_id, i) => {
    const m = media[i];
    if (!m || !m.finalized || world.store.mediaExpiresInSecs(m) === 0) return true;
    if (m.ownerId !== user.id && !m.additionalOwners.includes(user.id)) return true;
    const info = processingInfo(world, m);
    return info !== undefined && info.state !== 'succeeded';
  });
  if (invalid.length > 0) {
    return invalidRequest({ parameters: { 'media.media_ids': invalid }, message: 'Your media IDs are invalid.' });
  }
  // Up to 4 photos, or exactly one GIF or video.
  if (ids.length > 1 && media.some((m) => m && isVideoLike(m.category))) {
    return invalidRequest({
      parameters: { 'media.media_ids': ids },
      message: 'The Tweet exceeds the number of allowed attachment types.',
    });
  }
  const capMinutes = user.premium ? PREMIUM_VIDEO_MINUTES : VIDEO_MINUTES;
  const tooLong = media.some((m) => m && CAPPED_VIDEO.has(m.category) && (m.videoMs ?? 0) > capMinutes * 60_000);
  return tooLong ? videoTooLong(capMinutes) : undefined;
}

/**
 * The video cap checked when a post attaches a video, by the posting user's Premium / verified status,
 * for `tweet_video` and `amplify_video` (docs.x.com/x-api/posts/create-post, "Media attachments").
 */
const VIDEO_MINUTES = 20;
const PREMIUM_VIDEO_MINUTES = 125;
const CAPPED_VIDEO = new Set(['tweet_video', 'amplify_video']);

/** X returns text HTML-escaped, with every link rewritten to a t.co URL. */
export function renderText(text: string): string {
  const escaped = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return escaped.replace(/\bhttps?:\/\/[^\s]+/giu, () => `https://t.co/${tcoId()}`);
}

const TCO_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function tcoId(): string {
  return [...randomBytes(10)].map((b) => TCO_ALPHABET[b % TCO_ALPHABET.length]).join('');
}

/**
 * The fields asked for, by the fields parameter of each vocabulary the emulator accepts, each checked
 * against that vocabulary's values in X's description.
 */
export function parseFields(setting: VocabularySetting, query: Record<string, string | undefined>): { names: Set<string> } | { invalid: ReturnType<typeof invalidRequest> } {
  const names = new Set<string>();
  for (const vocabulary of vocabulariesOf(setting)) {
    const parameter = FIELDS_PARAMETER[vocabulary];
    const asked = (query[parameter] ?? '').split(',').filter((n) => n !== '');
    const known = fieldValues(vocabulary, 'fields');
    const unknown = asked.filter((n) => !known.includes(n));
    if (unknown.length > 0) {
      return {
        invalid: invalidRequest({
          parameters: { [parameter]: unknown },
          message: `The \`${parameter}\` query parameter value [${unknown[0]}] is not one of [${known.join(',')}]`,
        }),
      };
    }
    for (const name of asked) names.add(name);
  }
  return { names };
}

const editHistoryKey = (vocabulary: FieldVocabulary) => (vocabulary === 'post' ? 'edit_history_post_ids' : 'edit_history_tweet_ids');

/** The v2 Tweet object: id, text and edit_history_tweet_ids by default, the rest on request. */
export function renderTweet(world: XWorld, tweet: XTweet, fields: Set<string>, vocabulary: FieldVocabulary): Record<string, unknown> {
  // A long post (Premium) keeps its first characters in `text`; the whole text is in note_tweet (note_post).
  const long = weightedLength(tweet.text) > MAX_WEIGHTED_LENGTH;
  const text = long ? `${[...tweet.renderedText].slice(0, NOTE_PREVIEW_LENGTH).join('')}…` : tweet.renderedText;
  const out: Record<string, unknown> = { id: tweet.id, text, [editHistoryKey(vocabulary)]: [tweet.id] };
  // A field is answered under the name it was asked by: note_tweet or note_post, referenced_tweets or referenced_posts.
  for (const note of ['note_tweet', 'note_post']) if (fields.has(note) && long) out[note] = { text: tweet.renderedText };
  if (fields.has('author_id')) out.author_id = tweet.authorId;
  if (fields.has('created_at')) out.created_at = tweet.createdAt;
  if (fields.has('conversation_id')) out.conversation_id = tweet.conversationId;
  if (fields.has('in_reply_to_user_id') && tweet.inReplyToUserId) out.in_reply_to_user_id = tweet.inReplyToUserId;
  if (fields.has('reply_settings')) out.reply_settings = tweet.replySettings ?? 'everyone';
  const refs = [
    ...(tweet.inReplyToTweetId ? [{ type: 'replied_to', id: tweet.inReplyToTweetId }] : []),
    ...(tweet.quoteTweetId ? [{ type: 'quoted', id: tweet.quoteTweetId }] : []),
    ...(tweet.retweetOfId ? [{ type: 'retweeted', id: tweet.retweetOfId }] : []),
  ];
  for (const key of ['referenced_tweets', 'referenced_posts']) if (fields.has(key) && refs.length > 0) out[key] = refs;
  if (fields.has('attachments') && tweet.mediaIds.length > 0) {
    out.attachments = { media_keys: tweet.mediaIds.map((id) => world.store.media.get(id)?.mediaKey ?? id) };
  }
  if (fields.has('public_metrics')) {
    const replies = world.store.tweets.filter((t) => !t.deleted && t.inReplyToTweetId === tweet.id).length;
    const quotes = world.store.tweets.filter((t) => !t.deleted && t.quoteTweetId === tweet.id).length;
    const m = tweet.metrics;
    out.public_metrics = {
      retweet_count: m.retweet_count ?? 0,
      reply_count: replies,
      like_count: m.like_count ?? 0,
      quote_count: m.quote_count ?? quotes,
      bookmark_count: m.bookmark_count ?? 0,
      impression_count: m.impression_count ?? 0,
    };
  }
  if (fields.has('non_public_metrics')) {
    const m = tweet.metrics;
    out.non_public_metrics = { impression_count: m.impression_count ?? 0, url_link_clicks: m.url_link_clicks ?? 0, user_profile_clicks: m.user_profile_clicks ?? 0, engagements: m.engagements ?? 0 };
  }
  return out;
}

/**
 * Private metrics are for the author's own posts of the last 30 days ("Non-public, organic, and
 * promoted metrics are only available for Posts that have been created within the last 30 days"):
 * the field error X answers otherwise, or undefined when the viewer may read them.
 */
export function privateMetricsProblem(world: XWorld, tweet: XTweet, fields: Set<string>, viewer: XUser) {
  const asked = PRIVATE_FIELDS.filter((f) => fields.has(f));
  if (asked.length === 0) return undefined;
  const tooOld = world.clock.now() - Date.parse(tweet.createdAt) > PRIVATE_METRICS_DAYS * 86_400_000;
  return tweet.authorId !== viewer.id || tooOld ? fieldUnauthorized(asked[0]!, tweet.id) : undefined;
}

const PRIVATE_FIELDS = ['non_public_metrics', 'organic_metrics', 'promoted_metrics'];
const PRIVATE_METRICS_DAYS = 30;
/** How much of a long post `text` keeps (an approximation: X cuts it near 280 characters). */
const NOTE_PREVIEW_LENGTH = 275;
