// One Ajv instance for every request schema Crier validates outside Fastify's own route schemas.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from './json-schema.ts';
import type { FieldIssue } from '../core/errors.ts';
import { DATE_OR_DATE_TIME_MESSAGE, DATE_TIME_MESSAGE, parseDateOrDateTime, parseDateTime } from './date-time.ts';
import { FETCHED_URL_KEYWORD, fetchedUrlProblem, STRICT_FETCH_POLICY, type FetchPolicy } from './fetched-url.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** What a refused format says, for the formats whose Ajv wording ("must match format ...") says too little. */
const FORMAT_MESSAGES: Record<string, string> = {
  'date-time': DATE_TIME_MESSAGE,
  'date-or-date-time': DATE_OR_DATE_TIME_MESSAGE,
};

/**
 * Crier's own formats and keyword, on every Ajv that validates a request (this one and Fastify's, see
 * http/app.ts): `date-time` is replaced by the one date-time parser, `date-or-date-time` is a range
 * bound that may also be a plain day, and `x-fetched-url` marks a URL someone will fetch.
 */
export function addCrierVocabulary(instance: Ajv): Ajv {
  instance.addFormat('date-time', { type: 'string', validate: (text: string) => parseDateTime(text) !== undefined });
  instance.addFormat('date-or-date-time', { type: 'string', validate: (text: string) => parseDateOrDateTime(text) !== undefined });
  instance.addKeyword({ keyword: FETCHED_URL_KEYWORD, type: 'string', schemaType: 'boolean', errors: true, validate: checkFetchedUrl });
  return instance;
}

/** The keyword's check. `this` is the FetchPolicy given to validateSchema (Ajv's passContext). */
function checkFetchedUrl(this: FetchPolicy | undefined, enabled: boolean, url: string): boolean {
  const problem = enabled ? fetchedUrlProblem(url, this ?? STRICT_FETCH_POLICY) : undefined;
  checkFetchedUrl.errors = problem === undefined ? [] : [{ keyword: FETCHED_URL_KEYWORD, message: problem, params: {} }];
  return problem === undefined;
}
checkFetchedUrl.errors = [] as Partial<ErrorObject>[];

export const ajv = addCrierVocabulary(addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: false, verbose: true, passContext: true })));

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Validates `value` against `schema`; problems come back with dotted field paths under `prefix`. URLs
 * marked as fetched are judged by `fetch` (the strict rules when none is given).
 */
export function validateSchema(schema: TSchema, value: unknown, prefix = '', fetch: FetchPolicy = STRICT_FETCH_POLICY): FieldIssue[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate.call(fetch, value)) return [];
  return ajvErrorsToIssues(validate.errors ?? [], prefix);
}

/** Ajv errors as `{field, message}` items; `anyOf` noise and duplicates removed. */
export function ajvErrorsToIssues(errors: readonly ErrorObject[], prefix = ''): FieldIssue[] {
  const seen = new Set<string>();
  const issues: FieldIssue[] = [];
  // A failed anyOf reports every branch's errors, then its own: its first branch (the main form, a
  // date-time before "next-free-slot") says what to fix; the schema's description names the others.
  const anyOfs = errors.filter((e) => e.keyword === 'anyOf').map((e) => `${e.schemaPath}/`);
  const kept = errors.filter((e) => e.keyword !== 'anyOf'
    && !anyOfs.some((path) => e.schemaPath.startsWith(path) && !e.schemaPath.startsWith(`${path}0/`)));
  for (const error of kept) {
    const issue = toIssue(error, prefix);
    const id = `${issue.field}\u0000${issue.message}`;
    if (!seen.has(id)) {
      seen.add(id);
      issues.push(issue);
    }
  }
  return issues;
}

/** `/containers/0/media/1/url` -> `containers[0].media[1].url`, joined under `prefix`. */
export function fieldPath(prefix: string, instancePath: string): string {
  let path = prefix;
  for (const part of instancePath.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    path = /^\d+$/.test(key) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
  }
  return path;
}

/** The field path of `key` under `path` (`containers[0]` + `content` -> `containers[0].content`). */
export function childField(path: string, key: string): string {
  return fieldPath(path, `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
}

function toIssue(error: ErrorObject, prefix: string): FieldIssue {
  let field = fieldPath(prefix, error.instancePath);
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    field = field ? `${field}.${missing}` : missing;
    message = 'is required';
  } else if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
    message = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  } else if (error.keyword === 'pattern' && error.parentSchema && 'description' in error.parentSchema) {
    message = `must be ${String(error.parentSchema.description)}`;
  } else if (error.keyword === 'format') {
    message = FORMAT_MESSAGES[(error.params as { format: string }).format] ?? message;
  }
  return { field: field || '(body)', message };
}
