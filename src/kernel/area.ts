import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { Config } from '../config.ts';
import type { AdminRoute } from './admin-route.ts';
import type { Database } from './db/database.ts';
import { collectMigrations, type Migrations } from './db/migrations.ts';
import type { ErrorCode } from './errors.ts';
import type { ImportKind } from './import/import-kind.ts';
import type { Operation } from './operation.ts';
import type { Services } from './services.ts';

/**
 * One business area (catalog, stock, pricing, ...): everything it brings, under one name. Its
 * folder src/areas/<name>/ exports this object from its index.ts, and that is its only public face;
 * src/areas.ts lists the areas, and the server, the services, the migrations, `tv2 import` and the
 * demo data are all derived from that list.
 */
export interface Area {
  /** The folder name under src/areas, and the name of the area's services. */
  name: string;
  /**
   * Its page under docs/ (the model, the rules, the operations, the back office), from the
   * repository's root; an area with built operations has one (test/areas.test.ts).
   */
  docs?: string;
  /** Its TV2 operations, built or planned (`planned(...)` answers 501 until the area is built). */
  operations: Operation[];
  /** Its back-office routes under /TV2/Admin. */
  adminRoutes?: AdminRoute[];
  /** Its `tv2 import` kinds, in the order `tv2 import --help` lists them. */
  // biome-ignore lint/suspicious/noExplicitAny: kinds differ in their input type; each is typed where declared
  importKinds?: ImportKind<any>[];
  /**
   * Its error codes (src/areas/<name>/errors.ts, made with `defineErrors`): listed in the OpenAPI
   * problem schema and the error table of docs/api-conventions.md.
   */
  errors?: Readonly<Record<string, ErrorCode>>;
  /** Its migrations (src/areas/<name>/migrations/), by name. */
  migrations?: Migrations;
  /**
   * Builds its services once per process; the keys are declared on `Services` by the area. `all` is
   * the process's services object, complete once every area's are built: a service may keep it to
   * call another area's services later (as the catalog asks stock and pricing when an article is
   * deleted), never use it while being built.
   */
  services?(config: Config, database: Database, all: Services): Partial<Services>;
  /** Loads its part of the demo world into an empty database, after the areas listed before it. */
  seedDemo?(services: Services): Promise<unknown>;
  /**
   * Routes of its own besides operations and admin routes (GetToken), registered as a Fastify plugin
   * of its own, so hooks and decorators it adds stay inside it.
   */
  routes?(app: FastifyInstance, services: Services): Promise<void> | void;
  /** Prometheus metrics of its own, added to `/metrics` when metrics are on. */
  metrics?(registry: Registry, services: Services): void;
}

/** Every operation of the areas, in area order. */
export function operationsOf(areas: readonly Area[]): Operation[] {
  return areas.flatMap((area) => area.operations);
}

/** Every back-office route of the areas, in area order. */
export function adminRoutesOf(areas: readonly Area[]): AdminRoute[] {
  return areas.flatMap((area) => area.adminRoutes ?? []);
}

/** The `tv2 import` kinds by name; a name used by two areas is refused. */
// biome-ignore lint/suspicious/noExplicitAny: kinds differ in their input type
export function importKindsOf(areas: readonly Area[]): Record<string, ImportKind<any>> {
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const kinds: Record<string, ImportKind<any>> = {};
  for (const kind of areas.flatMap((area) => area.importKinds ?? [])) {
    if (kinds[kind.name]) throw new Error(`import kind ${kind.name} is declared twice`);
    kinds[kind.name] = kind;
  }
  return kinds;
}

/** The migrations of the kernel and the areas, in the order they run. */
export function migrationsOf(areas: readonly Area[]): Migrations {
  return collectMigrations(areas.map((area) => area.migrations ?? {}));
}

/** The services of one process: the kernel's, then each area's. */
export function servicesOf(areas: readonly Area[], config: Config, database: Database): Services {
  const services = { config, database } as Services;
  for (const area of areas) Object.assign(services, area.services?.(config, database, services));
  return services;
}
