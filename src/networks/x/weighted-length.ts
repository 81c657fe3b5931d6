// A text's length as X counts it: twitter-text's v3 configuration (twitter/twitter-text
// config/v3.json, parseTweet), which X's API applies to a post's text. The text is NFC-normalized;
// every URL counts as 23 (transformedURLLength: X wraps it in a t.co link); every emoji sequence counts
// as 2 (emojiParsingEnabled, defaultWeight); any other code point counts 1 when it lies in one of the
// light ranges (Latin, Greek, Cyrillic, Hebrew, Arabic, Devanagari... up to U+10FF, and a few spaces
// and punctuation marks) and 2 otherwise (CJK, Hangul, most symbols). The limit is 280.
export const X_MAX_WEIGHTED_LENGTH = 280;
const URL_LENGTH = 23;
const LIGHT_RANGES: readonly [number, number][] = [[0x0000, 0x10ff], [0x2000, 0x200d], [0x2010, 0x201f], [0x2032, 0x2037]];
/**
 * URLs as X links them: with a scheme, without the punctuation that ends a sentence after them.
 * (twitter-text also links bare domains such as "example.com"; counting those as their own length
 * can only under-count by the difference to 23.)
 */
const URL = /https?:\/\/\S+?(?=[.,:;!?'")\]]*(?:\s|$))/gu;
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

export function weightedLength(text: string): number {
  let length = 0;
  let from = 0;
  const normalized = text.normalize('NFC');
  for (const match of normalized.matchAll(URL)) {
    length += plainLength(normalized.slice(from, match.index)) + URL_LENGTH;
    from = match.index + match[0].length;
  }
  return length + plainLength(normalized.slice(from));
}

function plainLength(text: string): number {
  let length = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (EMOJI.test(segment)) {
      length += 2;
      continue;
    }
    for (const char of segment) length += codePointWeight(char.codePointAt(0)!);
  }
  return length;
}

const codePointWeight = (code: number): number => (LIGHT_RANGES.some(([start, end]) => code >= start && code <= end) ? 1 : 2);
