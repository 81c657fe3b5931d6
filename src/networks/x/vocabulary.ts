// X speaks of its posts in two vocabularies. Its prose docs and every API until v2.166 say `tweet`
// (`tweet.fields`, `referenced_tweets`, `note_tweet`); its OpenAPI description since v2.167 (Aug 2026)
// and its own SDK (@xdevplatform/xdk) say `post` (`post.fields`, `referenced_posts`, `note_post`).
// Crier asks in the vocabulary that last worked against this API (per process), starting with
// `tweet`; when X refuses the fields parameter as unknown (400, its invalid-request envelope), the
// read is sent once more in the other vocabulary, which is remembered if X takes it. Answers are
// read in either vocabulary.

export type Vocabulary = 'tweet' | 'post';

const FIELDS_PARAMETER: Record<Vocabulary, string> = { tweet: 'tweet.fields', post: 'post.fields' };

/** The vocabulary that last worked, by API base URL (the sandbox's emulator and X may differ). */
const remembered = new Map<string, Vocabulary>();

export function vocabularyOf(baseUrl: string): Vocabulary {
  return remembered.get(baseUrl) ?? 'tweet';
}

export function remember(baseUrl: string, vocabulary: Vocabulary): void {
  remembered.set(baseUrl, vocabulary);
}

export const otherVocabulary = (vocabulary: Vocabulary): Vocabulary => (vocabulary === 'tweet' ? 'post' : 'tweet');

/**
 * The query parameters naming `fields` (written in the tweet vocabulary) in `vocabulary`:
 * `tweet.fields=referenced_tweets` or `post.fields=referenced_posts`.
 */
export function fieldsParameter(vocabulary: Vocabulary, fields: string[]): Record<string, string> {
  const names = vocabulary === 'tweet' ? fields : fields.map((f) => f.replace(/tweet/g, 'post'));
  return { [FIELDS_PARAMETER[vocabulary]]: names.join(',') };
}

/**
 * X refused the fields parameter of this vocabulary: its invalid-request envelope names it, as an
 * unknown parameter ("The query parameter [tweet.fields] is not one of [id,expansions,post.fields,…]")
 * or for a value it does not know ("The `post.fields` query parameter value [referenced_posts] is
 * not one of […]").
 */
export function refusesVocabulary(status: number, body: unknown, vocabulary: Vocabulary): boolean {
  if (status !== 400 || !body || typeof body !== 'object') return false;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return false;
  const parameter = FIELDS_PARAMETER[vocabulary];
  return errors.some((e: { parameters?: Record<string, unknown>; message?: unknown }) =>
    e && typeof e === 'object' && e.parameters && parameter in e.parameters && typeof e.message === 'string' && /is not one of/.test(e.message));
}

interface PostReferences {
  referenced_tweets?: { type: string; id: string }[];
  referenced_posts?: { type: string; id: string }[];
  note_tweet?: { text?: string };
  note_post?: { text?: string };
}

/** A post as Crier reads it, in the tweet vocabulary whichever one X answered in. */
export function inTweetVocabulary<T extends object>(post: T): T {
  const p = post as T & PostReferences;
  const { referenced_posts: referenced, note_post: note, ...rest } = p;
  return {
    ...rest,
    ...(p.referenced_tweets ?? referenced ? { referenced_tweets: p.referenced_tweets ?? referenced } : {}),
    ...(p.note_tweet ?? note ? { note_tweet: p.note_tweet ?? note } : {}),
  } as T;
}
