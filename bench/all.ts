/**
 * The benchmark record of issue 10: one table, both engines, each tv2 figure against a bare
 * Fastify process serving the same bytes (or running the same SELECT) in the same run, on the
 * generated world of bench/world.ts.
 *
 *   npm run bench:all -- [--articles 100000] [--engines sqlite,postgres] [--pg <url>] [--seconds 8]
 *                        [--regenerate] [--no-stats] [--out .tmp/bench-all.md]
 *
 * The world is made once per engine and size (SQLite: .tmp/bench/world-<N>.sqlite; PostgreSQL: the
 * database tv2_bench_world_<N> on the server of --pg) and reused while its marker names the same
 * article count and migrations; every run works on a fresh copy of it (a file copy; CREATE
 * DATABASE ... TEMPLATE). PostgreSQL needs --pg (or TV2_BENCH_PG); its durability settings
 * (fsync, synchronous_commit) are shown with the write rows. The machine is shared: the ratios of
 * the same run are the figures to compare, the absolute numbers only within a run.
 * --no-stats (SQLite only) empties sqlite_stat1 in the run's copy: a database never ANALYZEd.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { MIGRATIONS } from '../src/areas.ts';
import { runEngine } from './all-engine.ts';
import type { Row } from './all-rows.ts';
import { defaultMarkerPath, maintenanceUrl, type WorldMarker } from './world.ts';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    articles: { type: 'string', default: '100000' },
    engines: { type: 'string' },
    pg: { type: 'string', default: process.env.TV2_BENCH_PG },
    seconds: { type: 'string', default: '8' },
    regenerate: { type: 'boolean', default: false },
    'no-stats': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, '.tmp', 'bench-all.md') },
  },
});
const articles = Number(values.articles);
const seconds = Number(values.seconds);
const engines = (values.engines ?? (values.pg ? 'sqlite,postgres' : 'sqlite'))
  .split(',')
  .map((e) => e.trim());
for (const e of engines) if (e !== 'sqlite' && e !== 'postgres') throw new Error(`unknown engine ${e}`);
if (engines.includes('postgres') && !values.pg)
  throw new Error('PostgreSQL needs --pg <url> (or TV2_BENCH_PG)');
if (!Number.isInteger(articles) || articles < 1)
  throw new Error(`--articles must be a whole number, got ${values.articles}`);

const log = (line: string) => console.error(`[bench:all] ${line}`);
const benchDir = join(root, '.tmp', 'bench');
mkdirSync(benchDir, { recursive: true });

function pgUrl(database: string): string {
  const url = new URL(values.pg as string);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The world's database URL, generated unless a marker of the same size and migrations is there. */
function ensureWorld(engine: string): { url: string; marker: WorldMarker } {
  const url =
    engine === 'sqlite'
      ? `sqlite:${join(benchDir, `world-${articles}.sqlite`)}`
      : pgUrl(`tv2_bench_world_${articles}`);
  const markerPath = defaultMarkerPath(url);
  const migrations = Object.keys(MIGRATIONS);
  if (!values.regenerate && existsSync(markerPath)) {
    const marker = JSON.parse(readFileSync(markerPath, 'utf8')) as WorldMarker;
    if (marker.articles === articles && marker.migrations.join() === migrations.join()) {
      log(`reusing the ${engine} world of ${articles} articles made ${marker.createdAt}`);
      return { url, marker };
    }
  }
  log(`generating the ${engine} world of ${articles} articles`);
  const result = spawnSync(
    process.execPath,
    ['bench/world.ts', '--articles', String(articles), '--db', url, '--fresh', '--marker', markerPath],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.status !== 0) throw new Error(`world generation failed (exit ${result.status})`);
  return { url, marker: JSON.parse(readFileSync(markerPath, 'utf8')) as WorldMarker };
}

/** A fresh copy of the world for this run. */
async function runCopy(engine: string, worldUrl: string): Promise<string> {
  if (engine === 'sqlite') {
    const path = join(benchDir, `run-${articles}.sqlite`);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    copyFileSync(worldUrl.slice('sqlite:'.length), path);
    // written out before the rows measure: the kernel's write-back of 1.4 GiB (the 100k world)
    // would otherwise run beside the first rows
    const fd = openSync(path, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (values['no-stats']) {
      const { default: Sqlite } = await import('better-sqlite3');
      const db = new Sqlite(path);
      const stat = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get();
      if (stat) db.exec('DELETE FROM sqlite_stat1');
      db.close();
    }
    return `sqlite:${path}`;
  }
  const { url, name: world } = maintenanceUrl(worldUrl);
  const name = `tv2_bench_run_${articles}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${world}`);
    // the copy's pages written out before the rows measure (as the SQLite copy's)
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
  return pgUrl(name);
}

const git = (args: string[]) => {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
};
const commit = git(['rev-parse', '--short', 'HEAD']);
const dirty = git(['status', '--porcelain', '--', 'src', 'bin'])
  ? ' (with uncommitted changes in src/bin)'
  : '';
const startedAt = new Date();
const load = loadavg()
  .map((n) => n.toFixed(1))
  .join(' ');

const rows: Row[] = [];
const worlds: string[] = [];
for (const engine of engines) {
  const world = ensureWorld(engine);
  const c = world.marker.counts;
  worlds.push(
    `${engine}: ${Object.entries(c)
      .map(([t, n]) => `${t} ${n.toLocaleString('en')}`)
      .join(
        ', ',
      )}${world.marker.analyzed && !(engine === 'sqlite' && values['no-stats']) ? ', ANALYZEd' : ', no planner statistics'}`,
  );
  const databaseUrl = await runCopy(engine, world.url);
  const work = join(benchDir, `work-${engine}`);
  rmSync(work, { recursive: true, force: true });
  log(`${engine}: measuring on ${databaseUrl}`);
  rows.push(
    ...(await runEngine({
      engine: engine as 'sqlite' | 'postgres',
      databaseUrl,
      articles,
      seconds,
      work,
      root,
      log,
    })),
  );
  rmSync(work, { recursive: true, force: true });
}

const byPath = [...rows].sort(
  (a, b) => rows.findIndex((r) => r.path === a.path) - rows.findIndex((r) => r.path === b.path),
);
const table = [
  '| path | engine | tv2 | baseline | ratio | notes |',
  '|---|---|---|---|---|---|',
  ...byPath.map((r) => `| ${r.path} | ${r.engine} | ${r.tv2} | ${r.baseline} | ${r.ratio} | ${r.notes} |`),
].join('\n');
const report = `## npm run bench:all, ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC

Commit ${commit}${dirty}; ${articles.toLocaleString('en')} articles; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? '?'}; load average at start ${load}; ${seconds} s of load per tv2 row at 32 connections (reads and writes), in three rounds with a 3 s baseline run before, between and after them; a row is its median round (its ratio against the mean of the baseline runs on either side).
World: ${worlds.join('; ')}.
Baseline: a bare Fastify process serving the bytes tv2 answered (captured from it), or, for the feeds, running the SELECT of the changed rows itself. Ratio: for req/s rows tv2 ÷ baseline (1 is as fast as bare Fastify); for times and memory (×) tv2 ÷ baseline (1× is as fast or as small).

${table}
`;
mkdirSync(join(values.out as string, '..'), { recursive: true });
writeFileSync(values.out as string, report);
console.log(report);
