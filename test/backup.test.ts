import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../src/areas/catalog/demo/seed.ts';
import { restoreDatabase } from '../src/cli/backup.ts';
import { type Database, openDatabase } from '../src/kernel/db/database.ts';
import { budget, tv2 as cli } from './helpers/cli.ts';
import { sizeTable } from './helpers/fixtures.ts';
import { ENGINE, freshDatabaseUrl, startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * `tv2 backup` and `tv2 restore`, run as the command line runs them (child processes), on the
 * engine under test: a restored database holds exactly the rows and the SCN of the database as it
 * was when the backup was taken, also while another connection keeps writing.
 */

let t: TestApp;
let dir: string;
const drops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  t = await startTestApp();
  dir = mkdtempSync(join(tmpdir(), 'tv2-backup-'));
  await seedCatalog(t.services, { articles: 150, seed: 7, images: true });
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M']));
  for (let i = 0; i < 20; i++) {
    await t.services.clients.profiles.saveClient({
      email: `backup${i}@example.nl`,
      lastName: `Client ${i}`,
      country: 'NL',
    });
  }
  await t.tokenFor(['B2B', 'B2C']);
}, 120_000);
afterAll(async () => {
  for (const drop of drops) await drop();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

function tv2(args: string[], databaseUrl: string, env: NodeJS.ProcessEnv = {}) {
  return cli(args, { ...env, DATABASE_URL: databaseUrl, TV2_DEMO: '0' });
}

async function freshUrl(): Promise<string> {
  const fresh = await freshDatabaseUrl();
  drops.push(fresh.drop);
  return fresh.url;
}

/** A new, empty database of the engine under test that does not exist yet (restore creates it). */
async function newTargetUrl(): Promise<string> {
  const url = await freshUrl();
  if (ENGINE === 'postgres') {
    // freshDatabaseUrl created it; drop it so restore has to make it
    const name = new URL(url).pathname.slice(1);
    const admin = openDatabase(process.env.TV2_TEST_DATABASE_URL as string);
    await sql.raw(`DROP DATABASE ${name}`).execute(admin.db);
    await admin.close();
  }
  return url;
}

async function tablesOf(database: Database): Promise<string[]> {
  const rows =
    database.engine === 'sqlite'
      ? await sql<{
          name: string;
        }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`.execute(
          database.db,
        )
      : await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(database.db);
  return rows.rows.map((r) => r.name).sort();
}

/** Every row of every table, each as stable text (bytes as their SHA-256), sorted. */
async function contentsOf(url: string): Promise<Record<string, Array<Record<string, unknown>>>> {
  const database = openDatabase(url);
  try {
    const out: Record<string, Array<Record<string, unknown>>> = {};
    for (const table of await tablesOf(database)) {
      const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(
        database.db,
      );
      out[table] = rows
        .map((row) =>
          Object.fromEntries(
            Object.entries(row).map(([k, v]) => [
              k,
              Buffer.isBuffer(v) ? `sha256:${createHash('sha256').update(v).digest('hex')}` : v,
            ]),
          ),
        )
        .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    }
    return out;
  } finally {
    await database.close();
  }
}

const scnOf = (contents: Record<string, Array<Record<string, unknown>>>) =>
  Number(contents.scn_counter?.[0]?.value);

/** The SCN a `tv2 backup` or `tv2 restore` printed. */
function printedScn(stdout: string): number {
  const found = /SCN (\d+)/.exec(stdout);
  if (!found) throw new Error(`no SCN in ${stdout}`);
  return Number(found[1]);
}

/** The highest SCN stamped on any row of any table. */
function maxRowScn(contents: Record<string, Array<Record<string, unknown>>>): number {
  let max = 0;
  for (const [table, rows] of Object.entries(contents)) {
    if (table === 'scn_counter') continue;
    for (const row of rows) if (typeof row.scn === 'number' && row.scn > max) max = row.scn;
  }
  return max;
}

describe('tv2 backup and tv2 restore', () => {
  it('restore into a fresh database gives back every row of every table and the SCN', {
    timeout: budget(2),
  }, async () => {
    const file = join(dir, 'quiet.backup');
    const before = await contentsOf(t.databaseUrl);
    const backup = await tv2(['backup', file], t.databaseUrl);
    expect(backup.code, backup.stderr).toBe(0);
    // the SCN printed covers every change in the file; on SQLite it is the counter's, exactly
    const backedUp = printedScn(backup.stdout);
    expect(backedUp).toBeGreaterThanOrEqual(maxRowScn(before));
    if (ENGINE === 'sqlite') expect(backedUp).toBe(scnOf(before));

    const target = await newTargetUrl();
    const restore = await tv2(['restore', file], target);
    expect(restore.code, restore.stderr).toBe(0);
    // the restored database goes on from there (on PostgreSQL from the server's transaction ids)
    if (ENGINE === 'sqlite') expect(printedScn(restore.stdout)).toBe(backedUp);
    expect(printedScn(restore.stdout)).toBeGreaterThanOrEqual(backedUp);

    const restored = await contentsOf(target);
    expect(Object.keys(restored)).toEqual(Object.keys(before));
    for (const table of Object.keys(before)) expect(restored[table], table).toEqual(before[table]);
    expect(maxRowScn(restored)).toBeGreaterThan(100);
    expect(restored.article_image?.length).toBeGreaterThan(0);
  });

  it('a backup taken while another connection writes is one consistent snapshot', {
    timeout: budget(2),
  }, async () => {
    const file = join(dir, 'busy.backup');
    const writer = startWriter(t.databaseUrl);
    await writer.until(5);
    const writtenBefore = writer.count;
    const backup = await tv2(['backup', file], t.databaseUrl);
    await writer.until(writer.count + 3); // the writer went on after the snapshot
    await writer.stop();
    expect(backup.code, backup.stderr).toBe(0);

    const target = await newTargetUrl();
    const restore = await tv2(['restore', file], target);
    expect(restore.code, restore.stderr).toBe(0);
    const restored = await contentsOf(target);
    const live = await contentsOf(t.databaseUrl);
    const scn = printedScn(backup.stdout);

    // consistent: every change up to the SCN printed is in the copy (on SQLite exactly those: the
    // counter is the last SCN any restored row carries), and the writer's articles in the copy are
    // the ones it had committed by the snapshot
    const writerArticles = (rows: Array<Record<string, unknown>>) =>
      rows.filter((r) => String(r.article_no).startsWith('W-'));
    const numbers = (rows: Array<Record<string, unknown>>) =>
      rows.map((r) => Number(String(r.article_no).slice(2))).sort((a, b) => a - b);
    const inBackup = writerArticles(restored.article ?? []);
    const committedBySnapshot = writerArticles(live.article ?? []).filter((r) => Number(r.scn) <= scn);
    if (ENGINE === 'sqlite') {
      expect(maxRowScn(restored)).toBe(scn);
      expect(inBackup).toEqual(committedBySnapshot);
    } else {
      // on PostgreSQL a change committed just after the SCN was read may be in the copy too
      expect(maxRowScn(restored)).toBeGreaterThanOrEqual(scn);
      const copied = new Set(inBackup.map((r) => r.article_no));
      expect(committedBySnapshot.filter((r) => !copied.has(r.article_no))).toEqual([]);
    }
    // the writer saves one article after the other: the copy holds the first ones, unchanged
    expect(numbers(inBackup)).toEqual(Array.from({ length: inBackup.length }, (_, i) => i + 1));
    const liveByNo = new Map(writerArticles(live.article ?? []).map((r) => [r.article_no, r]));
    for (const row of inBackup) expect(row).toEqual(liveByNo.get(row.article_no));
    expect(inBackup.length).toBeGreaterThanOrEqual(writtenBefore);
    expect(writerArticles(live.article ?? []).length).toBeGreaterThan(inBackup.length);

    // every other row is the database as it was: the live rows less what the writer added later
    const copied = new Set(inBackup.map((r) => r.article_no));
    const later = new Set(
      writerArticles(live.article ?? [])
        .filter((r) => !copied.has(r.article_no))
        .map((r) => r.article_no),
    );
    for (const table of Object.keys(live)) {
      if (table === 'scn_counter') continue;
      const expected = (live[table] ?? []).filter((r) => !later.has(r.article_no));
      expect(restored[table], table).toEqual(expected);
    }
  });

  it('refuses to overwrite a database unless told to (--force), and a file that is no backup', {
    timeout: budget(6),
  }, async () => {
    const file = join(dir, 'force.backup');
    expect((await tv2(['backup', file], t.databaseUrl)).code).toBe(0);
    const again = await tv2(['backup', file], t.databaseUrl);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists; .*--force/);

    const target = await newTargetUrl();
    expect((await tv2(['restore', file], target)).code).toBe(0);
    const client = openDatabase(target);
    await client.db.deleteFrom('client').where('email', '=', 'backup0@example.nl').execute();
    await client.close();

    const refused = await tv2(['restore', file], target);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--force/);
    expect((await contentsOf(target)).client?.length).toBe(19);

    const forced = await tv2(['restore', '--force', file], target);
    expect(forced.code, forced.stderr).toBe(0);
    const restored = await contentsOf(target);
    expect(restored.client?.length).toBe(20);

    // recovery after a loss: the counter moved past what clients may have seen, the rows as backed up
    const advanced = await tv2(['restore', '--force', '--advance-scn', '1000', file], target);
    expect(advanced.code, advanced.stderr).toBe(0);
    const after = await contentsOf(target);
    expect(scnOf(after)).toBe(scnOf(restored) + 1000);
    expect(after.client).toEqual(restored.client);

    const bogus = join(dir, 'not-a-backup.txt');
    writeFileSync(bogus, 'hello, this is no database');
    await expect(restoreDatabase(await newTargetUrl(), bogus)).rejects.toThrow(/not a tv2 backup/);
  });

  it('refuses a damaged backup and leaves the target as it was', { timeout: budget(2) }, async () => {
    const file = join(dir, 'damaged.backup');
    expect((await tv2(['backup', file], t.databaseUrl)).code).toBe(0);
    const bytes = readFileSync(file);
    bytes.fill(
      0,
      Math.floor(bytes.length / 2),
      Math.floor(bytes.length / 2) + Math.min(65_536, Math.floor(bytes.length / 4)),
    );
    writeFileSync(file, bytes);
    const target = await newTargetUrl();
    const restore = await tv2(['restore', file], target);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/damaged|pg_restore failed/);
    if (ENGINE === 'sqlite') expect(existsSync(new URL(target.replace(/^sqlite:/, 'file:')))).toBe(false);
    else expect(Object.keys(await contentsOf(target))).toEqual([]);
  });

  it('names the missing tool when the PostgreSQL client tools are not installed (SQLite needs none)', {
    timeout: budget(1),
  }, async () => {
    const file = join(dir, 'no-tools.backup');
    const run = await tv2(['backup', file], t.databaseUrl, { PATH: '/nonexistent' });
    if (ENGINE === 'postgres') {
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/pg_dump was not found on PATH/);
      expect(existsSync(file)).toBe(false);
    } else {
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(file)).toBe(true);
    }
  });
});

/** A worker thread with its own connection saving new articles W-1, W-2, ... one transaction each. */
function startWriter(url: string) {
  const source = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { tsImport } = await import('tsx/esm/api');
  const { openDatabase } = await tsImport(workerData.databaseModule, workerData.databaseModule);
  const { CatalogService } = await tsImport(workerData.catalogModule, workerData.catalogModule);
  const { article } = await tsImport(workerData.fixturesModule, workerData.fixturesModule);
  const database = openDatabase(workerData.url, { poolSize: 1 });
  const catalog = new CatalogService(database);
  let stop = false;
  parentPort.on('message', () => { stop = true; });
  let n = 0;
  while (!stop) {
    n++;
    await catalog.saveArticle(article('W-' + n));
    parentPort.postMessage(n);
    await new Promise((r) => setTimeout(r, 5));
  }
  await database.close();
  parentPort.postMessage('stopped');
})().catch((e) => parentPort.postMessage('failed: ' + e.stack));
`;
  const worker = new Worker(source, {
    eval: true,
    workerData: {
      url,
      databaseModule: new URL('../src/kernel/db/database.ts', import.meta.url).href,
      catalogModule: new URL('../src/areas/catalog/catalog-service.ts', import.meta.url).href,
      fixturesModule: new URL('./helpers/fixtures.ts', import.meta.url).href,
    },
  });
  const state = { count: 0, failed: '', stopped: false };
  const waiters: Array<() => void> = [];
  worker.on('message', (m) => {
    if (typeof m === 'number') state.count = m;
    else if (m === 'stopped') state.stopped = true;
    else state.failed = String(m);
    for (const w of waiters.splice(0)) w();
  });
  const waitFor = async (done: () => boolean) => {
    while (!done()) {
      if (state.failed) throw new Error(state.failed);
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return {
    get count() {
      return state.count;
    },
    until: (n: number) => waitFor(() => state.count >= n),
    async stop() {
      worker.postMessage('stop');
      await waitFor(() => state.stopped);
      await worker.terminate();
    },
  };
}
