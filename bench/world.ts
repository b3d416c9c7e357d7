/**
 * The benchmark world (issue 10): the demo world at scale. N generated articles (about 6.7 sizes
 * each), then every other area's demo data on top of them: five locations with about 2.1 stock
 * levels per size, list prices in two price groups (EUR, and GBP for part of the range; about 6.25
 * rows per size), a dozen wholesale customers with agreements and line discounts, action prices,
 * retail clients, shops. At 100,000 articles: 667k sizes, 1.43M stock levels, 4.17M list prices.
 * Then the API user `bench` (B2B, B2C, ADMIN; secret BENCH_SECRET) and ANALYZE on either engine.
 *
 *   npm run bench:world -- --articles 100000 --db <sqlite path | postgres url> [--fresh] [--no-analyze]
 *
 * Everything goes through the areas' services (their index.ts demo seeders, each batch one
 * transaction), so the world follows the tables as they are today, positions and SCNs included.
 * Refuses a database that holds data unless --fresh (SQLite: the file is removed; PostgreSQL: the
 * database is dropped and created again through the server's `postgres` database). Writes a marker
 * (--marker, default <sqlite path>.world.json or .tmp/bench/<database>.world.json) with the counts,
 * the migrations it was made with and the time it took; bench/all.ts reuses a world whose marker
 * names the same articles and migrations.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { seedCatalog } from '../src/areas/catalog/index.ts';
import { AREAS, MIGRATIONS } from '../src/areas.ts';
import { loadConfig } from '../src/config.ts';
import { migrate, openDatabase } from '../src/kernel/db/database.ts';
import { createServices } from '../src/services.ts';

export const BENCH_USER = 'bench';
export const BENCH_SECRET = 'bench-secret-not-for-production';

export interface WorldMarker {
  articles: number;
  databaseUrl: string;
  engine: 'sqlite' | 'postgres';
  migrations: string[];
  counts: Record<string, number>;
  seconds: Record<string, number>;
  analyzed: boolean;
  createdAt: string;
}

const isPostgres = (db: string) => /^postgres(ql)?:\/\//.test(db);

/** `sqlite:<path>` for a path or a sqlite: URL; a postgres URL as it is. */
export function databaseUrlOf(db: string): string {
  if (isPostgres(db)) return db;
  return `sqlite:${resolve(db.replace(/^sqlite:(\/\/)?/, '').replace(/^file:/, ''))}`;
}

export function defaultMarkerPath(databaseUrl: string): string {
  if (!isPostgres(databaseUrl)) return `${databaseUrl.slice('sqlite:'.length)}.world.json`;
  const url = new URL(databaseUrl);
  return join(
    import.meta.dirname,
    '..',
    '.tmp',
    'bench',
    `${url.hostname}_${url.port}_${url.pathname.slice(1)}.world.json`,
  );
}

/** The server's maintenance database (`postgres`) for the given database URL. */
export function maintenanceUrl(databaseUrl: string): { url: string; name: string } {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  return { url: url.toString(), name };
}

async function recreatePostgres(databaseUrl: string): Promise<void> {
  const { url, name } = maintenanceUrl(databaseUrl);
  if (name === 'postgres') throw new Error('--fresh would drop the database `postgres`: name another one');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ident = `"${name.replaceAll('"', '""')}"`;
    await client.query(`DROP DATABASE IF EXISTS ${ident} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${ident}`);
  } finally {
    await client.end();
  }
}

async function ensurePostgresDatabase(databaseUrl: string): Promise<void> {
  const { url, name } = maintenanceUrl(databaseUrl);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/** Row counts of the tables the benchmark is about (those that exist). */
async function countRows(database: ReturnType<typeof openDatabase>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const tables = [
    'article',
    'article_size',
    'stock_location',
    'stock_level',
    'list_price',
    'customer',
    'price_agreement',
    'client',
  ];
  for (const table of tables) {
    try {
      const { rows } = await sql<{
        n: number | string;
      }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(database.db);
      counts[table] = Number(rows[0]?.n ?? 0);
    } catch {
      // a table of another shape or name in this version: not counted
    }
  }
  return counts;
}

export async function generateWorld(options: {
  articles: number;
  db: string;
  fresh: boolean;
  analyze: boolean;
  marker?: string;
  log?: (line: string) => void;
}): Promise<WorldMarker> {
  const log = options.log ?? ((line: string) => console.log(line));
  const databaseUrl = databaseUrlOf(options.db);
  const engine = isPostgres(databaseUrl) ? 'postgres' : 'sqlite';
  if (engine === 'sqlite') {
    const path = databaseUrl.slice('sqlite:'.length);
    if (options.fresh) for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    mkdirSync(dirname(path), { recursive: true });
  } else if (options.fresh) {
    await recreatePostgres(databaseUrl);
  } else {
    await ensurePostgresDatabase(databaseUrl);
  }

  const seconds: Record<string, number> = {};
  let started = performance.now();
  const lap = (name: string) => {
    seconds[name] = Number(((performance.now() - started) / 1000).toFixed(1));
    log(`  ${name}: ${seconds[name]} s`);
    started = performance.now();
  };

  const database = openDatabase(databaseUrl);
  try {
    await migrate(database, MIGRATIONS);
    const existing = await countRows(database);
    if ((existing.article ?? 0) > 0) {
      throw new Error(
        `${databaseUrl} already holds ${existing.article} articles: pass --fresh to start it again`,
      );
    }
    lap('migrations');
    const services = createServices(loadConfig({}, { databaseUrl, demo: false }), database);
    log(`generating ${options.articles} articles on ${engine}`);
    await seedCatalog(services, {
      articles: options.articles,
      images: false,
      batchSize: 1000,
      onProgress: (done, total) => {
        if (done % 20_000 === 0 || done === total) log(`  articles ${done}/${total}`);
      },
    });
    lap('catalog');
    // The other areas' demo data, in the order the server loads it (an area may use those before it).
    for (const area of AREAS) {
      if (area.name === 'catalog' || !area.seedDemo) continue;
      await area.seedDemo(services);
      lap(area.name);
    }
    await services.general.auth.createUser({
      name: BENCH_USER,
      secret: BENCH_SECRET,
      roles: ['B2B', 'B2C', 'ADMIN'],
    });
    if (options.analyze) {
      // SQLite: the planner's statistics (sqlite_stat1); PostgreSQL: statistics and the visibility
      // map, as autovacuum would leave them on a settled database.
      if (engine === 'sqlite') await sql`ANALYZE`.execute(database.db);
      else await sql`VACUUM ANALYZE`.execute(database.db);
      lap('analyze');
    }
    if (engine === 'sqlite') await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(database.db);
    const counts = await countRows(database);
    const marker: WorldMarker = {
      articles: options.articles,
      databaseUrl,
      engine,
      migrations: Object.keys(MIGRATIONS),
      counts,
      seconds,
      analyzed: options.analyze,
      createdAt: new Date().toISOString(),
    };
    const markerPath = options.marker ?? defaultMarkerPath(databaseUrl);
    mkdirSync(dirname(markerPath), { recursive: true });
    writeFileSync(markerPath, `${JSON.stringify(marker, null, 2)}\n`);
    return marker;
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      articles: { type: 'string', default: '100000' },
      db: { type: 'string' },
      fresh: { type: 'boolean', default: false },
      'no-analyze': { type: 'boolean', default: false },
      marker: { type: 'string' },
    },
  });
  if (!values.db) {
    console.error(
      'usage: npm run bench:world -- --articles 100000 --db <sqlite path | postgres url> [--fresh] [--no-analyze] [--marker file]',
    );
    process.exit(2);
  }
  const articles = Number(values.articles);
  if (!Number.isInteger(articles) || articles < 1) {
    console.error(`--articles must be a whole number of at least 1, got ${values.articles}`);
    process.exit(2);
  }
  const started = performance.now();
  const marker = await generateWorld({
    articles,
    db: values.db,
    fresh: values.fresh,
    analyze: !values['no-analyze'],
    marker: values.marker,
  });
  console.log(
    `world of ${articles} articles on ${marker.engine} in ${((performance.now() - started) / 1000).toFixed(0)} s: ${Object.entries(
      marker.counts,
    )
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}`,
  );
}
