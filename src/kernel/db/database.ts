import Sqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { type Config, isPostgresUrl, sqlitePathFrom } from '../../config.ts';
import type { Engine } from './engine.ts';
import { installFeedSql } from './feed-sql.ts';
import { adoptFormerNames, type Migrations, migrationProvider } from './migrations.ts';
import { NamedQuery } from './pg-named-query.ts';
import { pgReader } from './pg-reader.ts';
import type { DB } from './schema.ts';
import { installScnHorizon } from './scn-horizon.ts';
import { FALLBACK_CHECKPOINT_PAGES, startCheckpointer } from './sqlite-checkpointer.ts';
import { CachingSqliteDialect } from './sqlite-driver.ts';
import { directReader, type Reader, sqliteReader } from './sqlite-reader.ts';
import { refreshStatistics } from './statistics.ts';
import { DatabaseUnavailableError } from './unavailable.ts';
import { UTF8_BYTES_OID, utf8BytesOf } from './utf8-bytes.ts';

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  close(): Promise<void>;
  /** PostgreSQL only: the connection pool's state right now (for metrics). */
  poolStats?(): PoolStats;
  /** SQLite: write transactions that wait share one COMMIT (group-commit.ts; unset: off). */
  sqliteGroupCommit?: boolean;
  /**
   * Where hot reads outside any transaction run: on SQLite with `sqliteReader`, a worker thread
   * with a connection of its own (sqlite-reader.ts); otherwise the database's own connections.
   */
  reader: Reader;
}

export interface PoolStats {
  /** Open connections, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

export interface DatabaseOptions {
  /** PostgreSQL pool size per process. */
  poolSize?: number;
  /** Told about an idle PostgreSQL connection that failed (the pool replaces it). */
  onIdleError?: (error: Error) => void;
  /** PostgreSQL: how long to wait for a connection, opened or from the pool (0 or unset: no limit). */
  connectTimeoutMs?: number;
  /** PostgreSQL: statement_timeout; the client gives up one second later (0 or unset: no limit). */
  statementTimeoutMs?: number;
  /** PostgreSQL: idle_in_transaction_session_timeout (0 or unset: no limit). */
  idleInTransactionTimeoutMs?: number;
  /** SQLite: how long a write waits for another connection's lock (default 10 s). */
  busyTimeoutMs?: number;
  /**
   * SQLite: how much of the database file is read through memory-mapped I/O (bytes; 0 or unset:
   * none, SQLite's default). Reads then take pages from the operating system's page cache
   * without a read() call and a copy each (decision 39).
   */
  sqliteMmapBytes?: number;
  /** SQLite (a file): WAL checkpoints on a worker thread, off the request path (sqlite-checkpointer.ts). */
  sqliteBackgroundCheckpoints?: boolean;
  /** SQLite: write transactions that wait share one COMMIT, each in a savepoint (group-commit.ts; default on). */
  sqliteGroupCommit?: boolean;
  /** SQLite (a file): hot reads on a worker thread with a connection of its own (sqlite-reader.ts). */
  sqliteReader?: boolean;
  /** SQLite: the reader connection's mmap_size in bytes (0 or unset: none). */
  sqliteReaderMmapBytes?: number;
}

/** The database options of a serving process, from its settings. */
export function databaseOptions(config: Config): DatabaseOptions {
  return {
    poolSize: config.dbPoolSize,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    idleInTransactionTimeoutMs: config.dbIdleInTransactionTimeoutMs,
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    sqliteMmapBytes: config.sqliteMmapMb * 1024 * 1024,
    sqliteBackgroundCheckpoints: config.sqliteBackgroundCheckpoints,
    sqliteGroupCommit: config.sqliteGroupCommit,
    sqliteReader: config.sqliteReader,
    sqliteReaderMmapBytes: config.sqliteReaderMmapMb * 1024 * 1024,
  };
}

/** The -wal file is truncated back to this once emptied (SQLite's journal_size_limit). */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** How much longer than statement_timeout the client waits for an answer before it gives up. */
const CLIENT_GRACE_MS = 1000;

export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  if (isPostgresUrl(url)) {
    // int8 (SCN, ids) as JS numbers: SCNs stay far below 2^53 and the wire wants JSON numbers.
    // bpchar as its UTF-8 bytes: the type `utf8Bytes` reads text as (utf8-bytes.ts).
    const typeParsers = {
      getTypeParser(oid: number, format?: 'text' | 'binary') {
        if (oid === pg.types.builtins.INT8) return (v: string) => Number(v);
        if (oid === UTF8_BYTES_OID) return utf8BytesOf;
        return pg.types.getTypeParser(oid, format);
      },
    };
    const statementMs = options.statementTimeoutMs ?? 0;
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      types: typeParsers,
      keepAlive: true,
      ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
      // The server cancels a long statement (57014); a server that does not answer at all (frozen,
      // unreachable) is covered by the client's own read timeout a little later.
      ...(statementMs > 0
        ? { statement_timeout: statementMs, query_timeout: statementMs + CLIENT_GRACE_MS }
        : {}),
      ...(options.idleInTransactionTimeoutMs
        ? { idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs }
        : {}),
    });
    // An idle connection the server closes (restart, failover, admin termination) is dropped by
    // the pool and the next query opens a new one; without a listener the error would end the process.
    pool.on('error', (error) => options.onIdleError?.(error));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: discardingPool(pool) }) });
    return {
      db,
      engine: 'postgres',
      reader: pgReader({ pool, db, statementName, lost: connectionFailed }),
      close: () => db.destroy(),
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: pool.options.max ?? 10,
      }),
    };
  }
  const path = sqlitePathFrom(url);
  const file = new Sqlite(path);
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 10_000)}`);
  const groupCommit = options.sqliteGroupCommit ?? true;
  // Group commit runs each member of a batch in a savepoint, which journals the pages the batch has
  // already changed (a web order: 14 to 30) to a sub-journal; past 64 KiB SQLite spills it to a
  // temporary file, a write() per page. In memory it is a copy; the journal lives only until the
  // member's RELEASE. (temp_store also keeps the sorter's overflow in memory: tv2's queries sort
  // by index, and the sql snapshots check that no paged query reads a whole table.)
  if (groupCommit) file.pragma('temp_store = MEMORY');
  if (options.sqliteMmapBytes) file.pragma(`mmap_size = ${Math.trunc(options.sqliteMmapBytes)}`);
  // A file in WAL mode (not :memory:, whose journal stays in memory, and whose data is this
  // connection's alone): its checkpoints and its reader on worker threads.
  const walFile = file.pragma('journal_mode', { simple: true }) === 'wal';
  const checkpointer =
    options.sqliteBackgroundCheckpoints && walFile ? startCheckpointer(file.name) : undefined;
  if (checkpointer) {
    file.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
    // A WAL grown by a burst is cut back to this size once a checkpoint has emptied it.
    file.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  }
  const db = new Kysely<DB>({ dialect: new CachingSqliteDialect(file) });
  const reader =
    options.sqliteReader && walFile
      ? sqliteReader({
          path: file.name,
          fallback: db,
          busyTimeoutMs: options.busyTimeoutMs,
          mmapBytes: options.sqliteReaderMmapBytes,
        })
      : directReader(db);
  return {
    db,
    engine: 'sqlite',
    sqliteGroupCommit: groupCommit,
    reader,
    close: async () => {
      await reader.close();
      await checkpointer?.close();
      await db.destroy();
    },
  };
}

/**
 * The pg pool as Kysely sees it, with two changes for outages: a failure that is not an error
 * answer of the server (refused or lost connection, connect or read timeout) is raised as
 * DatabaseUnavailableError, and the connection it happened on is destroyed instead of going back
 * to the pool. A connection whose query timed out on the client may still have that query (and
 * its transaction) running on the server; reusing it would queue the next request behind it, or
 * let it join that transaction, and a black-holed connection would never recover.
 */
function discardingPool(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    options: pool.options,
    end: () => pool.end(),
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        if (error instanceof pg.DatabaseError) throw error;
        throw new DatabaseUnavailableError(`cannot connect to the database: ${describe(error)}`, {
          cause: error,
        });
      }
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = wrapClient(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
  };
}

/**
 * Names for the statements of this process (PostgreSQL prepared statements): a statement with
 * parameters is sent by name, so each connection parses and plans it once and then only binds and
 * runs it (the pg driver keeps what a connection has prepared). Planning was most of the server's
 * work for a single read (0.35 to 0.45 ms of a price read's 0.5). The statements are the
 * repositories' fixed texts; a text seen after `STATEMENT_NAMES_MAX` others is sent unnamed, so SQL
 * built with values in its text cannot fill the connections with prepared statements.
 */
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_MAX = 2000;

function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < STATEMENT_NAMES_MAX) {
    name = `tv2_${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return name;
}

function wrapClient(client: pg.PoolClient): PostgresPoolClient {
  let lost = false;
  const query = async (sql: string, parameters: ReadonlyArray<unknown>) => {
    try {
      const name = parameters.length > 0 ? statementName(sql) : undefined;
      if (name !== undefined) return await runNamed(client, name, sql, parameters as unknown[]);
      return await client.query(sql, parameters as unknown[]);
    } catch (error) {
      if (error instanceof pg.DatabaseError) throw error;
      lost = true;
      throw connectionFailed(error);
    }
  };
  return {
    get processID() {
      return (client as unknown as { processID?: number }).processID;
    },
    query: query as unknown as PostgresPoolClient['query'],
    release(destroy?: boolean) {
      const discard = Boolean(destroy) || lost;
      lost = false;
      client.release(discard);
    },
  };
}

/** A named statement's run (pg-named-query.ts: its rows' shape described once per connection). */
function runNamed(client: pg.PoolClient, name: string, text: string, values: unknown[]) {
  return new Promise<pg.QueryResult>((resolve, reject) => {
    client.query(
      new NamedQuery(name, text, values, (error, result) =>
        error ? reject(error) : resolve(result as pg.QueryResult),
      ) as unknown as pg.Submittable,
    );
  });
}

function connectionFailed(error: unknown): DatabaseUnavailableError {
  return new DatabaseUnavailableError(`the database connection failed: ${describe(error)}`, { cause: error });
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  return typeof code === 'string' && !error.message.includes(code)
    ? `${error.message} (${code})`
    : error.message;
}

/**
 * Applies the given migrations (src/areas.ts: MIGRATIONS) the database has not applied yet; then,
 * on PostgreSQL, installs the SCN functions and checks the SCN base (scn-horizon.ts) and
 * installs the feeds' SQL function (feed-sql.ts); on SQLite, analyses the tables whose planner
 * statistics are missing or out of date (statistics.ts).
 */
export async function migrate(database: Database, migrations: Migrations): Promise<string[]> {
  await adoptFormerNames(database.db, database.engine, migrations);
  const migrator = new Migrator({
    db: database.db,
    provider: migrationProvider(database.engine, migrations),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  if (database.engine === 'postgres') {
    await installScnHorizon(database.db);
    await installFeedSql(database.db);
  }
  await refreshStatistics(database);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The migrations this code knows that the database has not applied, and how many it has applied
 * (for readiness): one read of Kysely's migration table. Migrations applied by a newer version are
 * not this process's concern.
 */
export async function migrationState(
  database: Database,
  migrations: Migrations,
): Promise<{ applied: number; pending: string[] }> {
  const known = Object.keys(migrations);
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(database.db);
  const applied = new Set(rows.map((r) => r.name));
  return { applied: applied.size, pending: known.filter((name) => !applied.has(name)) };
}

/** The database accepts no writes (a read-only SQLite file, a PostgreSQL standby or read-only user). */
export class ReadOnlyDatabaseError extends Error {
  override readonly name = 'ReadOnlyDatabaseError';
}

/**
 * Fails at start-up when the database cannot be written, instead of serving reads and answering
 * every write 503: on SQLite a row is written and rolled back (SQLite opens a file it may not
 * write read-only without a word, and in WAL mode even takes the write lock), on PostgreSQL the session
 * must not be read-only (a standby, or default_transaction_read_only).
 */
export async function assertWritable(database: Database): Promise<void> {
  if (database.engine === 'sqlite') {
    await sql`begin immediate`.execute(database.db);
    try {
      await sql`update scn_counter set value = value where id = 1`.execute(database.db);
    } finally {
      await sql`rollback`.execute(database.db);
    }
    return;
  }
  const { rows } = await sql<{ transaction_read_only: string }>`show transaction_read_only`.execute(
    database.db,
  );
  if (rows[0]?.transaction_read_only === 'on') {
    throw new ReadOnlyDatabaseError(
      'the PostgreSQL session is read-only (a standby, or default_transaction_read_only)',
    );
  }
}
