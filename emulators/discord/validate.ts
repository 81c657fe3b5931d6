// Requests and answers held to Discord's own OpenAPI description (discord-api-spec, vendored in
// description/): a request body is checked against its operation's request schema, and what is wrong
// is said as Discord says it — error 50035 "Invalid Form Body", its `errors` nested by field, each
// leaf `{_errors: [{code, message}]}` (https://discord.com/developers/docs/reference#error-messages).
// Tests hold the emulator's answers to the description's response schemas with `answerProblems`.
// Only the keywords the vendored subset uses are read: $ref, type (with null), properties, required,
// items, min/maxItems, min/maxLength, minimum/maximum, enum, pattern, format (uri, snowflake,
// date-time), oneOf/anyOf/allOf. The codes and wordings of field errors are Discord's as its docs'
// example shows (BASE_TYPE_REQUIRED, "This field is required"); the others are read from what
// Discord answers in practice (README: invented).
import { readFileSync } from 'node:fs';
import path from 'node:path';

type Schema = Record<string, any>;

const description: Schema = JSON.parse(readFileSync(path.join(import.meta.dirname, 'description', 'openapi.json'), 'utf8'));

/** One field error: where (each key of the path), Discord's code and its message. */
export interface FieldError {
  path: string[];
  code: string;
  message: string;
}

const resolve = (node: Schema | undefined): Schema | undefined =>
  (node?.$ref ? resolve((node.$ref as string).slice(2).split('/').reduce((at: any, part: string) => at?.[part], description)) : node);

function operationOf(method: string, template: string): Schema {
  const operation = description.paths?.[template]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${template}: not in the vendored description`);
  return operation;
}

/** What is wrong with a request body (JSON, or a multipart's payload_json) by the operation's schema. */
export function bodyErrors(method: string, template: string, body: unknown): FieldError[] {
  const schema = resolve(operationOf(method, template).requestBody)?.content?.['application/json']?.schema;
  return schema ? errorsOf(body, branchFor(schema, body), []) : [];
}

/**
 * Execute Webhook's body is a union of two object schemas ("x-discord-union": "oneOf"): a body is read
 * as the branch that declares each of its fields (a `username` makes it IncomingWebhookRequestPartial,
 * whose limits then apply), else the first.
 */
function branchFor(schema: Schema, body: unknown): Schema {
  const branches = schema.anyOf as Schema[] | undefined;
  if (!schema['x-discord-union'] || !branches || !body || typeof body !== 'object') return schema;
  const keys = Object.keys(body);
  return branches.find((branch) => keys.every((key) => key in (resolve(branch)?.properties ?? {}))) ?? branches[0]!;
}

/** What is wrong with an answer by the description's response for its status (tests call it). */
export function answerProblems(method: string, template: string, status: number, body: unknown): string[] {
  const responses = operationOf(method, template).responses ?? {};
  const response = resolve(responses[String(status)] ?? responses[`${String(status)[0]}XX`]);
  if (!response) return [`${status}: not an answer the description gives ${method} ${template}`];
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return body === undefined ? [] : [`${status}: the description gives no body, and one was sent`];
  return errorsOf(body, schema, []).map((e) => `${e.path.join('.') || '(body)'}: ${e.message}`);
}

/** Discord's `errors` object from field errors: nested by path, each leaf's `_errors`. */
export function nestedErrors(errors: FieldError[]): Record<string, unknown> {
  const out: Record<string, any> = {};
  for (const error of errors) {
    const leaf = error.path.reduce((at, key) => (at[key] ??= {}), out);
    (leaf._errors ??= []).push({ code: error.code, message: error.message });
  }
  return out;
}

const typeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

const TYPE_MESSAGES: Record<string, [string, string]> = {
  string: ['BASE_TYPE_STRING', 'Must be a string.'],
  integer: ['NUMBER_TYPE_COERCE', 'Value is not int.'],
  number: ['NUMBER_TYPE_COERCE', 'Value is not a number.'],
  boolean: ['BOOLEAN_TYPE_COERCE', 'Must be either true or false.'],
  array: ['BASE_TYPE_ARRAY', 'Must be an array.'],
  object: ['DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType'],
};

function errorsOf(value: unknown, node: Schema, at: string[]): FieldError[] {
  const schema = resolve(node) ?? {};
  const fail = (code: string, message: string): FieldError[] => [{ path: at, code, message }];
  if (schema.allOf) return (schema.allOf as Schema[]).flatMap((part) => errorsOf(value, part, at));
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (branches) {
    const each = branches.map((branch) => errorsOf(value, branch, at));
    if (each.some((errors) => !errors.length)) return [];
    const meaningful = branches.findIndex((branch) => resolve(branch)?.type !== 'null');
    return each[meaningful] ?? each[0]!;
  }
  const types = schema.type === undefined ? undefined : ([] as string[]).concat(schema.type);
  // A snowflake may be sent as a number: the docs' own examples do (`"attachments": [{"id": 0, …}]`).
  if (schema.format === 'snowflake' && typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return [];
  const actual = typeOf(value);
  if (types && !types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
    const [code, message] = TYPE_MESSAGES[types.find((t) => t !== 'null') ?? 'string'] ?? TYPE_MESSAGES.string!;
    return fail(code, message);
  }
  if (schema.enum && !(schema.enum as unknown[]).includes(value)) return fail('BASE_TYPE_CHOICES', `Value must be one of ${JSON.stringify(schema.enum)}.`);
  if (typeof value === 'string') return stringErrors(value, schema, fail);
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return fail('NUMBER_TYPE_MIN', `int value should be greater than or equal to ${schema.minimum}.`);
    if (schema.maximum !== undefined && value > schema.maximum) return fail('NUMBER_TYPE_MAX', `int value should be less than or equal to ${schema.maximum}.`);
    return [];
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return fail('BASE_TYPE_MAX_LENGTH', `Must be ${schema.maxItems} or fewer in length.`);
    if (schema.minItems !== undefined && value.length < schema.minItems) return fail('BASE_TYPE_MIN_LENGTH', `Must be ${schema.minItems} or more in length.`);
    return schema.items ? value.flatMap((item, i) => errorsOf(item, schema.items, [...at, String(i)])) : [];
  }
  if (actual === 'object') {
    const object = value as Record<string, unknown>;
    const missing = ((schema.required ?? []) as string[]).filter((name) => object[name] === undefined)
      .map((name) => ({ path: [...at, name], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }));
    const inner = Object.entries(schema.properties ?? {}).flatMap(([name, child]) => (object[name] === undefined ? [] : errorsOf(object[name], child as Schema, [...at, name])));
    return [...missing, ...inner];
  }
  return [];
}

function stringErrors(value: string, schema: Schema, fail: (code: string, message: string) => FieldError[]): FieldError[] {
  const length = [...value].length;
  const { minLength: min, maxLength: max } = schema;
  if ((max !== undefined && length > max) || (min !== undefined && length < min)) {
    if (min !== undefined && min > 0 && max !== undefined) return fail('BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
    return max !== undefined && length > max ? fail('BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`) : fail('BASE_TYPE_MIN_LENGTH', `Must be ${min} or more in length.`);
  }
  if (schema.format === 'snowflake' || (schema.pattern && !new RegExp(schema.pattern).test(value))) {
    if (!/^(0|[1-9][0-9]*)$/.test(value) || BigInt(value) >= 1n << 64n) return fail('NUMBER_TYPE_COERCE', `Value "${value}" is not snowflake.`);
  }
  if (schema.format === 'uri' && !/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value)) return fail('URL_TYPE_INVALID_URL', 'Not a well formed URL.');
  if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) return fail('DATE_TYPE_PARSE', 'Could not parse date.');
  return [];
}
