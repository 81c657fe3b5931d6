// The JSON Schema builder of every route and platform block: `Type.Object({...})` writes the plain
// JSON Schema that Fastify validates with Ajv and @fastify/swagger publishes, and `Static<typeof s>`
// is the TypeScript type of what it accepts. Crier's own, small on purpose: the schemas use a dozen
// constructs, and the general-purpose library that built them before cost ~15 MB of resident memory
// and ~0.4 s of a cold start to load (its 700 modules), in every process, for the same output.
//
// A schema is a plain object: what JSON.stringify shows is all there is. Optional properties are
// marked by a non-enumerable key that Ajv, the serializer and the OpenAPI document never see; an
// object schema reads it once, to list its `required` properties.

/** Type-level only: the value type a schema accepts (never present at run time). */
declare const STATIC: unique symbol;
/** Type-level only: the schema is an optional property of its object. */
declare const OPTIONAL: unique symbol;

/** Any schema; `TSchema<T>` accepts values of type T. Its keywords are read as JSON Schema's (any). */
export type TSchema<T = unknown> = {
  readonly [keyword: string]: any;
  readonly type?: any;
  readonly properties?: any;
  readonly items?: any;
  readonly anyOf?: any;
  readonly [STATIC]: T;
};
/** An object schema: its properties can be spread into another's. */
export type TObject<P extends Properties = Properties> = TSchema<ObjectStatic<P>> & { readonly type: 'object'; readonly properties: P; readonly required?: string[] };
export type TOptional<S extends TSchema> = S & { readonly [OPTIONAL]: true };
export type TUnsafe<T> = TSchema<T>;

/** The type of the values `S` accepts. */
export type Static<S> = S extends { readonly [STATIC]: infer T } ? T : never;

/** Keywords of JSON Schema a builder adds to what it writes (description, minLength, format…). */
export type SchemaOptions = Record<string, unknown>;

type Properties = Record<string, TSchema>;
type IsOptional<S> = S extends { readonly [OPTIONAL]: true } ? true : false;
type Flatten<T> = { [K in keyof T]: T[K] } & {};
type ObjectStatic<P extends Properties> = Flatten<
  { [K in keyof P as IsOptional<P[K]> extends true ? never : K]: Static<P[K]> } &
  { [K in keyof P as IsOptional<P[K]> extends true ? K : never]?: Static<P[K]> }
>;

/** The run-time mark of an optional property (non-enumerable: no JSON, no Ajv keyword). */
const OPTIONAL_MARK = '~optional';

const schema = <T>(value: Record<string, unknown>): TSchema<T> => value as unknown as TSchema<T>;

function isOptional(value: TSchema): boolean {
  return Object.prototype.hasOwnProperty.call(value, OPTIONAL_MARK);
}

export const Type = {
  String: (options: SchemaOptions = {}) => schema<string>({ type: 'string', ...options }),
  Integer: (options: SchemaOptions = {}) => schema<number>({ type: 'integer', ...options }),
  Number: (options: SchemaOptions = {}) => schema<number>({ type: 'number', ...options }),
  Boolean: (options: SchemaOptions = {}) => schema<boolean>({ type: 'boolean', ...options }),
  Null: (options: SchemaOptions = {}) => schema<null>({ type: 'null', ...options }),
  /** Anything at all (`{}`). */
  Unknown: (options: SchemaOptions = {}) => schema<unknown>({ ...options }),
  Literal: <const V extends string | number | boolean>(value: V, options: SchemaOptions = {}) =>
    schema<V>({ type: typeof value === 'string' ? 'string' : typeof value === 'boolean' ? 'boolean' : 'number', const: value, ...options }),
  Array: <S extends TSchema>(items: S, options: SchemaOptions = {}) => schema<Static<S>[]>({ type: 'array', items, ...options }),
  Union: <const S extends readonly TSchema[]>(anyOf: S, options: SchemaOptions = {}) => schema<Static<S[number]>>({ anyOf, ...options }),
  /** An object whose every property (any name) matches `value`; the key schema is a string's. */
  Record: <V extends TSchema>(_key: TSchema<string>, value: V, options: SchemaOptions = {}) =>
    schema<Record<string, Static<V>>>({ type: 'object', patternProperties: { '^.*$': value }, ...options }),
  /** Properties are required unless wrapped in Type.Optional; others are allowed unless `options` say not. */
  Object: <P extends Properties>(properties: P, options: SchemaOptions = {}) => {
    const required = Object.keys(properties).filter((name) => !isOptional(properties[name]!));
    return schema<ObjectStatic<P>>({ type: 'object', ...(required.length ? { required } : {}), properties, ...options }) as TObject<P>;
  },
  /** The same schema as an optional property of an object (a copy: `value` itself stays as it is). */
  Optional: <S extends TSchema>(value: S): TOptional<S> => {
    const copy = { ...value };
    Object.defineProperty(copy, OPTIONAL_MARK, { value: true, enumerable: false });
    return copy as unknown as TOptional<S>;
  },
  /** A schema written by hand, typed as accepting T. */
  Unsafe: <T>(value: SchemaOptions) => schema<T>({ ...value }),
};
