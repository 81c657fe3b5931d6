// One Ajv instance for every request schema Crier validates outside Fastify's own route schemas.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';
import type { FieldIssue } from '../networks/types.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export const ajv = addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: false, verbose: true }));

const compiled = new WeakMap<object, ValidateFunction>();

/** Validates `value` against `schema`; problems come back with dotted field paths under `prefix`. */
export function validateSchema(schema: TSchema, value: unknown, prefix = ''): FieldIssue[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return [];
  return ajvErrorsToIssues(validate.errors ?? [], prefix);
}

/** Ajv errors as `{field, message}` items; `anyOf` noise and duplicates removed. */
export function ajvErrorsToIssues(errors: readonly ErrorObject[], prefix = ''): FieldIssue[] {
  const seen = new Set<string>();
  const issues: FieldIssue[] = [];
  for (const error of errors) {
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
  }
  return { field: field || '(body)', message };
}
