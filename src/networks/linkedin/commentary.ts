// LinkedIn's commentary is "little text": `\ | { } @ [ ] ( ) < > # * _ ~` are markup, and an
// unescaped one is parsed as markup — LinkedIn then cuts the published text at it, while answering
// 201. Plain text is backslash-escaped character by character (the parser reads an escaped character
// back as itself, so URLs and punctuation publish unchanged), hashtags stay markup (`#word` is
// LinkedIn's hashtag element, clickable), and each mention becomes `@[text](urn)` at the first
// verbatim occurrence of its text that no other mention took. (A mention whose text is absent was
// refused when the post was created: options.ts.)

export interface Mention {
  urn: string;
  text: string;
}

const RESERVED = /[\\|{}@[\]()<>#*_~]/g;
/** A hashtag element: `#` and the letters and digits after it. */
const HASHTAG = /#[\p{L}\p{N}]+/gu;

export const escapeLittle = (text: string): string => text.replace(RESERVED, (c) => `\\${c}`);

/** `text` as little text, with `mentions` in it. */
export function toCommentary(text: string, mentions: readonly Mention[] = []): string {
  const spans = mentionSpans(text, mentions);
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += plain(text.slice(at, span.start));
    out += `@[${escapeLittle(span.mention.text)}](${span.mention.urn})`;
    at = span.start + span.mention.text.length;
  }
  return out + plain(text.slice(at));
}

/** Escaped text with its hashtags left as hashtags. */
function plain(text: string): string {
  let out = '';
  let at = 0;
  for (const match of text.matchAll(HASHTAG)) {
    out += escapeLittle(text.slice(at, match.index));
    out += match[0];
    at = match.index + match[0].length;
  }
  return out + escapeLittle(text.slice(at));
}

interface Span {
  start: number;
  mention: Mention;
}

/** Where each mention goes, in text order (see placeMentions). */
function mentionSpans(text: string, mentions: readonly Mention[]): Span[] {
  const starts = placeMentions(text, mentions);
  return mentions.flatMap((mention, i) => (starts[i] === undefined ? [] : [{ start: starts[i]!, mention }])).sort((a, b) => a.start - b.start);
}

/**
 * Where each mention's markup starts, by the mention's index; undefined for one that finds no
 * occurrence of its text free (options.ts refuses those at create time). Each takes its text's first
 * occurrence that overlaps no other's; longer texts choose first, so "Sam" cannot take the start of
 * "Sam_Co" from the mention of "Sam_Co".
 */
export function placeMentions(text: string, mentions: readonly Mention[]): (number | undefined)[] {
  const starts: (number | undefined)[] = mentions.map(() => undefined);
  const taken: { start: number; end: number }[] = [];
  const free = (start: number, end: number) => taken.every((t) => end <= t.start || t.end <= start);
  const longestFirst = mentions.map((mention, index) => ({ mention, index })).sort((a, b) => b.mention.text.length - a.mention.text.length);
  for (const { mention, index } of longestFirst) {
    const { text: name } = mention;
    for (let start = text.indexOf(name); start !== -1; start = text.indexOf(name, start + 1)) {
      if (free(start, start + name.length)) {
        taken.push({ start, end: start + name.length });
        starts[index] = start;
        break;
      }
    }
  }
  return starts;
}

/**
 * Little text back to plain text, for posts read from LinkedIn (imports): a mention shows its text,
 * a hashtag template `{hashtag|\#|word}` (how LinkedIn returns hashtags) shows `#word`, and an
 * escaped character shows as itself.
 */
export function fromLittle(commentary: string): string {
  return commentary
    .replace(/\{hashtag\|\\?#\|([^}]*)\}/g, (_m, tag: string) => `#${tag}`)
    .replace(/@\[((?:\\.|[^\]\\])*)\]\(urn:li:[^)]*\)/g, (_m, text: string) => text)
    .replace(/\\(.)/g, '$1');
}
