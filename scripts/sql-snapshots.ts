/**
 * Writes the SQL of every repository method to sql/<engine>/<area>/<repository>.sql, so the SQL
 * is reviewed with the change that alters it: `npm run sql:snapshot` (SQLite, and PostgreSQL too
 * when TV2_TEST_DATABASE_URL or `--pg <admin url>` is given; `--check` compares instead of
 * writing). test/sql-snapshots.test.ts regenerates the engine under test and fails on drift.
 *
 * How: the repositories are found by themselves (every class exported by
 * src/areas/<area>/*-repository.ts, every public method of each), and the examples by the
 * areas' src/areas/<area>/sql-examples.ts; a method without an example is refused. For each
 * engine a scratch database is created and migrated, the areas' seeds write the rows the examples
 * refer to, and each example call runs over a repository on a transaction that is rolled back,
 * with a Kysely `log` hook recording each statement's SQL text (also when the statement failed).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Sqlite from 'better-sqlite3';
import { CompiledQuery, Kysely, type LogEvent, PostgresDialect } from 'kysely';
import pg from 'pg';
import { format } from 'sql-formatter';
import { AREAS, MIGRATIONS } from '../src/areas.ts';
import { migrate, openDatabase } from '../src/kernel/db/database.ts';
import type { Engine } from '../src/kernel/db/engine.ts';
import type { DB } from '../src/kernel/db/schema.ts';
import type { AreaSqlExamples, SqlExampleCall } from '../src/kernel/db/sql-examples.ts';
import { CachingSqliteDialect } from '../src/kernel/db/sqlite-driver.ts';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const AREAS_DIR = join(ROOT, 'src', 'areas');
export const SNAPSHOT_DIR = join(ROOT, 'sql');

// biome-ignore lint/suspicious/noExplicitAny: a repository class of any type
type RepositoryClass = new (db: Kysely<DB>) => any;
// biome-ignore lint/suspicious/noExplicitAny: a call on any repository
type Call = SqlExampleCall<any>;

export interface FoundRepository {
  area: string;
  /** The file, relative to the project root. */
  file: string;
  name: string;
  repository: RepositoryClass;
  methods: string[];
}

export interface AreaExamples {
  area: string;
  file: string;
  examples: AreaSqlExamples;
}

/** One file of snapshot text, by its path relative to the project root. */
export type Snapshots = Map<string, string>;

export interface SnapshotRun {
  snapshots: Snapshots;
  repositories: number;
  methods: number;
  calls: number;
  statements: number;
  /** Example calls that threw (their SQL up to the failing statement is still recorded). */
  failures: string[];
  /** The paged reads (lists and feeds) whose query plan was checked, and what was wrong with them. */
  plans: { checked: number; problems: string[] };
}

// --- discovery ---------------------------------------------------------------------------------

/** The area folders in the order of src/areas.ts, any others after them by name. */
function areaFolders(): string[] {
  const folders = readdirSync(AREAS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  const order = AREAS.map((a) => a.name);
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return folders.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function isClass(value: unknown): value is RepositoryClass {
  return typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));
}

/** The public methods of a class, its base classes' included, in name order. */
export function publicMethods(repository: RepositoryClass): string[] {
  const names = new Set<string>();
  for (let p = repository.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const name of Object.getOwnPropertyNames(p)) {
      if (name === 'constructor') continue;
      if (typeof Object.getOwnPropertyDescriptor(p, name)?.value === 'function') names.add(name);
    }
  }
  return [...names].sort();
}

/** Every class exported by a src/areas/<area>/*-repository.ts file. */
export async function findRepositories(): Promise<FoundRepository[]> {
  const found: FoundRepository[] = [];
  for (const area of areaFolders()) {
    const files = readdirSync(join(AREAS_DIR, area))
      .filter((f) => f.endsWith('-repository.ts'))
      .sort();
    for (const f of files) {
      const path = join(AREAS_DIR, area, f);
      const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
      const classes = Object.values(module).filter(isClass);
      for (const repository of classes.sort((a, b) => a.name.localeCompare(b.name))) {
        found.push({
          area,
          file: relative(ROOT, path),
          name: repository.name,
          repository,
          methods: publicMethods(repository),
        });
      }
    }
  }
  return found;
}

/** The examples of every area that has a src/areas/<area>/sql-examples.ts. */
export async function loadExamples(): Promise<AreaExamples[]> {
  const out: AreaExamples[] = [];
  for (const area of areaFolders()) {
    const path = join(AREAS_DIR, area, 'sql-examples.ts');
    if (!existsSync(path)) continue;
    const module = (await import(pathToFileURL(path).href)) as { sqlExamples?: AreaSqlExamples };
    const file = relative(ROOT, path);
    if (!module.sqlExamples) throw new Error(`${file} does not export sqlExamples`);
    out.push({ area, file, examples: module.sqlExamples });
  }
  return out;
}

/**
 * What keeps the examples from covering the repositories: a repository without examples, a
 * public method without an example, an example of a method or class that does not exist. Empty
 * when every public method of every repository has an example.
 */
export function coverageProblems(repositories: FoundRepository[], areas: AreaExamples[]): string[] {
  const problems: string[] = [];
  const byClass = new Map<RepositoryClass, { file: string; calls: Record<string, unknown> }>();
  for (const { file, examples } of areas) {
    for (const { repository, calls } of examples.repositories) {
      const seen = byClass.get(repository);
      if (seen) problems.push(`${repository.name} has examples in both ${seen.file} and ${file}`);
      else byClass.set(repository, { file, calls });
    }
  }
  for (const found of repositories) {
    const examples = byClass.get(found.repository);
    const where = `src/areas/${found.area}/sql-examples.ts`;
    if (!examples) {
      problems.push(`${found.name} (${found.file}) has no examples: add them to ${where}`);
      continue;
    }
    byClass.delete(found.repository);
    for (const method of found.methods) {
      if (!(method in examples.calls)) {
        problems.push(`${found.name}.${method} (${found.file}) has no example in ${examples.file}`);
      }
    }
    for (const method of Object.keys(examples.calls)) {
      if (!found.methods.includes(method)) {
        problems.push(
          `${examples.file} has an example of ${found.name}.${method}, which is no public method`,
        );
      }
    }
  }
  for (const [repository, { file }] of byClass) {
    problems.push(`${file} has examples of ${repository.name}, which no src/areas/*/*-repository.ts exports`);
  }
  return problems;
}

/**
 * The areas in the order their seeds run: that of src/areas.ts, except that an area waits for the
 * areas its `seedAfter` names.
 */
function seedOrder(areas: AreaExamples[]): AreaExamples[] {
  const known = new Set(areas.map((a) => a.area));
  const done = new Set<string>();
  const left = [...areas];
  const out: AreaExamples[] = [];
  while (left.length > 0) {
    const i = left.findIndex((a) => (a.examples.seedAfter ?? []).every((n) => done.has(n) || !known.has(n)));
    if (i < 0)
      throw new Error(`SQL example seeds wait for each other: ${left.map((a) => a.area).join(', ')}`);
    const [next] = left.splice(i, 1) as [AreaExamples];
    done.add(next.area);
    out.push(next);
  }
  return out;
}

// --- scratch databases -------------------------------------------------------------------------

interface Scratch {
  url: string;
  /** A Kysely on the scratch database that tells `log` about every statement. */
  open(log: (event: LogEvent) => void): Kysely<DB>;
  drop(): Promise<void>;
}

async function scratchDatabase(engine: Engine, pgAdminUrl?: string): Promise<Scratch> {
  const name = `tv2_sql_${randomBytes(6).toString('hex')}`;
  if (engine === 'sqlite') {
    const file = join(tmpdir(), `${name}.db`);
    return {
      url: `sqlite:${file}`,
      open(log) {
        const database = new Sqlite(file);
        database.pragma('foreign_keys = ON');
        return new Kysely<DB>({ dialect: new CachingSqliteDialect(database), log });
      },
      async drop() {
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
      },
    };
  }
  if (!pgAdminUrl) throw new Error('PostgreSQL needs an admin URL (--pg <url> or TV2_TEST_DATABASE_URL)');
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    open(log) {
      // As openDatabase: int8 as JS numbers (the repositories' arithmetic on counts and ids).
      const types = {
        getTypeParser(oid: number, format?: 'text' | 'binary') {
          if (oid === pg.types.builtins.INT8) return (v: string) => Number(v);
          return pg.types.getTypeParser(oid, format);
        },
      };
      const pool = new pg.Pool({ connectionString: url.toString(), max: 1, types });
      return new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log });
    },
    async drop() {
      const c = new pg.Client({ connectionString: pgAdminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

// --- recording ---------------------------------------------------------------------------------

const ROLLBACK = new Error('rolled back on purpose');

interface Recorded {
  label: string;
  statements: string[];
  failed: boolean;
}

interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * A paged read: a list or feed page by stable position (`"pos" >=`) or a feed's "changed after"
 * condition (`likelihood(`, src/kernel/db/feed-sql.ts). Its plan must read an index range.
 */
export function isPagedRead(sqlText: string): boolean {
  return /^\s*(with|select)\b/i.test(sqlText) && /"pos"\s*>=|likelihood\(/i.test(sqlText);
}

/**
 * What is wrong with the plan of a paged read: on SQLite a table read whole (`SCAN t`, with or
 * without an index), on PostgreSQL (with sequential scans disabled, so any usable index is taken)
 * a sequential scan.
 */
export async function planProblems(trx: Kysely<DB>, engine: Engine, statement: Statement): Promise<string[]> {
  if (engine === 'sqlite') {
    const { rows } = await trx.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${statement.sql}`, [...statement.parameters]),
    );
    return rows
      .map((r) => r.detail)
      .filter((d) => /^SCAN (?!CONSTANT ROW|\()/.test(d) && !/^SCAN \w*subquery/.test(d));
  }
  // As if every table were large: no sequential scans, and joins by index lookups.
  for (const setting of ['enable_seqscan', 'enable_hashjoin', 'enable_mergejoin']) {
    await trx.executeQuery(CompiledQuery.raw(`SET LOCAL ${setting} = off`));
  }
  const { rows } = await trx.executeQuery<{ 'QUERY PLAN': PgPlan[] }>(
    CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${statement.sql}`, [...statement.parameters]),
  );
  const problems: string[] = [];
  const walk = (node: PgPlan) => {
    const type = node['Node Type'];
    const on = node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
    if (type === 'Seq Scan') problems.push(`Seq Scan${on}`);
    // an index read in full: no condition bounds it (it only orders, and a filter drops rows)
    if ((type === 'Index Scan' || type === 'Index Only Scan') && !node['Index Cond']) {
      problems.push(`${type} using ${node['Index Name']}${on} without an index condition`);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  for (const plan of rows[0]?.['QUERY PLAN'] ?? []) walk(plan.Plan as PgPlan);
  return problems;
}

interface PgPlan {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plan?: PgPlan;
  Plans?: PgPlan[];
}

/** The statements of one example call, run on a transaction that is rolled back. */
async function record(
  db: Kysely<DB>,
  engine: Engine,
  sink: { statements?: Statement[] },
  repository: RepositoryClass,
  call: Call,
): Promise<{ statements: string[]; plans: Array<{ sql: string; problems: string[] }>; error?: unknown }> {
  const statements: Statement[] = [];
  const plans: Array<{ sql: string; problems: string[] }> = [];
  let error: unknown;
  try {
    await db.transaction().execute(async (trx) => {
      sink.statements = statements;
      try {
        await call(new repository(trx), trx);
      } catch (e) {
        error = e;
      } finally {
        sink.statements = undefined;
      }
      if (error === undefined) {
        for (const statement of statements.filter((st) => isPagedRead(st.sql))) {
          plans.push({ sql: statement.sql, problems: await planProblems(trx, engine, statement) });
        }
      }
      throw ROLLBACK;
    });
  } catch (e) {
    if (e !== ROLLBACK) throw e;
  }
  const sqlTexts = statements.map((st) => st.sql);
  return error === undefined ? { statements: sqlTexts, plans } : { statements: sqlTexts, plans, error };
}

function variantsOf(example: Call | Readonly<Record<string, Call>>): Array<[string | undefined, Call]> {
  return typeof example === 'function' ? [[undefined, example]] : Object.entries(example);
}

const LANGUAGE = { sqlite: 'sqlite', postgres: 'postgresql' } as const;

/** A statement laid out for reading; the parameters stay placeholders. */
export function pretty(sqlText: string, engine: Engine): string {
  try {
    return format(sqlText, { language: LANGUAGE[engine], keywordCase: 'upper', tabWidth: 2 });
  } catch {
    return sqlText.trim();
  }
}

const ENGINE_NAME = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

function snapshotText(engine: Engine, found: FoundRepository, examplesFile: string, recorded: Recorded[]) {
  const lines = [
    `-- The SQL that ${found.name} (${found.file}) runs on ${ENGINE_NAME[engine]}, method by method,`,
    `-- for the example calls of ${examplesFile}.`,
    '-- Generated by `npm run sql:snapshot` (scripts/sql-snapshots.ts): do not edit.',
  ];
  for (const r of recorded) {
    lines.push('', `-- ${r.label}`);
    if (r.failed) lines.push('-- (the example call failed; statements after the failing one are missing)');
    if (r.statements.length === 0) lines.push('-- (no SQL)');
    else lines.push(r.statements.map((statement) => `${pretty(statement, engine)};`).join('\n\n'));
  }
  return `${lines.join('\n')}\n`;
}

/** The snapshots of one engine: a scratch database is created, used and dropped. */
export async function generateSnapshots(engine: Engine, pgAdminUrl?: string): Promise<SnapshotRun> {
  const repositories = await findRepositories();
  const areas = await loadExamples();
  const problems = coverageProblems(repositories, areas);
  if (problems.length > 0) {
    throw new Error(`SQL examples are incomplete:\n  ${problems.join('\n  ')}`);
  }
  const examplesOf = new Map(
    areas.flatMap(({ file, examples }) =>
      examples.repositories.map((r) => [r.repository, { file, calls: r.calls }] as const),
    ),
  );

  const scratch = await scratchDatabase(engine, pgAdminUrl);
  const run: SnapshotRun = {
    snapshots: new Map(),
    repositories: 0,
    methods: 0,
    calls: 0,
    statements: 0,
    failures: [],
    plans: { checked: 0, problems: [] },
  };
  try {
    const database = openDatabase(scratch.url);
    try {
      await migrate(database, MIGRATIONS);
      for (const { examples } of seedOrder(areas)) await examples.seed?.(database.db);
    } finally {
      await database.close();
    }

    const sink: { statements?: Statement[] } = {};
    const db = scratch.open((event) =>
      sink.statements?.push({ sql: event.query.sql, parameters: event.query.parameters }),
    );
    try {
      for (const found of repositories) {
        const { file, calls } = examplesOf.get(found.repository)!;
        const recorded: Recorded[] = [];
        for (const method of found.methods) {
          run.methods++;
          for (const [variant, call] of variantsOf(calls[method]!)) {
            const label = `${found.name}.${method}${variant === undefined ? '' : ` (${variant})`}`;
            const { statements, plans, error } = await record(db, engine, sink, found.repository, call);
            if (error !== undefined) {
              run.failures.push(`${ENGINE_NAME[engine]}: ${label}: ${(error as Error)?.message ?? error}`);
            }
            for (const plan of plans) {
              run.plans.checked++;
              if (plan.problems.length > 0) {
                run.plans.problems.push(
                  `${ENGINE_NAME[engine]}: ${label} reads a whole table: ${plan.problems.join('; ')}`,
                );
              }
            }
            recorded.push({ label, statements, failed: error !== undefined });
            run.calls++;
            run.statements += statements.length;
          }
        }
        run.repositories++;
        const path = join('sql', engine, found.area, `${kebab(found.name)}.sql`);
        run.snapshots.set(path, snapshotText(engine, found, file, recorded));
      }
    } finally {
      await db.destroy();
    }
  } finally {
    await scratch.drop();
  }
  return run;
}

function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

// --- the checked-in files ----------------------------------------------------------------------

/** The checked-in snapshots of one engine, by path relative to the project root. */
export function checkedInSnapshots(engine: Engine): Snapshots {
  const out: Snapshots = new Map();
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.sql')) out.set(relative(ROOT, path), readFileSync(path, 'utf8'));
    }
  };
  walk(join(SNAPSHOT_DIR, engine));
  return out;
}

/** How the checked-in snapshots differ from the generated ones, one line per file. */
export function drift(generated: Snapshots, checkedIn: Snapshots): string[] {
  const out: string[] = [];
  for (const [path, text] of generated) {
    const old = checkedIn.get(path);
    if (old === undefined) out.push(`${path} is missing`);
    else if (old !== text) out.push(`${path} differs (${firstDifference(old, text)})`);
  }
  for (const path of checkedIn.keys()) {
    if (!generated.has(path)) out.push(`${path} is stale: no repository writes it any more`);
  }
  return out.sort();
}

function firstDifference(old: string, now: string): string {
  const a = old.split('\n');
  const b = now.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const line = (lines: string[]) => (i < lines.length ? `'${lines[i]!.trim()}'` : 'the end');
  return `line ${i + 1} is now ${line(b)}, checked in ${line(a)}`;
}

function write(engine: Engine, generated: Snapshots): void {
  for (const path of checkedInSnapshots(engine).keys()) {
    if (!generated.has(path)) rmSync(join(ROOT, path));
  }
  for (const [path, text] of generated) {
    const file = join(ROOT, path);
    mkdirSync(dirname(file), { recursive: true });
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
  }
  removeEmptyFolders(join(SNAPSHOT_DIR, engine));
}

function removeEmptyFolders(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) removeEmptyFolders(join(dir, entry.name));
  }
  if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
}

// --- command line ------------------------------------------------------------------------------

async function main(args: string[]): Promise<number> {
  let pgUrl = process.env.TV2_TEST_DATABASE_URL || undefined;
  let check = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--pg') {
      pgUrl = args[++i];
      if (!pgUrl) throw new Error('--pg needs a PostgreSQL admin URL');
    } else if (arg === '--check') check = true;
    else throw new Error(`unknown argument ${arg} (usage: sql-snapshots.ts [--pg <admin url>] [--check])`);
  }
  const engines: Engine[] = pgUrl ? ['sqlite', 'postgres'] : ['sqlite'];
  let status = 0;
  for (const engine of engines) {
    const run = await generateSnapshots(engine, pgUrl);
    for (const failure of run.failures) console.warn(`warning: ${failure}`);
    for (const problem of run.plans.problems) console.warn(`plan: ${problem}`);
    const summary = `${run.repositories} repositories, ${run.methods} methods, ${run.calls} example calls, ${run.statements} statements, ${run.plans.checked} paged reads planned, ${run.plans.problems.length} reading a whole table`;
    if (check) {
      const differences = drift(run.snapshots, checkedInSnapshots(engine));
      if (differences.length > 0) {
        status = 1;
        console.error(
          `${ENGINE_NAME[engine]}: the SQL snapshots are out of date (run npm run sql:snapshot):`,
        );
        for (const d of differences) console.error(`  ${d}`);
      } else console.log(`${ENGINE_NAME[engine]}: up to date (${summary})`);
    } else {
      write(engine, run.snapshots);
      console.log(`${ENGINE_NAME[engine]}: wrote sql/${engine}/ (${summary})`);
    }
  }
  if (!pgUrl) console.log('PostgreSQL skipped: give --pg <admin url> or set TV2_TEST_DATABASE_URL');
  return status;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (status) => {
      process.exitCode = status;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
