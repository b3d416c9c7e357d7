import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
} from 'kysely';

/**
 * Kysely's stock SQLite driver prepares every statement anew and opens transactions with a plain
 * BEGIN. This one keeps prepared statements (the hot read path runs the same few SQL strings) and
 * opens write transactions with BEGIN IMMEDIATE, so two processes on one file never deadlock on a
 * read-to-write lock upgrade; the busy timeout then makes the second writer wait instead of failing.
 * It prepares each statement with its parameters hidden from the planner (`valueBlindSql`), so a
 * kept statement is not prepared again at every run.
 */
export class CachingSqliteDialect extends SqliteDialect {
  readonly #database: BetterSqlite3.Database;

  constructor(database: BetterSqlite3.Database) {
    super({ database });
    this.#database = database;
  }

  override createDriver(): Driver {
    return new CachingSqliteDriver(this.#database);
  }
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQL with each parameter `?` written `+?`: the same value (unary plus changes neither value,
 * type nor affinity, and compiles to no instruction), but no longer a bare parameter to the planner.
 *
 * SQLite plans a statement once without the parameters' values; where a value could improve the
 * plan (a `LIMIT ?`, an equality `x = ?` its cost heuristics look at, a LIKE pattern, sqlite_stat4
 * samples), it marks the statement to be prepared again, with the values, once new ones are bound.
 * better-sqlite3 binds every run's values afresh and clears them after the run, which expires such a
 * statement every time: every page (`LIMIT ?`) and every join with an equality on a parameter was
 * compiled again at each run, 0.1 to 0.2 ms each on the 100k world, often more than running it.
 * SQLite looks only at a bare parameter, so `+?` keeps the plan made without values (the plan
 * `npm run sql:snapshot` checks) for the statement's life; SQLite's own option for this, the query
 * planner stability guarantee (SQLITE_DBCONFIG_ENABLE_QPSG), is not reachable from better-sqlite3.
 * Parameters inside quotes, identifiers and comments are left alone; only `?` (what Kysely writes)
 * is rewritten, not named parameters.
 */
export function valueBlindSql(sql: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    let end = -1;
    if (c === "'" || c === '"' || c === '`') end = closing(sql, i, c);
    else if (c === '[') end = sql.indexOf(']', i + 1);
    else if (c === '-' && sql[i + 1] === '-') end = sql.indexOf('\n', i + 2);
    else if (c === '/' && sql[i + 1] === '*') end = sql.indexOf('*/', i + 2) + 1;
    else if (c === '?') {
      out += `${sql.slice(from, i)}+`;
      from = i;
      continue;
    } else continue;
    if (end <= 0) break; // unterminated: the rest is not SQL the planner sees
    i = end;
  }
  return out + sql.slice(from);
}

/** Where a quoted string or identifier opened at `start` ends (a doubled quote is part of it). */
function closing(sql: string, start: number, quote: string): number {
  let i = start;
  for (;;) {
    i = sql.indexOf(quote, i + 1);
    if (i < 0 || sql[i + 1] !== quote) return i;
    i++;
  }
}

class CachingSqliteConnection implements DatabaseConnection {
  readonly #db: BetterSqlite3.Database;
  readonly #statements = new Map<string, BetterSqlite3.Statement>();

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }

  #prepare(sql: string): BetterSqlite3.Statement {
    let stmt = this.#statements.get(sql);
    if (stmt === undefined) {
      stmt = this.#db.prepare(valueBlindSql(sql));
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiledQuery;
    const stmt = this.#prepare(sql);
    if (stmt.reader) return { rows: stmt.all(parameters as unknown[]) as R[] };
    const { changes, lastInsertRowid } = stmt.run(parameters as unknown[]);
    return {
      insertId: lastInsertRowid != null ? BigInt(lastInsertRowid) : undefined,
      numAffectedRows: changes != null ? BigInt(changes) : undefined,
      rows: [],
    };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { sql, parameters, query } = compiledQuery;
    if (!SelectQueryNode.is(query)) throw new Error('SQLite streams only SELECT queries');
    for (const row of this.#prepare(sql).iterate(parameters as unknown[])) yield { rows: [row as R] };
  }
}

class CachingSqliteDriver implements Driver {
  readonly #connection: CachingSqliteConnection;
  readonly #db: BetterSqlite3.Database;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
    this.#connection = new CachingSqliteConnection(db);
  }

  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {
    this.#db.close();
  }
}
