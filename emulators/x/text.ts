// X's weighted character count, approximated without the twitter-text package (not installed):
//  - text is NFC-normalised first;
//  - every URL counts 23 (t.co), whatever its length: http(s)://… and bare domains on common TLDs;
//  - an emoji (one grapheme cluster, however many code points) counts 2;
//  - other code points count 1 inside twitter-text's light ranges (U+0000–U+10FF, U+2000–U+200D,
//    U+2010–U+201F, U+2032–U+2037: Latin, Greek, Cyrillic, Hebrew, Arabic, Indic, Thai,
//    Georgian…, general punctuation) and 2 elsewhere (CJK, Hangul, symbols…).
// Differences from twitter-text: its full TLD list and URL grammar are not reproduced, so an
// unusual bare domain counts by its characters instead of 23.

export const MAX_WEIGHTED_LENGTH = 280;
export const URL_WEIGHT = 23;

const URL_PATTERN =
  /\bhttps?:\/\/[^\s]+|\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:com|org|net|io|co|dev|app|ai|me|ly|tv|gg|xyz|info|edu|gov|uk|de|fr|es|it|nl|jp|ca|au)\b(?:\/[^\s]*)?/giu;
const LIGHT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

export function weightedLength(input: string): number {
  const text = input.normalize('NFC');
  let total = 0;
  let rest = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    rest += text.slice(last, match.index);
    total += URL_WEIGHT;
    last = match.index + match[0].length;
  }
  rest += text.slice(last);
  for (const { segment } of graphemes.segment(rest)) {
    if (EMOJI.test(segment)) {
      total += 2;
      continue;
    }
    for (const char of segment) total += isLight(char.codePointAt(0) ?? 0) ? 1 : 2;
  }
  return total;
}

function isLight(codePoint: number): boolean {
  return LIGHT_RANGES.some(([from, to]) => codePoint >= from && codePoint <= to);
}
