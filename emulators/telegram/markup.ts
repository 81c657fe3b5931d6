// Telegram's formatting options (https://core.telegram.org/bots/api#formatting-options), read as the
// Bot API reads them: the text that stays and its entities (MessageEntity: offsets and lengths in
// UTF-16 code units, https://core.telegram.org/bots/api#messageentity), or the "can't parse entities"
// refusal. Written from the documentation for the emulator alone.
import type { Entity } from './state.ts';

export type Formatted = { text: string; entities: Entity[] } | { error: string };

const byteOffset = (source: string, index: number) => Buffer.byteLength(source.slice(0, index));

export function format(source: string, parseMode: string | undefined): Formatted | { unknownMode: string } {
  if (parseMode === undefined || parseMode === '') return { text: source, entities: [] };
  const mode = parseMode.toLowerCase();
  if (mode === 'html') return html(source);
  if (mode === 'markdownv2') return markdownV2(source);
  return { unknownMode: parseMode };
}

// HTML: the documented tags, four named entities and numeric ones.
const TAG_ENTITY: Record<string, string> = {
  b: 'bold', strong: 'bold', i: 'italic', em: 'italic', u: 'underline', ins: 'underline', s: 'strikethrough', strike: 'strikethrough', del: 'strikethrough',
  'tg-spoiler': 'spoiler', span: 'spoiler', a: 'text_link', 'tg-emoji': 'custom_emoji', code: 'code', pre: 'pre', blockquote: 'blockquote',
};
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

function html(source: string): Formatted {
  let text = '';
  const entities: Entity[] = [];
  const stack: { name: string; start: number; attrs: Record<string, string> }[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '<') {
      const end = source.indexOf('>', i);
      if (end < 0) return { error: `can't parse entities: Unclosed start tag at byte offset ${byteOffset(source, i)}` };
      const inner = source.slice(i + 1, end).trim();
      const closing = inner.startsWith('/');
      const name = (closing ? inner.slice(1) : inner).split(/\s/, 1)[0]!.toLowerCase();
      if (!(name in TAG_ENTITY)) return { error: `can't parse entities: Unsupported start tag "${name}" at byte offset ${byteOffset(source, i)}` };
      if (closing) {
        const open = stack.pop();
        if (!open || open.name !== name) return { error: `can't parse entities: Unexpected end tag at byte offset ${byteOffset(source, i)}` };
        const entity = entityOf(open.name, open.attrs, open.start, text.length - open.start);
        if (entity) entities.push(entity);
      } else {
        const attrs = attributes(inner.slice(name.length));
        if (name === 'span' && attrs.class !== 'tg-spoiler') return { error: `can't parse entities: Unsupported start tag "span" at byte offset ${byteOffset(source, i)}` };
        stack.push({ name, start: text.length, attrs });
      }
      i = end + 1;
    } else if (c === '&') {
      const match = /^&(#x[0-9a-f]+|#\d+|[a-z]+);/i.exec(source.slice(i));
      const decoded = match && decode(match[1]!);
      if (!decoded) return { error: `can't parse entities: Unsupported HTML entity at byte offset ${byteOffset(source, i)}` };
      text += decoded;
      i += match[0].length;
    } else {
      text += c;
      i += 1;
    }
  }
  if (stack.length) return { error: `can't parse entities: Can't find end tag corresponding to start tag "${stack.at(-1)!.name}"` };
  return { text, entities: entities.sort((a, b) => a.offset - b.offset) };
}

function attributes(raw: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of raw.matchAll(/([a-z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+)))?/gi)) attrs[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? '';
  return attrs;
}

function decode(name: string): string | undefined {
  if (name.startsWith('#')) {
    const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  }
  return NAMED[name.toLowerCase()];
}

function entityOf(name: string, attrs: Record<string, string>, offset: number, length: number): Entity | undefined {
  if (length === 0) return undefined;
  const type = name === 'blockquote' && 'expandable' in attrs ? 'expandable_blockquote' : TAG_ENTITY[name]!;
  return {
    type, offset, length,
    ...(type === 'text_link' ? { url: attrs.href ?? '' } : {}),
    ...(type === 'custom_emoji' ? { custom_emoji_id: attrs['emoji-id'] ?? '' } : {}),
  };
}

// MarkdownV2: paired markers, links, code, and '\' escaping every character of code 1 to 126.
const RESERVED = '_*[]()~`>#+-=|{}.!';
const MARKERS: [string, string][] = [['||', 'spoiler'], ['__', 'underline'], ['*', 'bold'], ['_', 'italic'], ['~', 'strikethrough']];
const NAMES: Record<string, string> = { spoiler: 'Spoiler', underline: 'Underline', bold: 'Bold', italic: 'Italic', strikethrough: 'Strikethrough', text_link: 'TextUrl' };

function markdownV2(source: string): Formatted {
  let text = '';
  const entities: Entity[] = [];
  const open = new Map<string, { start: number; at: number }>();
  let link: { start: number; at: number } | undefined;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source.charCodeAt(i + 1);
      if (!(next >= 1 && next <= 126)) return { error: `can't parse entities: Character '\\' is reserved and must be escaped with the preceding '\\'` };
      text += source[i + 1];
      i += 2;
    } else if (c === '`') {
      const fence = source.startsWith('```', i) ? '```' : '`';
      let j = i + fence.length;
      let body = '';
      while (j < source.length && !source.startsWith(fence, j)) {
        if (source[j] === '\\' && j + 1 < source.length) j += 1;
        body += source[j];
        j += 1;
      }
      if (j >= source.length) return { error: `can't parse entities: Can't find end of ${fence === '```' ? 'Pre' : 'Code'} entity at byte offset ${byteOffset(source, i)}` };
      let language: string | undefined;
      const newline = body.indexOf('\n');
      if (fence === '```' && newline > 0) { language = body.slice(0, newline); body = body.slice(newline + 1); }
      if (body.length) entities.push({ type: fence === '```' ? 'pre' : 'code', offset: text.length, length: body.length, ...(language ? { language } : {}) });
      text += body;
      i = j + fence.length;
    } else if (c === '>' && (i === 0 || source[i - 1] === '\n')) {
      i += 1;
    } else if (c === '[' || (c === '!' && source[i + 1] === '[')) {
      if (link) return { error: `can't parse entities: Character '${c}' is reserved and must be escaped with the preceding '\\'` };
      link = { start: text.length, at: i };
      i += c === '[' ? 1 : 2;
    } else if (c === ']' && link) {
      if (source[i + 1] !== '(') return { error: `can't parse entities: Character ']' is reserved and must be escaped with the preceding '\\'` };
      let j = i + 2;
      let url = '';
      while (j < source.length && source[j] !== ')') {
        if (source[j] === '\\') j += 1;
        url += source[j] ?? '';
        j += 1;
      }
      if (j >= source.length) return { error: `can't parse entities: Can't find end of a url at byte offset ${byteOffset(source, i + 2)}` };
      const length = text.length - link.start;
      if (length) entities.push(url.startsWith('tg://emoji?id=') ? { type: 'custom_emoji', offset: link.start, length, custom_emoji_id: url.slice(14) } : { type: 'text_link', offset: link.start, length, url });
      link = undefined;
      i = j + 1;
    } else {
      const marker = MARKERS.find(([m]) => source.startsWith(m, i));
      if (marker) {
        const [m, type] = marker;
        const started = open.get(type);
        if (started) {
          if (text.length > started.start) entities.push({ type, offset: started.start, length: text.length - started.start });
          open.delete(type);
        } else {
          open.set(type, { start: text.length, at: i });
        }
        i += m.length;
      } else if (RESERVED.includes(c)) {
        return { error: `can't parse entities: Character '${c}' is reserved and must be escaped with the preceding '\\'` };
      } else {
        text += c;
        i += 1;
      }
    }
  }
  const unclosed = [...open.entries()][0] ?? (link ? ['text_link', link] as const : undefined);
  if (unclosed) return { error: `can't parse entities: Can't find end of ${NAMES[unclosed[0]]} entity at byte offset ${byteOffset(source, unclosed[1].at)}` };
  return { text, entities: entities.sort((a, b) => a.offset - b.offset) };
}
