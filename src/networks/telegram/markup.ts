// A text as Telegram receives it with a parse mode: the markup read the way the Bot API's
// "Formatting options" describe it (https://core.telegram.org/bots/api#formatting-options), to learn
// the text Telegram keeps once the markup is gone (its limits count that text, "after entities
// parsing") and to refuse, before any call, markup Telegram would refuse with "can't parse entities".
// Without a parse mode a text is sent as it is: nothing in it is markup, so nothing needs escaping.

export type ParseMode = 'HTML' | 'MarkdownV2';

/** The text left once the markup is read, or why Telegram cannot read it. */
export type Parsed = { text: string; error?: undefined } | { error: string; text?: undefined };

export function visibleText(source: string, mode: ParseMode | undefined): Parsed {
  if (mode === 'HTML') return fromHtml(source);
  if (mode === 'MarkdownV2') return fromMarkdownV2(source);
  return { text: source };
}

// HTML style: only these tags; <, > and & outside a tag or an entity must be written as entities;
// numeric entities and &lt; &gt; &amp; &quot; are the only ones.
const HTML_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'span', 'tg-spoiler', 'a', 'tg-emoji', 'code', 'pre', 'blockquote']);
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
const TAG = /^<(\/?)([a-z][a-z-]*)((?:\s+[a-z-]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*>/i;
const ENTITY = /^&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]+));/i;

function fromHtml(source: string): Parsed {
  let text = '';
  const open: string[] = [];
  for (let i = 0; i < source.length;) {
    const rest = source.slice(i);
    if (source[i] === '<') {
      const tag = TAG.exec(rest);
      if (!tag) return { error: `a "<" at character ${i + 1} does not start a tag: write it as &lt;` };
      const name = tag[2]!.toLowerCase();
      if (!HTML_TAGS.has(name)) return { error: `the tag <${name}> is not one Telegram supports (b, i, u, s, a, code, pre, blockquote, tg-spoiler, span class="tg-spoiler", tg-emoji)` };
      if (tag[1]) {
        if (open.pop() !== name) return { error: `the end tag </${name}> at character ${i + 1} closes no open <${name}>` };
      } else if (name === 'span' && !/class\s*=\s*["']?tg-spoiler/i.test(tag[3] ?? '')) {
        return { error: 'a <span> must be <span class="tg-spoiler">' };
      } else {
        open.push(name);
      }
      i += tag[0].length;
    } else if (source[i] === '&') {
      const entity = ENTITY.exec(rest);
      const char = entity && entityChar(entity);
      if (char === undefined || char === null) return { error: `an "&" at character ${i + 1} is not an entity Telegram knows (&lt; &gt; &amp; &quot; or a numeric one): write it as &amp;` };
      text += char;
      i += entity![0].length;
    } else {
      text += source[i];
      i += 1;
    }
  }
  if (open.length) return { error: `<${open.at(-1)}> is never closed` };
  return { text };
}

function entityChar(entity: RegExpExecArray): string | undefined {
  if (entity[3]) return NAMED_ENTITIES[entity[3].toLowerCase()];
  const code = entity[1] ? Number(entity[1]) : Number.parseInt(entity[2]!, 16);
  return code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

// MarkdownV2 style: *bold* _italic_ __underline__ ~strike~ ||spoiler|| `code` ```pre``` [text](url)
// ![emoji](tg://emoji?id=) and > quotes; any character of code 1 to 126 may be escaped with "\", and
// these must be wherever they are not markup.
const RESERVED = new Set([...'_*[]()~`>#+-=|{}.!']);
const TOGGLES: [string, string][] = [['||', 'spoiler'], ['__', 'underline'], ['*', 'bold'], ['_', 'italic'], ['~', 'strikethrough']];

function fromMarkdownV2(source: string): Parsed {
  let text = '';
  const open: string[] = [];
  let link: 'text' | undefined;
  for (let i = 0; i < source.length;) {
    const c = source[i]!;
    const atLineStart = i === 0 || source[i - 1] === '\n';
    if (c === '\\') {
      const next = source.codePointAt(i + 1);
      if (next === undefined || next < 1 || next > 126) return { error: `the "\\" at character ${i + 1} escapes nothing Telegram allows to escape` };
      text += source[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const fence = source.startsWith('```', i) ? '```' : '`';
      const end = closingCode(source, i + fence.length, fence);
      if (end < 0) return { error: `the ${fence === '```' ? 'pre block' : 'code'} opened at character ${i + 1} is never closed` };
      let body = source.slice(i + fence.length, end);
      // A pre block's first line, when text follows the fence on it, names its language.
      if (fence === '```' && /^[^\n]*\n/.test(body) && !/^\n/.test(body)) body = body.slice(body.indexOf('\n') + 1);
      text += body.replace(/\\([`\\])/g, '$1');
      i = end + fence.length;
      continue;
    }
    if (atLineStart && (c === '>' || source.startsWith('**>', i))) {
      i += c === '>' ? 1 : 3;
      continue;
    }
    if (c === '!' && source[i + 1] === '[' && !link) { link = 'text'; i += 2; continue; }
    if (c === '[' && !link) { link = 'text'; i += 1; continue; }
    if (c === ']' && link === 'text') {
      if (source[i + 1] !== '(') return { error: `the link text closed at character ${i + 1} is not followed by (url)` };
      const end = closingUrl(source, i + 2);
      if (end < 0) return { error: `the link URL opened at character ${i + 2} is never closed` };
      link = undefined;
      i = end + 1;
      continue;
    }
    const toggle = TOGGLES.find(([mark]) => source.startsWith(mark, i));
    if (toggle) {
      if (open.at(-1) === toggle[1]) open.pop();
      else if (open.includes(toggle[1])) return { error: `the ${toggle[1]} entities at character ${i + 1} overlap` };
      else open.push(toggle[1]);
      i += toggle[0].length;
      continue;
    }
    if (RESERVED.has(c)) return { error: `the character '${c}' at character ${i + 1} is reserved in MarkdownV2 and must be escaped with the preceding '\\'` };
    text += c;
    i += 1;
  }
  if (link) return { error: 'a link\'s text is never closed with "]"' };
  if (open.length) return { error: `the ${open.at(-1)} entity is never closed` };
  return { text };
}

/** Where the unescaped `fence` closing a code entity begins, or -1. */
function closingCode(source: string, from: number, fence: string): number {
  for (let i = from; i < source.length; i++) {
    if (source[i] === '\\') i += 1;
    else if (source.startsWith(fence, i)) return i;
  }
  return -1;
}

/** Where the unescaped ")" closing a link's URL is, or -1. */
function closingUrl(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    if (source[i] === '\\') i += 1;
    else if (source[i] === ')') return i;
  }
  return -1;
}

