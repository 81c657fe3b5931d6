// Drops keys a schema does not declare, and says which: the spec wants unknown keys ignored,
// removed before storing and listed in `warnings`, never rejected.
import type { TSchema } from './json-schema.ts';
import { childField } from './ajv.ts';
import { validationError } from '../core/errors.ts';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};

/** Returns a copy of `value` without undeclared keys, and the dotted paths of what was dropped. */
export function stripUnknownKeys(schema: TSchema, value: unknown, prefix = ''): { value: unknown; dropped: string[] } {
  const dropped: string[] = [];
  const cleaned = strip(schema as JsonSchema, value, prefix, dropped);
  return { value: cleaned, dropped };
}

function strip(schema: JsonSchema, value: unknown, path: string, dropped: string[]): unknown {
  if (Array.isArray(value) && schema.items) {
    return value.map((item, index) => strip(schema.items!, item, `${path}[${index}]`, dropped));
  }
  if (!isPlainObject(value) || !schema.properties) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // Own properties only: `constructor` or `__proto__` must not find Object.prototype's members.
    const childSchema = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    const childPath = childField(path, key);
    if (!childSchema) {
      dropped.push(childPath);
      continue;
    }
    out[key] = strip(childSchema, child, childPath, dropped);
  }
  return out;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A 400 naming each field of `body` outside `allowed` (`is not <what>; allowed: …`), for the bodies
 * where a misspelt field (`requireApprovals`, `secrets`, `fixedquota`) would otherwise be dropped and
 * the answer look like success. Anything but an object is left to the schema.
 */
export function refuseUnknownFields(body: unknown, allowed: readonly string[], what: string): void {
  if (!isPlainObject(body)) return;
  const unknown = Object.keys(body).filter((field) => !allowed.includes(field));
  if (unknown.length) throw validationError(unknown.map((field) => ({ field, message: `is not ${what}; allowed: ${allowed.join(', ')}` })));
}
