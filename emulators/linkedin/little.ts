// LinkedIn's "little" text format for post commentary and comments: plain text with mention
// elements @[Name](urn:li:person:…|urn:li:organization:…), hashtags #word, and reserved characters
// that must be backslash-escaped to be plain text: | { } @ [ ] ( ) < > # \ * _ ~ (learn.microsoft.com
// …/shares/little-text-format). The docs do not say what happens to an unescaped one; LinkedIn
// accepts the post (201) and cuts the text at that character, as several clients report (see
// README.md): that is what parse() reproduces. URLs are left alone, as LinkedIn links them.

export interface Mention {
  /** The display name between the brackets, unescaped. */
  name: string;
  urn: string;
  /** Where the name starts in the kept text, and its length. */
  start: number;
  length: number;
}

export interface LittleText {
  /** The little text LinkedIn keeps (and GET returns as commentary): the input up to the cut. */
  kept: string;
  /** The text a reader sees: escapes resolved, mentions as their names, cut at the first stray reserved character. */
  text: string;
  mentions: Mention[];
  hashtags: string[];
  /** True when an unescaped reserved character cut the text short. */
  truncated: boolean;
}

const RESERVED = new Set(['|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '\\', '*', '_', '~']);
const MENTION = /^@\[((?:\\.|[^\]\\])*)\]\((urn:li:(?:person|organization):[A-Za-z0-9_-]+)\)/;
const HASHTAG = /^#([\p{L}\p{N}_]+)/u;
const URL = /^https?:\/\/[^\s]+/;

export function parseLittle(input: string): LittleText {
  let text = '';
  const mentions: Mention[] = [];
  const hashtags: string[] = [];
  let i = 0;
  while (i < input.length) {
    const rest = input.slice(i);
    const url = URL.exec(rest);
    if (url && (i === 0 || /\s/.test(input[i - 1]!))) {
      text += url[0];
      i += url[0].length;
      continue;
    }
    const ch = input[i]!;
    if (ch === '\\' && i + 1 < input.length && RESERVED.has(input[i + 1]!)) {
      text += input[i + 1];
      i += 2;
      continue;
    }
    if (!RESERVED.has(ch)) {
      text += ch;
      i += 1;
      continue;
    }
    const mention = ch === '@' ? MENTION.exec(rest) : null;
    if (mention) {
      const name = mention[1]!.replace(/\\(.)/g, '$1');
      mentions.push({ name, urn: mention[2]!, start: text.length, length: name.length });
      text += name;
      i += mention[0].length;
      continue;
    }
    const hashtag = ch === '#' ? HASHTAG.exec(rest) : null;
    if (hashtag) {
      hashtags.push(hashtag[1]!);
      text += hashtag[0];
      i += hashtag[0].length;
      continue;
    }
    return { kept: input.slice(0, i), text, mentions, hashtags, truncated: true };
  }
  return { kept: input, text, mentions, hashtags, truncated: false };
}
