// Request checks held to Pinterest's own description (api-description v5, vendored in description/):
// each query parameter an operation declares is read with its schema (repeated ones kept, a
// `explode: false` list split on commas), and a JSON body is checked against the operation's request
// schema. Only the keywords the vendored subset uses are read (type, nullable, enum, pattern,
// min/maxLength, minimum/maximum, min/maxItems, items, properties, required, additionalProperties,
// allOf/anyOf/oneOf with a discriminator, format date). Query parameters the description does not
// declare are let through: whether Pinterest refuses them is not documented (README).
import { readFileSync } from 'node:fs';
import path from 'node:path';

type Schema = Record<string, any>;

const description: Schema = JSON.parse(readFileSync(path.join(import.meta.dirname, 'description', 'openapi-v5-subset.json'), 'utf8'));

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  explode?: boolean;
  schema?: Schema;
}

/** A `#/components/...` reference followed, any other node as it is. */
function resolved(node: Schema | undefined): Schema | undefined {
  if (!node?.$ref) return node;
  return resolved((node.$ref as string).slice(2).split('/').reduce((at: any, part: string) => at?.[part], description));
}

/** The description's operation for `method` on a path template below /v5 (e.g. "get", "/boards/{board_id}/pins"). */
function operationOf(method: string, template: string): Schema {
  const operation = description.paths?.[template]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${template}: not in the vendored description`);
  return operation;
}

/** The query string as sent: every value of each name, in order (not collapsed to the first). */
export function queryValues(url: string): Record<string, string[]> {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const values: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(query)) (values[name] ??= []).push(value);
  return values;
}

/**
 * What is wrong with the query by the operation's declared parameters: each problem as Pinterest's
 * code-1 message would name it ("'page_size' must be at most 250"); none when it conforms.
 */
export function queryProblems(method: string, template: string, query: Record<string, string[]>): string[] {
  const parameters = ((operationOf(method, template).parameters ?? []) as Schema[]).map((p) => resolved(p) as Parameter).filter((p) => p.in === 'query');
  const out: string[] = [];
  for (const p of parameters) {
    const values = query[p.name];
    if (!values) {
      if (p.required) out.push(`'${p.name}' is required`);
      continue;
    }
    for (const value of parameterValues(p, values)) out.push(...problemsOf(value, p.schema ?? {}, p.name));
  }
  return out;
}

/** What is wrong with a JSON request body by the operation's request schema. */
export function bodyProblems(method: string, template: string, body: unknown): string[] {
  const schema = resolved(operationOf(method, template).requestBody)?.content?.['application/json']?.schema;
  return schema ? problemsOf(body, schema, '') : [];
}

/**
 * A query parameter's texts read as its schema's type, numbers and booleans parsed: one list for an
 * array (exploded, or comma-separated), else each value given (a repeated one is checked every time).
 */
function parameterValues(p: Parameter, values: string[]): unknown[] {
  const schema = resolved(p.schema) ?? {};
  if (schema.type === 'array') {
    const items = p.explode === false ? values.flatMap((v) => v.split(',')) : values;
    return [items.map((v) => typed(v, resolved(schema.items) ?? {}))];
  }
  return values.map((v) => typed(v, schema));
}

function typed(text: string, schema: Schema): unknown {
  if (schema.type === 'integer' || schema.type === 'number') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
  if (schema.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

const typeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

const named = (at: string) => `'${at || 'body'}'`;

/** JSON Schema (OpenAPI 3.0) problems of `value` at `at` (a dotted path). */
function problemsOf(value: unknown, node: Schema, at: string): string[] {
  const schema = resolved(node) ?? {};
  if (value === null) return schema.nullable === true || schema.type === undefined && !schema.allOf ? [] : [`${named(at)} may not be null`];
  const out: string[] = [];
  for (const part of schema.allOf ?? []) out.push(...problemsOf(value, part, at));
  if (schema.oneOf || schema.anyOf) out.push(...alternativeProblems(value, schema, at));
  if (schema.type !== undefined) {
    const actual = typeOf(value);
    const fits = actual === schema.type || (schema.type === 'number' && actual === 'integer');
    if (!fits) return [...out, `${named(at)} must be ${/^[aeiou]/.test(schema.type) ? 'an' : 'a'} ${schema.type}`];
  }
  if (schema.enum && !schema.enum.includes(value)) out.push(`${named(at)} must be one of ${schema.enum.join(', ')}`);
  if (typeof value === 'string') out.push(...stringProblems(value, schema, at));
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) out.push(`${named(at)} must be at least ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) out.push(`${named(at)} must be at most ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) out.push(`${named(at)} must hold at least ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) out.push(`${named(at)} must hold at most ${schema.maxItems} items`);
    if (schema.items) value.forEach((item, i) => out.push(...problemsOf(item, schema.items, `${at}[${i}]`)));
  }
  if (typeOf(value) === 'object') out.push(...objectProblems(value as Record<string, unknown>, schema, at));
  return out;
}

function stringProblems(value: string, schema: Schema, at: string): string[] {
  const out: string[] = [];
  const length = [...value].length;
  if (schema.maxLength !== undefined && length > schema.maxLength) out.push(`${named(at)} is longer than ${schema.maxLength} characters`);
  if (schema.minLength !== undefined && length < schema.minLength) out.push(`${named(at)} is shorter than ${schema.minLength} characters`);
  if (schema.pattern && !new RegExp(schema.pattern).test(value)) out.push(`${named(at)} must match ${schema.pattern}`);
  if (schema.format === 'date' && !isDate(value)) out.push(`${named(at)} must be a date, YYYY-MM-DD`);
  return out;
}

const isDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

function objectProblems(value: Record<string, unknown>, schema: Schema, at: string): string[] {
  const out: string[] = [];
  const child = (name: string) => (at ? `${at}.${name}` : name);
  for (const name of schema.required ?? []) if (value[name] === undefined) out.push(`${named(child(name))} is required`);
  for (const [name, field] of Object.entries(value)) {
    if (field === undefined) continue;
    const declared = schema.properties?.[name];
    if (declared) out.push(...problemsOf(field, declared, child(name)));
    else if (schema.additionalProperties === false) out.push(`${named(child(name))} is not a field of this object`);
    else if (typeof schema.additionalProperties === 'object') out.push(...problemsOf(field, schema.additionalProperties, child(name)));
  }
  return out;
}

/**
 * oneOf/anyOf: with a discriminator, the schema its property names (Pinterest's media_source); else
 * the value must fit one alternative.
 */
function alternativeProblems(value: unknown, schema: Schema, at: string): string[] {
  const discriminator = schema.discriminator;
  if (discriminator && typeOf(value) === 'object') {
    const kind = (value as Record<string, unknown>)[discriminator.propertyName];
    const target = typeof kind === 'string' ? discriminator.mapping?.[kind] : undefined;
    const field = at ? `${at}.${discriminator.propertyName}` : discriminator.propertyName;
    if (!target) return [`${named(field)} must be one of ${Object.keys(discriminator.mapping ?? {}).join(', ')}`];
    return problemsOf(value, { $ref: target }, at);
  }
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[];
  const each = alternatives.map((alternative) => problemsOf(value, alternative, at));
  return each.some((problems) => problems.length === 0) ? [] : each[0]!;
}

/** The scopes the operation's `pinterest_oauth2` security asks of a user's token. */
export function scopesOf(method: string, template: string): string[] {
  const security = (operationOf(method, template).security ?? []) as Record<string, string[]>[];
  return security.find((s) => s.pinterest_oauth2)?.pinterest_oauth2 ?? [];
}
