import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import Sqlite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { MIGRATIONS } from '../areas.ts';
import { isPostgresUrl, sqlitePathFrom } from '../config.ts';
import { type Database, migrate, openDatabase } from '../kernel/db/database.ts';
import { currentScn } from '../kernel/db/unit-of-work.ts';

/**
 * `tv2 backup <file>` and `tv2 restore <file>` (see docs/backup.md).
 *
 * SQLite: the online backup API of the running database file (a consistent snapshot, taken in one
 * read transaction, while other processes go on writing), written to a temporary file and renamed
 * into place. Restore checks the copy (`PRAGMA integrity_check`, known migrations) before it is
 * renamed over the database file, then applies any newer migrations.
 *
 * PostgreSQL: `pg_dump --format=custom` (one snapshot of the whole database, also under load) and
 * `pg_restore --single-transaction` (all or nothing), run from PATH.
 */

export class BackupError extends Error {}

export interface BackupResult {
  engine: 'sqlite' | 'postgres';
  file: string;
  bytes: number;
  /** The SCN counter in the backup: every change up to it is in the file, none after it. */
  scn: number;
  seconds: number;
}

export interface RestoreResult {
  engine: 'sqlite' | 'postgres';
  /** The SCN counter of the restored database (the one the backup holds). */
  scn: number;
  /** Migrations applied after the restore (the backup was made by an older version). */
  migrated: string[];
  seconds: number;
}

const SQLITE_MAGIC = 'SQLite format 3\0';
const PG_DUMP_MAGIC = 'PGDMP';
const run = promisify(execFile);

function seconds(started: number): number {
  return Number(((performance.now() - started) / 1000).toFixed(2));
}

/** A file next to `file` to write into before renaming it into place. */
function partialOf(file: string): string {
  return `${file}.partial-${process.pid}-${randomBytes(3).toString('hex')}`;
}

function kindOfFile(file: string): 'sqlite' | 'postgres' | 'unknown' {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    const text = head.subarray(0, n).toString('latin1');
    if (text === SQLITE_MAGIC) return 'sqlite';
    if (text.startsWith(PG_DUMP_MAGIC)) return 'postgres';
    return 'unknown';
  } finally {
    closeSync(fd);
  }
}

/** The SCN a reader would take now: every change up to it has committed (unit-of-work.ts). */
function scnOf(database: Database): Promise<number> {
  return currentScn(database.db);
}

/** Migration names this version knows, in order. */
function knownMigrations(): Set<string> {
  return new Set(Object.keys(MIGRATIONS));
}

export async function backupDatabase(
  url: string,
  file: string,
  options: { force?: boolean } = {},
): Promise<BackupResult> {
  const started = performance.now();
  const target = resolve(file);
  if (existsSync(target) && !options.force) {
    throw new BackupError(`${file} exists; choose another name or pass --force to replace it`);
  }
  if (!existsSync(dirname(target))) throw new BackupError(`the folder of ${file} does not exist`);
  const partial = partialOf(target);
  try {
    const engine = isPostgresUrl(url) ? 'postgres' : 'sqlite';
    const scn = engine === 'postgres' ? await pgDump(url, partial) : await sqliteBackup(url, partial);
    renameSync(partial, target);
    return { engine, file: target, bytes: statSync(target).size, scn, seconds: seconds(started) };
  } finally {
    rmSync(partial, { force: true });
  }
}

async function sqliteBackup(url: string, partial: string): Promise<number> {
  const source = sqlitePathFrom(url);
  if (source === ':memory:' || !existsSync(source)) throw new BackupError(`no database file at ${source}`);
  const db = new Sqlite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    // All pages in one step: one read transaction, so the copy is one consistent snapshot even
    // while other connections write (in WAL mode they are not blocked by it).
    await db.backup(partial, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  const copy = new Sqlite(partial, { fileMustExist: true });
  try {
    const row = copy.prepare('SELECT value FROM scn_counter WHERE id = 1').get() as
      | { value: number }
      | undefined;
    return Number(row?.value ?? 0);
  } finally {
    copy.close();
  }
}

/** Connection settings for the PostgreSQL tools: the URL without its password (it goes in PGPASSWORD). */
function pgToolArgs(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

async function pgTool(tool: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv) {
  try {
    return await run(tool, args, { env, maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') {
      throw new BackupError(
        `${tool} was not found on PATH: install the PostgreSQL client tools (the server's major version or newer, e.g. apt-get install postgresql-client) or add them to PATH`,
      );
    }
    throw new BackupError(`${tool} failed: ${(e.stderr ?? e.message).trim()}`);
  }
}

/**
 * Dumps the database; answers the SCN read just before the dump started: every change up to it is
 * in the dump (a transaction with an SCN up to it had ended), and changes committed after it may be
 * there too (on PostgreSQL SCNs are not handed out in commit order; docs/backup.md).
 */
async function pgDump(url: string, partial: string): Promise<number> {
  const { dbname, env } = pgToolArgs(url);
  const database = openDatabase(url);
  let scn: number;
  try {
    scn = await scnOf(database);
  } finally {
    await database.close();
  }
  await pgTool(
    'pg_dump',
    ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${dbname}`],
    env,
  );
  return scn;
}

export interface RestoreOptions {
  /** Replace an existing, non-empty database. */
  force?: boolean;
  /**
   * Raise the SCN counter by this much after the restore: past every number a client may have seen
   * from the lost database, so no new change hides behind a client's sync cursor (docs/backup.md).
   */
  advanceScn?: number;
}

export async function restoreDatabase(
  url: string,
  file: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const started = performance.now();
  if (!existsSync(file)) throw new BackupError(`no backup file ${file}`);
  const engine = isPostgresUrl(url) ? 'postgres' : 'sqlite';
  const kind = kindOfFile(file);
  if (kind === 'unknown')
    throw new BackupError(`${file} is not a tv2 backup (neither SQLite nor pg_dump custom format)`);
  if (kind !== engine) {
    throw new BackupError(
      `${file} is a ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} backup, but DATABASE_URL is a ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database`,
    );
  }
  if (engine === 'sqlite') await sqliteRestore(url, file, options.force === true);
  else await pgRestore(url, file, options.force === true);
  const database = openDatabase(url);
  try {
    const migrated = await migrate(database, MIGRATIONS);
    if (options.advanceScn) {
      await database.db
        .updateTable('scn_counter')
        .set({ value: sql`value + ${options.advanceScn}` })
        .where('id', '=', 1)
        .execute();
    }
    return { engine, scn: await scnOf(database), migrated, seconds: seconds(started) };
  } finally {
    await database.close();
  }
}

async function sqliteRestore(url: string, file: string, force: boolean): Promise<void> {
  const target = sqlitePathFrom(url);
  if (target === ':memory:') throw new BackupError('cannot restore into an in-memory database');
  if (existsSync(target) && statSync(target).size > 0 && !force) {
    throw new BackupError(
      `${target} exists; pass --force to replace it (stop every tv2 process that uses it first)`,
    );
  }
  const partial = partialOf(target);
  try {
    copyFileSync(file, partial);
    const copy = new Sqlite(partial, { fileMustExist: true });
    try {
      checkIntegrity(copy, file);
      const applied = (
        copy
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'")
          .get()
          ? (copy.prepare('SELECT name FROM kysely_migration').all() as Array<{ name: string }>)
          : []
      ).map((r) => r.name);
      if (applied.length === 0) throw new BackupError(`${file} is not a tv2 database (no migrations)`);
      const known = knownMigrations();
      const unknown = applied.filter((m) => !known.has(m));
      if (unknown.length > 0) {
        throw new BackupError(
          `${file} comes from a newer tv2 (migrations ${unknown.join(', ')}); restore it with that version`,
        );
      }
    } finally {
      copy.close();
    }
    // A write-ahead log left beside the old file must never be applied to the new one.
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${target}${suffix}`, { force: true });
    renameSync(partial, target);
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
  }
}

/** `PRAGMA integrity_check` of a restored copy: any finding (or a file too broken to check) refuses it. */
function checkIntegrity(copy: Sqlite.Database, file: string): void {
  let problems: string[];
  try {
    problems = (copy.pragma('integrity_check') as Array<{ integrity_check: string }>)
      .map((r) => r.integrity_check)
      .filter((r) => r !== 'ok');
  } catch (error) {
    problems = [(error as Error).message];
  }
  if (problems.length > 0) {
    throw new BackupError(`${file} is damaged (integrity_check: ${problems.slice(0, 5).join('; ')})`);
  }
}

async function pgRestore(url: string, file: string, force: boolean): Promise<void> {
  await ensurePgDatabase(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema()',
    );
    if (Number(rows[0]?.n ?? 0) > 0 && !force) {
      throw new BackupError(
        `the database ${new URL(url).pathname.slice(1)} is not empty; pass --force to replace its contents (stop every tv2 process that uses it first)`,
      );
    }
  } finally {
    await client.end();
  }
  const { dbname, env } = pgToolArgs(url);
  await pgTool(
    'pg_restore',
    [
      '--no-owner',
      '--no-privileges',
      '--single-transaction',
      '--exit-on-error',
      ...(force ? ['--clean', '--if-exists'] : []),
      `--dbname=${dbname}`,
      file,
    ],
    env,
  );
}

/** Creates the target database when it does not exist yet (restoring into a new server). */
async function ensurePgDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.end();
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error; // invalid_catalog_name
  }
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: maintenance.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }
}
