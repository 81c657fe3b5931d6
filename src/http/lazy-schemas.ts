// Route schemas compiled on a route's first use instead of at start. Fastify compiles, when it starts,
// an Ajv validator for every schema part of every route and a fast-json-stringify serializer for
// every response status of every route (~160 functions here, HEAD routes included); the memory
// that burst of work churns through is kept by V8 for the life of the process (~20 MB of RSS:
// `npm run bench:footprint`), for routes a deployment may never serve.
//
// The compilers are Fastify's own defaults (the copies Fastify itself resolves), with the options
// Fastify gives them; only when they run changes. A compiled function is used exactly as Fastify uses
// the eager one: a validator keeps Ajv's `errors` and `schemaEnv`, which Fastify reads off it.
//
// A schema that fails to compile would fail its route's first request (a 500) instead of the start,
// so the suite compiles every route's schemas (`compileAllSchemas`, test/http/schemas.test.ts).
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

type Compile = (route: RouteSchema) => unknown;
interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpPart?: string;
}
type Factory = (...args: unknown[]) => Compile;

const fastifyRequire = createRequire(import.meta.resolve('fastify'));
const defaultValidatorFactory = (fastifyRequire('@fastify/ajv-compiler') as () => Factory)();
const defaultSerializerFactory = (fastifyRequire('@fastify/fast-json-stringify-compiler') as () => Factory)();

/** What `app` still has to compile, for `compileAllSchemas`. */
const pendingOf = new WeakMap<object, Set<() => unknown>>();

/** Fastify's `schemaController.compilersFactory` option. */
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

export interface LazySchemaCompilers {
  compilersFactory: CompilersFactory;
  /** Ties the functions compiled later to `app`, for `compileAllSchemas`. */
  attach(app: FastifyInstance): void;
}

export function lazySchemaCompilers(): LazySchemaCompilers {
  const pending = new Set<() => unknown>();
  const deferred = (factory: Factory, wrap: (compiled: () => any) => unknown): Factory => (...args) => {
    const compile = factory(...args);
    return (route) => {
      refuseMixedCaseHeaders(route);
      let fn: any;
      const compiled = () => {
        if (fn === undefined) {
          fn = compile(route);
          pending.delete(compiled);
        }
        return fn;
      };
      pending.add(compiled);
      return wrap(compiled);
    };
  };
  return {
    // Fastify's declared types for these factories do not match what it calls them with (a route
    // definition, not a bare schema): cast once here.
    compilersFactory: {
      buildValidator: deferred(defaultValidatorFactory, lazyValidator),
      buildSerializer: deferred(defaultSerializerFactory, (compiled) => (data: unknown) => compiled()(data)),
    } as unknown as CompilersFactory,
    attach: (app) => pendingOf.set(app, pending),
  };
}

/** Ajv's validate function, compiled on first call, with the properties Fastify reads off it. */
function lazyValidator(compiled: () => any): ReturnType<FastifySchemaCompiler<unknown>> {
  const validate = (data: unknown, context?: unknown) => compiled()(data, context);
  Object.defineProperty(validate, 'errors', { get: () => compiled().errors });
  Object.defineProperty(validate, 'schemaEnv', { get: () => compiled().schemaEnv });
  return validate as ReturnType<FastifySchemaCompiler<unknown>>;
}

/**
 * With its default compiler Fastify lower-cases the header names a schema declares (Node lower-cases
 * received ones); with any other compiler, this one included, it does not, so such a schema would
 * never match. Crier's header schemas name headers in lower case; this keeps it that way.
 */
function refuseMixedCaseHeaders(route: RouteSchema): void {
  if (route.httpPart !== 'headers') return;
  const schema = route.schema as { properties?: Record<string, unknown>; required?: string[] };
  const names = [...Object.keys(schema.properties ?? {}), ...(schema.required ?? [])];
  const mixed = names.find((name) => name !== name.toLowerCase());
  if (mixed) throw new Error(`${route.method} ${route.url}: name the header "${mixed}" in lower case in its schema`);
}

/** Compiles every schema `app` has not compiled yet (tests: a schema that cannot compile fails there). */
export function compileAllSchemas(app: FastifyInstance): number {
  const pending = pendingOf.get(app);
  if (!pending) throw new Error('this app does not compile its schemas lazily');
  const count = pending.size;
  for (const compile of [...pending]) compile();
  return count;
}
