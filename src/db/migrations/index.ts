import type { Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import type { Engine } from '../engine.ts';
import * as m0001 from './0001_foundation.ts';
import * as m0002 from './0002_stock.ts';
import * as m0003 from './0003_pricing.ts';
import * as m0004 from './0004_clients.ts';
import * as m0005 from './0005_idempotency.ts';
import * as m0006 from './0006_shops.ts';
import * as m0007 from './0007_customers.ts';
import * as m0008 from './0008_login_attempts.ts';
import * as m0009 from './0009_idempotency_lease.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration sees the schema of its own time
type EngineMigration = { up(db: Kysely<any>, engine: Engine): Promise<void> };

/** Forward-only migrations, in order. A new migration is a new file and a new row here. */
const migrations: Record<string, EngineMigration> = {
  '0001_foundation': m0001,
  '0002_stock': m0002,
  '0003_pricing': m0003,
  '0004_clients': m0004,
  '0005_idempotency': m0005,
  '0006_shops': m0006,
  '0007_customers': m0007,
  '0008_login_attempts': m0008,
  '0009_idempotency_lease': m0009,
};

export function migrationProvider(engine: Engine): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return Object.fromEntries(
        Object.entries(migrations).map(([name, m]) => [name, { up: (db) => m.up(db, engine) }]),
      );
    },
  };
}
