/**
 * What re-preparing statements cost on SQLite (decision 28, docs/architecture.md "Query plans"):
 * the driver prepares each statement with its parameters written `+?` (sqlite-driver.ts,
 * valueBlindSql), so SQLite never compiles a kept statement again when a run binds new values. This
 * bench starts two tv2 processes on the same copy of a world, as production starts it: one as it
 * is, one with the rewrite undone (a preloaded module makes better-sqlite3 prepare `?` again: the
 * driver as it was, nothing else changed), and loads them in turn with the same reads (no answer
 * from a cache), 32 connections as bench/all-engine.ts does, --rounds times each, alternating.
 *
 *   node bench/sqlite-prepare.ts --db sqlite:/tmp/copy.sqlite [--seconds 6] [--rounds 2]
 *
 * Prints requests per second and tv2's CPU per request for each read and each process, and the
 * ratio (value-blind / as before). Work on a copy of the world: the run writes nothing but tokens.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FIRST_DEMO_CUSTOMER } from '../src/areas/customers/index.ts';
import { type Article, CONNECTIONS, EXEC, getText, shuffled } from './all-rows.ts';
import { type LoadResult, load, type Started, startProcess, stopProcess } from './measure.ts';
import { BENCH_SECRET, BENCH_USER } from './world.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    seconds: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '2' },
    work: { type: 'string', default: '/tmp/tv2-sqlite-prepare' },
  },
});
if (!values.db?.startsWith('sqlite:')) throw new Error('--db sqlite:<a copy of a world> is required');
const root = join(import.meta.dirname, '..');
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const log = (line: string) => console.log(line);
const env = { DATABASE_URL: values.db, LOG_LEVEL: 'warn', TV2_DEMO: '0' };
const basic = { authorization: `Basic ${Buffer.from(`${BENCH_USER}:${BENCH_SECRET}`).toString('base64')}` };

// The driver as it was: better-sqlite3 prepares the SQL with its parameters bare again.
const undo = join(values.work, 'bare-parameters.mjs');
mkdirSync(values.work, { recursive: true });
writeFileSync(
  undo,
  `import { createRequire } from 'node:module';
const Database = createRequire(${JSON.stringify(join(root, 'package.json'))})('better-sqlite3');
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (sql) { return prepare.call(this, sql.replaceAll('+?', '?')); };
`,
);

const ticks = (pid: number) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
};

const started: Started[] = [];
const start = async (args: string[]) => {
  const s = await startProcess([...args, 'bin/tv2.js', 'serve'], env, { path: '/health/ready' }, root);
  started.push(s);
  return s;
};
const tokenOf = async (s: Started) =>
  (JSON.parse(await getText(`${s.base}/TV2/GetToken`, basic)) as { GETTOKEN: { TOKEN: string } }).GETTOKEN
    .TOKEN;

try {
  // The articles as the record finds them, from a process of its own (the measured ones start cold).
  log('B2B_GetAllArticles pass');
  const articles: Article[] = [];
  {
    const lister = await start([]);
    const auth = { authorization: `Bearer ${await tokenOf(lister)}` };
    for (let offset: number | null = 1; offset !== null; ) {
      const page = JSON.parse(
        await getText(`${lister.base}${EXEC}B2B_GetAllArticles?stroffset=${offset}&strlimit=1000`, auth),
      ).B2BGETALLARTICLES as {
        ARTICLES: Array<{
          ARTICLE: string;
          ACTIVE: boolean;
          RETAIL: boolean;
          SIZES: Array<{ SIZEX: string }>;
        }>;
        NEXTOFFSET: number | null;
      };
      for (const a of page.ARTICLES)
        articles.push({
          no: a.ARTICLE,
          active: a.ACTIVE,
          retail: a.RETAIL,
          sizes: a.SIZES.map((s) => s.SIZEX),
        });
      offset = page.NEXTOFFSET;
    }
    await stopProcess(lister.child);
    started.pop();
  }
  const live = articles.filter((a) => a.active && a.sizes.length > 0);
  const retail = shuffled(live.filter((a) => a.retail));
  const priced = shuffled(live);
  log(`${articles.length} articles, ${retail.length} for retail`);

  const variants = {
    before: await start(['--import', undo]),
    after: await start([]),
  };
  const auth = {
    before: { authorization: `Bearer ${await tokenOf(variants.before)}` },
    after: { authorization: `Bearer ${await tokenOf(variants.after)}` },
  };

  type Read = { label: string; items: Article[]; path: (a: Article, i: number) => string };
  const reads: Read[] = [
    {
      label: 'B2C_GetArticle, cache missed',
      items: retail,
      path: (a) => `${EXEC}B2C_GetArticle?strarticle=${encodeURIComponent(a.no)}`,
    },
    {
      label: 'B2B_GetArticlePrice',
      items: priced,
      path: (a, i) =>
        `${EXEC}B2B_GetArticlePrice?strcustomer=${FIRST_DEMO_CUSTOMER + (i % 9)}&strarticle=${encodeURIComponent(a.no)}&strsize=${encodeURIComponent(a.sizes[i % a.sizes.length] ?? '')}`,
    },
    {
      label: 'B2C_GetArticleStock',
      items: retail,
      path: (a) => `${EXEC}B2C_GetArticleStock?strarticle=${encodeURIComponent(a.no)}`,
    },
    {
      // a page of 100 from a different place each time (the index i stands for the offset)
      label: 'B2C_GetAllArticles, 100 a page',
      items: articles,
      path: (_a, i) =>
        `${EXEC}B2C_GetAllArticles?stroffset=${1 + ((i * 997) % articles.length)}&strlimit=100`,
    },
  ];

  const totals = new Map<string, { ok: number; seconds: number; cpu: number; failed: number }>();
  for (const read of reads) {
    // Each process walks the items in turn, and around again: both walk the same items in the
    // same order, so they read the same rows; an answer asked again comes around after every
    // other item, long after the catalogue's cache (20,000 answers, oldest out first) dropped it.
    const next = { before: 0, after: 0 };
    const run = async (name: 'before' | 'after', s: number, warmUp: boolean): Promise<LoadResult> => {
      const server = variants[name];
      const cpuBefore = ticks(server.child.pid ?? 0);
      const result = await load({
        base: server.base,
        connections: CONNECTIONS,
        seconds: s,
        headers: auth[name],
        next: () => {
          const i = next[name]++ % read.items.length;
          return { path: read.path(read.items[i] as Article, i) };
        },
      });
      if (!warmUp) {
        const key = `${read.label}|${name}`;
        const t = totals.get(key) ?? { ok: 0, seconds: 0, cpu: 0, failed: 0 };
        t.ok += result.ok;
        t.seconds += result.ok / Math.max(result.reqPerSec, 1e-9);
        t.cpu += ticks(server.child.pid ?? 0) - cpuBefore;
        t.failed += result.failed;
        totals.set(key, t);
        log(
          `  ${read.label} ${name}: ${result.reqPerSec.toFixed(0)}/s, mean ${result.meanMs.toFixed(1)} ms` +
            (result.failed ? `, ${result.failed} failed (${result.firstFailure})` : ''),
        );
      }
      return result;
    };
    log(read.label);
    await run('before', 2, true);
    await run('after', 2, true);
    for (let r = 0; r < rounds; r++) {
      // alternate who goes first, so a drift of the machine's load favours neither
      const order: Array<'before' | 'after'> = r % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
      for (const name of order) await run(name, seconds, false);
    }
  }

  log('\nread | as before (bare ?) | value-blind (+?) | ratio | tv2 CPU per request before → after');
  for (const read of reads) {
    const b = totals.get(`${read.label}|before`);
    const a = totals.get(`${read.label}|after`);
    if (!a || !b) continue;
    const rate = (t: typeof a) => t.ok / t.seconds;
    const us = (t: typeof a) => `${Math.round((t.cpu * 1e6) / Math.max(1, t.ok))} µs`;
    log(
      `${read.label} | ${rate(b).toFixed(0)}/s | ${rate(a).toFixed(0)}/s | ${(rate(a) / rate(b)).toFixed(2)}× | ` +
        `${us(b)} → ${us(a)}${a.failed + b.failed ? ` | ${a.failed + b.failed} failed` : ''}`,
    );
  }
} finally {
  for (const s of started) await stopProcess(s.child);
}
