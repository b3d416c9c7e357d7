import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

/**
 * Fastify's own schema compilers (Ajv for requests, fast-json-stringify for answers), compiling
 * each schema once and only when a request first needs it:
 *  - once: a compiled validator or serializer is kept per schema object, so the routes that share
 *    a schema share its compiled function: an operation served under every package alias
 *    (TV2_PACKAGE_ALIASES), the problem answers every route declares for the reference document;
 *  - when first needed: nothing is compiled at start (compiling the ~350 schemas of the interface
 *    took most of a start; docs/architecture.md, "Start-up and memory"), and a schema never
 *    needed is never compiled: the error answers declared for the reference document, which are
 *    sent as JSON text made by src/http/problem.ts, never through a serializer.
 * Ajv and fast-json-stringify themselves load on the first compilation. A schema that cannot be
 * compiled fails its first request (a 500, logged), not the start: test/startup-schemas.test.ts
 * compiles every schema of every route.
 *
 * The compilers are the ones Fastify would use by default, loaded from Fastify's own dependencies
 * (so always the versions Fastify was released with); only their use is changed.
 */

type Validate = ((data: unknown, parent?: object) => boolean | Promise<unknown>) & {
  errors?: unknown;
  schemaEnv?: unknown;
};
type Serialize = (data: unknown) => string;
interface RouteSchema {
  schema: object;
  method: string;
  url: string;
  httpPart?: string;
  httpStatus?: string;
  contentType?: string;
}
type ValidatorCompiler = (route: RouteSchema) => Validate;
type SerializerCompiler = (route: RouteSchema) => Serialize;
type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
type ValidatorBuilder = (externalSchemas: object, options: unknown) => ValidatorCompiler;
type SerializerBuilder = (externalSchemas: object, options: unknown) => SerializerCompiler;

const fastifyRequire = createRequire(import.meta.resolve('fastify'));
let defaultValidatorBuilder: ValidatorBuilder | undefined;
let defaultSerializerBuilder: SerializerBuilder | undefined;

function validatorBuilder(): ValidatorBuilder {
  defaultValidatorBuilder ??= (fastifyRequire('@fastify/ajv-compiler') as () => ValidatorBuilder)();
  return defaultValidatorBuilder;
}

function serializerBuilder(): SerializerBuilder {
  defaultSerializerBuilder ??= (
    fastifyRequire('@fastify/fast-json-stringify-compiler') as () => SerializerBuilder
  )();
  return defaultSerializerBuilder;
}

/** How many schemas an app's compilers were handed by its routes, and how many they compiled. */
export interface SchemaCompilations {
  /** Route schemas handed to the compilers (one per route and part or status). */
  requested: number;
  /** Distinct schemas among them (per compiler kind): at most what is ever compiled. */
  distinct: number;
  /** Schemas compiled so far (each at most once). */
  compiled: number;
  /** Every schema compiled, with the kind of compiler. */
  compiledSchemas: Array<{ kind: 'validator' | 'serializer'; schema: object }>;
}

const compilationsOf = new WeakMap<FastifyInstance, SchemaCompilations>();

/** The counts of an app built with `sharedSchemaCompilers` (for tests and the start-up bench). */
export function schemaCompilations(app: FastifyInstance): SchemaCompilations | undefined {
  return compilationsOf.get(app);
}

/**
 * Makes every lazily compiled function of an app now: what a start did before, for a test that
 * every schema compiles, or a process that would rather pay at start than on first requests.
 */
export function compileAllSchemas(app: FastifyInstance): number {
  const pending = pendingOf.get(app);
  if (!pending) return 0;
  let count = 0;
  for (const force of pending) if (force()) count++;
  return count;
}

const pendingOf = new WeakMap<FastifyInstance, Set<() => boolean>>();

export interface SharedSchemaCompilers {
  /** Fastify's `schemaController` option. */
  schemaController: NonNullable<FastifyServerOptions['schemaController']>;
  /** Links the counts to the app made with the option. */
  attach(app: FastifyInstance): void;
}

/**
 * The compiled functions of one set of shared schemas (Fastify's `addSchema`) and options. Every
 * plugin scope of an app asks for a compiler of its own; scopes that see the same shared schemas
 * share one: one Ajv instance, one cache.
 */
interface Pool<F> {
  externals: unknown[];
  options: unknown;
  cache: WeakMap<object, F>;
  compile?: (route: RouteSchema) => F;
}

function poolFor<F>(pools: Pool<F>[], externalSchemas: object, options: unknown): Pool<F> {
  const externals = Object.values(externalSchemas);
  let pool = pools.find(
    (p) =>
      p.options === options &&
      p.externals.length === externals.length &&
      p.externals.every((schema, i) => schema === externals[i]),
  );
  if (!pool) {
    pool = { externals, options, cache: new WeakMap() };
    pools.push(pool);
  }
  return pool;
}

export function sharedSchemaCompilers(): SharedSchemaCompilers {
  const stats: SchemaCompilations = { requested: 0, distinct: 0, compiled: 0, compiledSchemas: [] };
  const pending = new Set<() => boolean>();

  /** A builder of compilers whose functions compile on first call, once per pool and schema. */
  function lazyBuilder<F extends (...args: never[]) => unknown>(
    kind: 'validator' | 'serializer',
    defaultBuilder: () => (externalSchemas: object, options: unknown) => (route: RouteSchema) => F,
    wrap: (compile: () => F) => F,
  ) {
    const pools: Pool<F>[] = [];
    const seen = new WeakSet<object>();
    return (externalSchemas: object, options: unknown) => {
      const pool = poolFor(pools, externalSchemas, options);
      return (route: RouteSchema): F => {
        stats.requested++;
        if (!seen.has(route.schema)) {
          seen.add(route.schema);
          stats.distinct++;
        }
        if (kind === 'validator' && route.httpPart === 'headers') assertLowerCaseHeaders(route);
        const known = pool.cache.get(route.schema);
        if (known) return known;
        let compiled: F | undefined;
        const compile = (): F => {
          if (compiled) return compiled;
          pool.compile ??= defaultBuilder()(externalSchemas, options);
          compiled = pool.compile(route);
          stats.compiled++;
          stats.compiledSchemas.push({ kind, schema: route.schema });
          pending.delete(force);
          return compiled;
        };
        const force = () => !compiled && compile() !== undefined;
        const lazy = wrap(compile);
        pending.add(force);
        pool.cache.set(route.schema, lazy);
        return lazy;
      };
    };
  }

  const buildValidator = lazyBuilder<Validate>('validator', validatorBuilder, (compile) => {
    // Fastify reads a failed validation's errors from the function it called, and hands an Ajv
    // function (one with `schemaEnv`) the request as parent, so it may replace a root value.
    const validate: Validate = (data, parent) => {
      const fn = compile();
      const result = parent === undefined ? fn(data) : fn(data, parent);
      validate.errors = fn.errors;
      return result;
    };
    Object.defineProperty(validate, 'schemaEnv', { get: () => compile().schemaEnv });
    return validate;
  });
  const buildSerializer = lazyBuilder<Serialize>(
    'serializer',
    serializerBuilder,
    (compile) => (data) => compile()(data),
  );

  return {
    // Typed here by shape; Fastify types the factories with its compilers' own packages.
    schemaController: {
      compilersFactory: { buildValidator, buildSerializer } as unknown as CompilersFactory,
    },
    attach(app) {
      compilationsOf.set(app, stats);
      pendingOf.set(app, pending);
    },
  };
}

/** Compilers that make nothing: for an app whose schemas are only read (the OpenAPI document's). */
export function inertSchemaController(): SharedSchemaCompilers['schemaController'] {
  const nothing = () => () => () => true;
  return {
    compilersFactory: { buildValidator: nothing, buildSerializer: nothing } as unknown as CompilersFactory,
  };
}

/**
 * Node gives header names in lower case, and Fastify lowers a header schema's names only for its
 * built-in compiler; with these compilers a header schema must name headers in lower case itself.
 */
function assertLowerCaseHeaders(route: RouteSchema): void {
  const schema = route.schema as { properties?: object; required?: string[] };
  const names = [...Object.keys(schema.properties ?? {}), ...(schema.required ?? [])];
  const upper = names.find((name) => name !== name.toLowerCase());
  if (upper !== undefined) {
    throw new Error(`${route.method} ${route.url}: name the header "${upper}" in lower case in its schema`);
  }
}
