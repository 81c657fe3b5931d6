// Holds HTTP exchanges to a network's official OpenAPI 3 description: the operation exists, every
// query parameter is one it declares (with a value its schema allows), the required ones are there,
// the JSON or form body validates against the request schema, and the answer's status is declared
// and its JSON body validates against that status's schema. Used on the exchanges between Crier and
// an emulator (through recording-proxy.ts): both sides are then held to the network, not to each other.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface Exchange {
  method: string;
  /** The path as sent, below the description's server URL (for Pinterest: /v5 stripped). */
  path: string;
  query: Record<string, string[]>;
  contentType?: string;
  /** The request body: parsed JSON, or the form's fields. */
  body?: unknown;
  status: number;
  /** The answer's JSON body, when it had one. */
  answer?: unknown;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  explode?: boolean;
  style?: string;
  schema?: Record<string, any>;
}

/**
 * `formats`: a network's own reading of a format where its answers and its description's examples
 * differ from JSON Schema's (Pinterest's date-times carry no zone).
 */
export function openApiChecker(description: Record<string, any>, formats: Record<string, RegExp> = {}) {
  const doc = jsonSchemaOf(description) as Record<string, any>;
  // OpenAPI 3.0 schemas: `nullable`, `discriminator`, `example`, `x-…` keywords; formats like int64.
  // Ajv's discriminator takes no `mapping` (Pinterest's have one): oneOf decides alone, as the schemas are disjoint.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) ajv.addFormat(format, true);
  for (const [name, pattern] of Object.entries(formats)) ajv.addFormat(name, pattern);
  ajv.addSchema(doc, 'description');
  // Query strings and forms carry text: "25" is an integer there, "a,b" may be a list.
  const text = new Ajv({ strict: false, allErrors: true, coerceTypes: 'array', validateSchema: false });
  addFormats(text);
  for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) text.addFormat(format, true);
  for (const [name, pattern] of Object.entries(formats)) text.addFormat(name, pattern);
  text.addSchema(doc, 'description');
  const textCheck = (schema: unknown, value: unknown) => {
    const ok = text.validate(anchored(schema) as object, value);
    return ok ? undefined : text.errorsText();
  };
  const compiled = new Map<string, ValidateFunction>();
  const validator = (pointer: string) => {
    let fn = compiled.get(pointer);
    if (!fn) compiled.set(pointer, (fn = ajv.compile({ $ref: `description#${pointer}` })));
    return fn;
  };
  const resolve = (node: any): any => (node?.$ref ? resolve(node.$ref.slice(2).split('/').reduce((at: any, part: string) => at[part.replaceAll('~1', '/').replaceAll('~0', '~')], doc)) : node);
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));

  /** What is wrong with `exchange` by the description: nothing when it conforms. */
  return function problems(exchange: Exchange): string[] {
    const method = exchange.method.toLowerCase();
    const where = `${exchange.method} ${exchange.path}`;
    const found = templates.find((t) => t.pattern.test(exchange.path) && doc.paths[t.template][method]);
    if (!found) return [`${where}: no such operation in the description`];
    const item = doc.paths[found.template];
    const operation = item[method];
    const pointer = `/paths/${found.template.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}`;
    const out: string[] = [];
    const parameters: Parameter[] = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(resolve);
    const inQuery = parameters.filter((p) => p.in === 'query');
    for (const [name, values] of Object.entries(exchange.query)) {
      const declared = inQuery.find((p) => p.name === name);
      if (!declared) {
        out.push(`${where}: query parameter "${name}" is not in the description`);
        continue;
      }
      const value = parameterValue(declared, values);
      const wrong = declared.schema ? textCheck(declared.schema, value) : undefined;
      if (wrong) out.push(`${where}: ${name}=${values.join(',')}: ${wrong}`);
    }
    for (const p of inQuery) if (p.required && !(p.name in exchange.query)) out.push(`${where}: required query parameter "${p.name}" missing`);
    const requestContent = operation.requestBody ? resolve(operation.requestBody).content : undefined;
    if (requestContent && exchange.body !== undefined) {
      const type = Object.keys(requestContent).find((t) => exchange.contentType?.startsWith(t));
      if (!type) out.push(`${where}: request body as ${exchange.contentType}, the description takes ${Object.keys(requestContent).join(', ')}`);
      else {
        if (type === 'application/json') {
          const check = validator(`${pointer}/requestBody/content/application~1json/schema`);
          if (!check(exchange.body)) out.push(`${where}: request body: ${ajv.errorsText(check.errors)}`);
        } else {
          const wrong = textCheck(requestContent[type].schema, structuredClone(exchange.body));
          if (wrong) out.push(`${where}: request body: ${wrong}`);
        }
      }
    }
    const status = String(exchange.status);
    const response = operation.responses[status] ?? operation.responses.default;
    if (!operation.responses[status] && !(exchange.status >= 400 && operation.responses.default)) out.push(`${where}: status ${status} is not among its responses (${Object.keys(operation.responses).join(', ')})`);
    const json = resolve(response)?.content?.['application/json'];
    if (json?.schema && exchange.answer !== undefined) {
      const key = operation.responses[status] ? status : 'default';
      const check = validator(`${pointer}/responses/${key}/content/application~1json/schema`);
      if (!check(exchange.answer)) out.push(`${where}: ${status} answer: ${ajv.errorsText(check.errors)}`);
    }
    return out;
  };
}

/** A query parameter's values as its schema sees them: a list (exploded, or comma-separated), or one value. */
function parameterValue(p: Parameter, values: string[]): unknown {
  const schema = p.schema ?? {};
  if (schema.type === 'array') return p.explode === false ? values.flatMap((v) => v.split(',')) : values;
  return values[0];
}

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema says it (Ajv takes `nullable` only beside a `type`):
 * a null type added, or the schema and null as alternatives.
 */
function jsonSchemaOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(jsonSchemaOf);
  if (!node || typeof node !== 'object') return node;
  const { nullable, ...rest } = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, jsonSchemaOf(v)])) as Record<string, any>;
  // A oneOf of overlapping value lists (Pinterest's standard and video metrics both list IMPRESSION)
  // means "a value of one of these lists": as JSON Schema reads oneOf, a shared value would match none.
  if (Array.isArray(rest.oneOf) && rest.oneOf.every((branch: any) => Array.isArray(branch?.enum))) {
    rest.anyOf = rest.oneOf;
    delete rest.oneOf;
  }
  if (nullable !== true) return nullable === undefined ? rest : { ...rest, nullable };
  if (typeof rest.type === 'string') return { ...rest, type: [rest.type, 'null'], ...(rest.enum ? { enum: [...rest.enum, null] } : {}) };
  return { anyOf: [rest, { type: 'null' }] };
}

/** A schema lifted out of the description, its local references pointed back into it. */
function anchored(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(anchored);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `description${v}` : anchored(v)]));
}
