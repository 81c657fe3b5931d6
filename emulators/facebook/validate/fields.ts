// Graph API field expansion: `fields=id,name,picture{url},instagram_business_account{id,username}`.
// Modifiers such as `.limit(5)` or `.type(large)` are accepted and ignored.
import type { Reply } from '../../shared/http.ts';
import { graphError, nonexistingField } from '../errors/graph.ts';

/** Requested field -> its requested subfields (null: none given, the node's defaults apply). */
export type FieldTree = Map<string, FieldTree | null>;

/** The tree, or undefined when the braces do not balance. */
export function parseFields(spec: string): FieldTree | undefined {
  let i = 0;
  const list = (nested: boolean): FieldTree | undefined => {
    const out: FieldTree = new Map();
    while (i < spec.length) {
      let name = '';
      while (i < spec.length && !',{}'.includes(spec[i]!)) name += spec[i++];
      name = name.trim().split('.')[0]!;
      let sub: FieldTree | null = null;
      if (spec[i] === '{') {
        i += 1;
        const inner = list(true);
        if (!inner || spec[i] !== '}') return undefined;
        i += 1;
        sub = inner;
      }
      if (name) out.set(name, sub);
      if (spec[i] === ',') {
        i += 1;
        continue;
      }
      if (spec[i] === '}') return nested ? out : undefined;
    }
    return nested ? undefined : out;
  };
  const tree = list(false);
  return tree && i >= spec.length ? tree : undefined;
}

export const fieldList = (...names: string[]): FieldTree => new Map(names.map((n) => [n, null]));

/** One node's readable fields: a value, or undefined when the node has none (Graph omits it). */
export type FieldReaders = Record<string, (sub: FieldTree | null) => unknown>;

/** A field the node type does not have (Graph answers "(#100) Tried accessing nonexisting field"). */
export class MissingField extends Error {
  readonly field: string;
  readonly nodeType: string;

  constructor(field: string, nodeType: string) {
    super(`no field ${field} on ${nodeType}`);
    this.field = field;
    this.nodeType = nodeType;
  }
}

/** The requested fields of a node; throws MissingField for one its type does not have. */
export function pick(fields: FieldTree, readers: FieldReaders, nodeType: string): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const [name, sub] of fields) {
    const read = Object.hasOwn(readers, name) ? readers[name] : undefined;
    if (!read) throw new MissingField(name, nodeType);
    const v = read(sub);
    if (v !== undefined) value[name] = v;
  }
  return value;
}

/**
 * A node read: the `fields=` the request asks for (`defaults` without one) rendered by `body`; a
 * malformed list is Graph's #2500, a field the node lacks its #100.
 */
export function renderFields(query: Record<string, string | undefined>, defaults: FieldTree, body: (fields: FieldTree) => unknown): Reply {
  const fields = query.fields === undefined ? defaults : parseFields(query.fields);
  if (!fields) return graphError({ message: `Syntax error in the fields parameter: "${query.fields}"`, code: 2500 });
  try {
    return { status: 200, body: body(fields) };
  } catch (error) {
    if (error instanceof MissingField) return nonexistingField(error.field, error.nodeType);
    throw error;
  }
}
