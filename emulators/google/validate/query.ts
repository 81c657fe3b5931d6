// Query parameters as they arrived: every value of a repeated one, in order (the shared `firstValues`
// keeps only the first, which hides what a client really sent). Three readings sit on top of it:
// - YouTube (youtube-query.ts): against the discovery document, a `repeated` parameter's values joined;
// - the Business Profile APIs (business-query.ts): gRPC transcoding, a repeated field takes every
//   value, a FieldMask the union of every value's paths;
// - OAuth (routes/oauth.ts): RFC 6749 forbids a repeated parameter, refused with `invalid_request`.

/** Every value of each query parameter, in order, as strings. */
export type QueryValues = Record<string, string[]>;

/** Every value of each query parameter of a parsed query (Fastify gives an array for a repeated one). */
export function allValues(raw: unknown): QueryValues {
  const out: QueryValues = {};
  for (const [name, value] of Object.entries((raw ?? {}) as Record<string, unknown>)) {
    if (value === undefined) continue;
    out[name] = (Array.isArray(value) ? value : [value]).map(String);
  }
  return out;
}

/** Every value of each parameter of a form or query string (`a=1&a=2` → {a: ['1', '2']}). */
export function valuesOf(params: URLSearchParams): QueryValues {
  const out: QueryValues = {};
  for (const [name, value] of params) (out[name] ??= []).push(value);
  return out;
}

/** The first parameter given more than once, if any. */
export function firstRepeated(values: QueryValues): string | undefined {
  return Object.entries(values).find(([, list]) => list.length > 1)?.[0];
}

/** One string a parameter, for a query whose repeats were refused already (firstRepeated). */
export function onlyValues(values: QueryValues): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(values).map(([name, list]) => [name, list[0]]));
}

/** One string a parameter: a repeated one's values joined with commas, in order (what call logs show). */
export function joinedValues(values: QueryValues): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, list]) => [name, list.join(',')]));
}
