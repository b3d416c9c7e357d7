import Sqlite from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { isPostgresUrl, sqlitePathFrom } from '../config.ts';
import type { Engine } from './engine.ts';
import { migrationProvider } from './migrations/index.ts';
import type { DB } from './schema.ts';
import { CachingSqliteDialect } from './sqlite-driver.ts';

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL pool size per process. */
  poolSize?: number;
  /** Told about an idle PostgreSQL connection that failed (the pool replaces it). */
  onIdleError?: (error: Error) => void;
}

export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  if (isPostgresUrl(url)) {
    // int8 (SCN, ids) as JS numbers: SCNs stay far below 2^53 and the wire wants JSON numbers.
    const typeParsers = {
      getTypeParser(oid: number, format?: 'text' | 'binary') {
        if (oid === pg.types.builtins.INT8) return (v: string) => Number(v);
        return pg.types.getTypeParser(oid, format);
      },
    };
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types: typeParsers });
    // An idle connection the server closes (restart, failover, admin termination) is dropped by
    // the pool and the next query opens a new one; without a listener the error would end the process.
    pool.on('error', (error) => options.onIdleError?.(error));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  const file = new Sqlite(sqlitePathFrom(url));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 10000');
  const db = new Kysely<DB>({ dialect: new CachingSqliteDialect(file) });
  return { db, engine: 'sqlite', close: () => db.destroy() };
}

export async function migrate(database: Database): Promise<string[]> {
  const migrator = new Migrator({ db: database.db, provider: migrationProvider(database.engine) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
