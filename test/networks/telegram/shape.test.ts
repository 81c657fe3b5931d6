// Telegram's judgement and measure from the post alone: lengths in UTF-16 code units once the parse
// mode's markup is gone, captions against 1,024 and texts against 4,096, albums of 2 to 10 with
// documents only among documents, and markup Telegram could not read refused with where it fails.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PreflightPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { visibleText } from '../../../src/networks/telegram/markup.ts';
import { fileKindOf, ignoredFields, judge, measure, parseModesOf } from '../../../src/networks/telegram/shape.ts';

const post = (containers: { content?: string; media?: string[] }[], block?: Record<string, unknown>): PreflightPost => ({
  containers: containers.map((c) => ({ content: c.content ?? '', media: (c.media ?? []).map((filename) => ({ url: `https://cdn.example/${filename}`, filename })) })),
  block,
});

const refusal = (p: PreflightPost) => {
  try {
    judge(p);
  } catch (error) {
    assert.ok(error instanceof PublishError);
    assert.equal(error.kind, 'permanent');
    assert.equal(error.code, 'invalid');
    return error.message;
  }
  return assert.fail('judged publishable');
};

describe('markup as Telegram reads it', () => {
  test('HTML: tags go, entities become their characters; unknown tags, stray "<" or "&" and unclosed tags are refused', () => {
    assert.deepEqual(visibleText('<b>bold</b> <i>it</i> <a href="https://e.x">link</a> &lt;&gt;&amp;&quot;&#128512;', 'HTML'), { text: 'bold it link <>&"😀' });
    assert.deepEqual(visibleText('<span class="tg-spoiler">s</span><tg-spoiler>t</tg-spoiler><pre><code class="language-ts">x</code></pre>', 'HTML'), { text: 'stx' });
    assert.match(visibleText('<div>x</div>', 'HTML').error!, /<div> is not one Telegram supports/);
    assert.match(visibleText('1 < 2', 'HTML').error!, /"<" at character 3 does not start a tag/);
    assert.match(visibleText('Q&A', 'HTML').error!, /"&" at character 2/);
    assert.match(visibleText('<b>open', 'HTML').error!, /<b> is never closed/);
    assert.match(visibleText('<b>x</i>', 'HTML').error!, /<\/i> at character 5 closes no open <i>/);
    assert.match(visibleText('<span>x</span>', 'HTML').error!, /tg-spoiler/);
  });

  test('MarkdownV2: markers and escapes go, link texts stay; an unescaped reserved character or an unclosed entity is refused', () => {
    assert.deepEqual(visibleText('*bold* _it_ __u__ ~s~ ||sp|| [link](https://e.x/a\\)b) `co\\`de` 1\\.5\\!', 'MarkdownV2'), { text: 'bold it u s sp link co`de 1.5!' });
    assert.deepEqual(visibleText('```ts\nconst a = 1;\n```', 'MarkdownV2'), { text: 'const a = 1;\n' });
    assert.deepEqual(visibleText('>quoted\nplain', 'MarkdownV2'), { text: 'quoted\nplain' });
    assert.match(visibleText('Version 2.0', 'MarkdownV2').error!, /character '\.' at character 10 is reserved/);
    assert.match(visibleText('*never closed', 'MarkdownV2').error!, /bold entity is never closed/);
    assert.match(visibleText('[text] alone', 'MarkdownV2').error!, /not followed by \(url\)/);
  });

  test('without a parse mode nothing is markup', () => {
    assert.deepEqual(visibleText('<b>1 < 2 & *x*</b>', undefined), { text: '<b>1 < 2 & *x*</b>' });
  });
});

describe('measure', () => {
  test('each container a message: the root with telegram.content, counted in UTF-16 after the markup, a caption\'s limit with media', () => {
    const measured = measure(post([{ content: 'ignored', media: ['a.jpg'] }, { content: '😀 reply' }], { content: '<b>😀</b>', parseMode: 'HTML' }));
    assert.equal(measured.leftOut, 0);
    assert.deepEqual(measured.parts.map((p) => [p.role, p.text, p.length, p.limit, p.unit]), [
      ['post', '<b>😀</b>', 2, 1024, 'utf16'],
      ['reply', '😀 reply', 8, 4096, 'utf16'],
    ]);
    assert.equal(measured.parts[0]!.note, 'counted without its HTML markup, as Telegram counts');
    assert.deepEqual(measured.parts[0]!.media, [{ filename: 'a.jpg', kind: 'image' }]);
  });

  test('an album says its text is the first file\'s caption; unreadable markup is said, never thrown', () => {
    assert.equal(measure(post([{ content: 'c', media: ['a.jpg', 'b.jpg'] }])).parts[0]!.note, 'an album: the text is the caption of its first file');
    const broken = measure(post([{ content: 'x' }], { content: '<x>', parseMode: 'HTML' })).parts[0]!;
    assert.equal(broken.length, 3);
    assert.match(broken.note!, /Telegram cannot read its HTML markup/);
  });
});

describe('parse modes', () => {
  test('the parse mode is telegram.content\'s: the shared texts stay plain, never judged as markup', () => {
    const mixed = post([{ content: 'shared root' }, { content: 'a < b & c' }], { content: '<b>own</b>', parseMode: 'HTML' });
    assert.deepEqual(parseModesOf(mixed), ['HTML', undefined]);
    judge(mixed);
    assert.equal(measure(mixed).parts[1]!.length, 9);
    assert.deepEqual(parseModesOf(post([{ content: '<b>shared</b>' }], { parseMode: 'HTML' })), [undefined]);
  });

  test('a parse mode without telegram.content, or a link preview switch on a post of files only, is ignored (harmless)', () => {
    assert.deepEqual(ignoredFields(post([{ content: 'x' }], { parseMode: 'HTML' })).map((i) => i.field), ['parseMode']);
    assert.deepEqual(ignoredFields(post([{ media: ['a.jpg'] }], { disableLinkPreview: true })).map((i) => i.field), ['disableLinkPreview']);
    assert.deepEqual(ignoredFields(post([{ media: ['a.jpg'] }, { content: 'text' }], { content: '<b>x</b>', parseMode: 'HTML', disableLinkPreview: true })), []);
  });
});

describe('judge', () => {
  test('texts at the limits pass; one unit over is refused, counted as Telegram counts', () => {
    judge(post([{ content: 'x'.repeat(4096) }, { content: 'y'.repeat(1024), media: ['a.jpg'] }]));
    assert.match(refusal(post([{ content: 'x'.repeat(4097) }])), /container 1 is 4097 characters .* Telegram allows 4096 in a message/);
    assert.match(refusal(post([{ content: 'ok' }, { content: '😀'.repeat(513), media: ['a.mp4'] }])), /container 2 is 1026 characters .* allows 1024 in a caption/);
    // Markup does not count: 4,096 visible characters wrapped in <b> pass.
    judge(post([{ content: 'x' }], { content: `<b>${'x'.repeat(4096)}</b>`, parseMode: 'HTML' }));
  });

  test('albums: 10 files pass, 11 do not; documents only with documents', () => {
    judge(post([{ media: Array.from({ length: 10 }, (_, i) => `p${i}.jpg`) }]));
    judge(post([{ media: ['a.pdf', 'b.zip'] }]));
    judge(post([{ media: ['a.jpg', 'b.mp4'] }]));
    assert.match(refusal(post([{ media: Array.from({ length: 11 }, (_, i) => `p${i}.jpg`) }])), /11 files; a Telegram album takes 10 at most/);
    assert.match(refusal(post([{ media: ['a.jpg', 'b.pdf'] }])), /mixes documents with photos or videos/);
  });

  test('an empty message, or one empty once its markup is read, is refused; so is unreadable markup, at create too', () => {
    assert.match(refusal(post([{ content: 'root' }, { content: '  ' }])), /container 2 has neither text nor media/);
    assert.match(refusal(post([{ content: 'x' }], { content: '<b></b>', parseMode: 'HTML' })), /container 1 has no text once its HTML markup is read/);
    assert.throws(() => judge(post([{ content: 'x' }], { content: 'a.b', parseMode: 'MarkdownV2' }), 'create'), /MarkdownV2 markup cannot be read by Telegram: the character '\.'/);
  });

  test('file kinds: photos, MPEG-4 videos, everything else a document', () => {
    assert.deepEqual(['a.JPG', 'b.png', 'c.webp', 'd.mp4', 'e.m4v', 'f.gif', 'g.mov', 'h.pdf', 'noext'].map(fileKindOf),
      ['photo', 'photo', 'photo', 'video', 'video', 'document', 'document', 'document', 'document']);
  });
});
