// A status's `content` is HTML (https://docs.joinmastodon.org/entities/Status/#content: "HTML-encoded
// status content"; the instance sanitizes it to <p>, <br>, <a>, <span> and a few more). Crier's
// records carry plain text: paragraphs become blank lines, <br> a line break, every tag goes, and
// entities are decoded once, after the tags are gone, so an escaped `&lt;b&gt;` stays the text `<b>`
// and is never read as markup.

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

export function plainText(html: string): string {
  // A line break in the markup is only white space (Mastodon's own content has none; other servers' may).
  const text = html
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/<\/p>\s*<p(?:\s[^>]*)?>/gi, '\n\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/ *\n */g, '\n');
  return decodeEntities(text).trim();
}
