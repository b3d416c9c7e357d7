import type { Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import type { Engine } from './engine.ts';
import * as m0001 from './migrations/0001_foundation.ts';

/** One forward-only migration; it gets the engine for the few statements that differ. */
// biome-ignore lint/suspicious/noExplicitAny: a migration sees the schema of its own time
export type EngineMigration = { up(db: Kysely<any>, engine: Engine): Promise<void> };

/** Migrations by name; names sort in the order they run (`0010_orders`). */
export type Migrations = Record<string, EngineMigration>;

/**
 * The kernel's own migration: 0001 made the SCN counter and, before the areas had homes of their
 * own, the first tables of the general and catalog areas. Migrations are history and never move;
 * every later one belongs to the area whose tables it makes (src/areas/<area>/migrations/).
 */
export const KERNEL_MIGRATIONS: Migrations = { '0001_foundation': m0001 };

/** The migrations of the kernel and the given areas, in name order; a name given twice is refused. */
export function collectMigrations(sets: Migrations[]): Migrations {
  const all: Migrations = {};
  for (const set of [KERNEL_MIGRATIONS, ...sets]) {
    for (const [name, migration] of Object.entries(set)) {
      if (all[name]) throw new Error(`migration ${name} is declared twice`);
      all[name] = migration;
    }
  }
  return Object.fromEntries(
    Object.keys(all)
      .sort()
      .map((name) => [name, all[name] as EngineMigration]),
  );
}

export function migrationProvider(engine: Engine, migrations: Migrations): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return Object.fromEntries(
        Object.entries(migrations).map(([name, m]) => [name, { up: (db) => m.up(db, engine) }]),
      );
    },
  };
}
