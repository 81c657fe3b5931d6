// HTTP byte ranges for the public media URLs (RFC 9110 §14). Video players and the networks that
// fetch by URL (Meta's crawlers, TikTok's PULL_FROM_URL) seek with single ranges; a multi-range
// request is answered with the whole body, which the RFC allows.

export type RangeAnswer = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (!header) return { kind: 'full' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return { kind: 'full' }; // not a single byte range: ignore it, as the RFC allows
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    // "bytes=-N": the last N bytes
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return { kind: 'full' }; // syntactically invalid: ignored
  return { kind: 'partial', start, end };
}
