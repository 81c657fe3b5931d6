// The query string of a Vimeo call with every value read (the shared `firstValues` keeps the first).
// `fields`, Vimeo's JSON filter, is a comma-separated list (developer.vimeo.com/api/common-formats,
// "JSON filter"), so a repeated one is the union of its values, as `fields=uri,name`; any other
// parameter takes its first value (Vimeo does not document a repeated one: chosen).
import type { FastifyRequest } from 'fastify';

const LISTS = new Set(['fields']);

export function queryOf(req: FastifyRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    if (value === undefined) continue;
    const values = (Array.isArray(value) ? value : [value]).map(String);
    out[name] = LISTS.has(name) ? values.join(',') : values[0];
  }
  return out;
}
