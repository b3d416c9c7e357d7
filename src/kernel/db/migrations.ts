import { type Kysely, sql } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import type { Engine } from './engine.ts';
import * as m0001 from './migrations/0001_foundation.ts';
import type { DB } from './schema.ts';

/**
 * One forward-only migration; it gets the engine for the few statements that differ.
 * `formerNames`: names it was applied under by earlier code (it was renumbered); a database that
 * applied it under one of them has its record renamed before migrating (`adoptFormerNames`), so
 * it neither runs again nor stops the start as a migration the code no longer knows.
 */
export type EngineMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: a migration sees the schema of its own time
  up(db: Kysely<any>, engine: Engine): Promise<void>;
  readonly formerNames?: readonly string[];
};

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

/**
 * Renames the records of migrations applied under a former name (EngineMigration.formerNames) to
 * their name now, before Kysely's migrator reads them: without it the migrator refuses to start
 * ("previously executed migration ... is missing", or, renamed alone, "expected previously executed
 * migration ... to be at index ..."). One transaction; idempotent, and safe when several
 * processes start at once: a record is renamed only while no record has the new name.
 */
export async function adoptFormerNames(
  db: Kysely<DB>,
  engine: Engine,
  migrations: Migrations,
): Promise<void> {
  const renames = Object.entries(migrations).flatMap(([name, m]) =>
    (m.formerNames ?? []).map((former) => ({ former, name })),
  );
  if (renames.length === 0) return;
  const exists =
    engine === 'postgres'
      ? sql<{ found: boolean }>`SELECT to_regclass('kysely_migration') IS NOT NULL AS found`
      : sql<{
          found: number;
        }>`SELECT count(*) > 0 AS found FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`;
  const { rows } = await exists.execute(db);
  if (!rows[0]?.found) return;
  await db.transaction().execute(async (trx) => {
    for (const { former, name } of renames) {
      await sql`UPDATE kysely_migration SET name = ${name} WHERE name = ${former}
        AND NOT EXISTS (SELECT 1 FROM kysely_migration k WHERE k.name = ${name})`.execute(trx);
      // Kysely orders the records by their time and wants that order to be the names' order: the
      // record takes the latest time of the records named before it (0030_tenders, applied after
      // 0021_billing) when that is later than its own (ISO texts compare as times). Also mends a
      // record renamed by 8a619c1, which renamed without this.
      const latestBefore = sql`(SELECT max(k.timestamp) FROM kysely_migration k WHERE k.name < ${name})`;
      await sql`UPDATE kysely_migration SET timestamp = ${latestBefore}
        WHERE name = ${name} AND ${latestBefore} > timestamp`.execute(trx);
    }
  });
}
