// The query parameters of the YouTube routes, checked against Google's discovery document
// (../youtube/description/youtube-v3-methods.json, the methods served here): every value of a parameter
// is read (query.ts), a `repeated` one's values are joined with commas —
// Google treats `part=snippet&part=status` as `part=snippet,status`, and its own client libraries send
// the repeated form — and a parameter the method does not declare, a missing required one, a value
// outside an enum, a boolean that is not one, or an integer outside its range is refused in the v3
// envelope before the route runs.
import { readFileSync } from 'node:fs';
import type { Reply } from '../../shared/http.ts';
import { youtubeError } from '../errors.ts';
import { allValues } from './query.ts';

interface ParameterSpec {
  type: 'string' | 'boolean' | 'integer';
  location: string;
  required?: boolean;
  repeated?: boolean;
  enum?: string[];
  minimum?: string;
  maximum?: string;
}

interface MethodSpec {
  httpMethod: string;
  path: string;
  parameters: Record<string, ParameterSpec>;
}

interface Description {
  parameters: Record<string, ParameterSpec>;
  methods: Record<string, MethodSpec>;
}

const DESCRIPTION = JSON.parse(readFileSync(new URL('../youtube/description/youtube-v3-methods.json', import.meta.url), 'utf8')) as Description;

export type Query = Record<string, string | undefined>;
export type CheckedQuery = { ok: true; query: Query } | { ok: false; reply: Reply; query: Query };

/** The method a route serves: its HTTP method and path (an /upload/ path is its method's media path). */
export function methodIdOf(httpMethod: string, urlPath: string): string {
  const path = urlPath.replace(/^\/upload\//, '/').replace(/^\//, '');
  const found = Object.entries(DESCRIPTION.methods).find(([, m]) => m.httpMethod === httpMethod && m.path === path);
  if (!found) throw new Error(`no YouTube method in the discovery excerpt serves ${httpMethod} ${urlPath}`);
  return found[0];
}

/**
 * The query of a call to `methodId`, one string per parameter (a repeated one's values joined with
 * commas, another's first value), or Google's 400. `extra` names parameters Google's own URLs carry
 * that no method declares (the resumable session URI's `upload_id`).
 */
export function checkedQuery(methodId: string, raw: unknown, extra: string[] = []): CheckedQuery {
  const method = DESCRIPTION.methods[methodId]!;
  const values = allValues(raw);
  const query: Query = {};
  for (const [name, list] of Object.entries(values)) {
    const spec = method.parameters[name] ?? DESCRIPTION.parameters[name];
    query[name] = spec?.repeated ? list.join(',') : list[0];
  }
  for (const [name, list] of Object.entries(values)) {
    const spec = method.parameters[name] ?? DESCRIPTION.parameters[name];
    if (!spec && !extra.includes(name)) {
      return { ok: false, query, reply: youtubeError(400, 'unexpectedParameter', 'The request specifies an unexpected parameter.', 'youtube.parameter', name) };
    }
    const problem = spec && list.map((v) => valueProblem(spec, v)).find(Boolean);
    if (problem) return { ok: false, query, reply: youtubeError(400, 'invalidParameter', problem, 'global', name) };
  }
  for (const [name, spec] of Object.entries(method.parameters)) {
    if (spec.required && !query[name]) return { ok: false, query, reply: youtubeError(400, 'required', `Required parameter: ${name}`, 'global', name) };
  }
  return { ok: true, query };
}

/** Why `value` does not fit the parameter's type, enum or range; undefined when it does. */
function valueProblem(spec: ParameterSpec, value: string): string | undefined {
  if (spec.enum && !spec.enum.includes(value)) {
    return `Invalid value '${value}'. Values must match the following regular expression: '(${spec.enum.join('|')})'`;
  }
  if (spec.type === 'boolean' && value !== 'true' && value !== 'false') return `Invalid boolean value: '${value}'.`;
  if (spec.type === 'integer') {
    const number = Number(value);
    if (!/^-?\d+$/.test(value)) return `Invalid integer value: '${value}'.`;
    const [min, max] = [spec.minimum, spec.maximum].map((b) => (b === undefined ? undefined : Number(b)));
    if ((min !== undefined && number < min) || (max !== undefined && number > max)) {
      return `Invalid value '${value}'. Values must be within the range: [${spec.minimum ?? ''}, ${spec.maximum ?? ''}]`;
    }
  }
  return undefined;
}
