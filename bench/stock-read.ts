/**
 * The stock rows of `npm run bench:all` alone, for working on them: B2C_GetArticleStock under load
 * (32 connections, each request a different retail article) against a bare Fastify process serving
 * the bytes tv2 answered, and B2B/B2C_GetStockChanges after 100 stock receipts against the bare
 * SELECT of the changed rows, measured as bench/all-engine.ts and bench/all-rows.ts measure them
 * (their functions, the same baseline, same-run ratios).
 *
 *   npx node bench/stock-read.ts --db <sqlite file or postgres url> [--root <checkout>] [--seconds 8]
 *       [--rounds 1] [--cpu-prof <dir>] [--only read|feeds] [--before <checkout>]
 *
 * The database is changed (100 receipts at WH): give it a copy of a world (bench/world.ts), never
 * the world itself. `--root` runs tv2 from another checkout (a before/after on one machine in one
 * run); `--before` starts a second tv2 from another checkout and measures the two in turn in every
 * round, on other articles (a before/after in one run, less moved by the machine's load than two
 * runs); `--cpu-prof` writes a V8 CPU profile of the tv2 process to that directory. Each row also
 * logs the CPU per request of tv2 (and, on PostgreSQL, of the server's processes for the database).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type Article,
  CHANGES,
  compare,
  distinct,
  EXEC,
  feedRow,
  getText,
  type Row,
  type Stage,
  send,
  shuffled,
} from './all-rows.ts';
import { type Started, startProcess, stopProcess } from './measure.ts';
import { BENCH_SECRET, BENCH_USER } from './world.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    root: { type: 'string', default: process.cwd() },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '1' },
    'cpu-prof': { type: 'string' },
    only: { type: 'string' },
    before: { type: 'string' },
  },
});
if (!values.db) throw new Error('--db <sqlite file or postgres url> (a copy: it is changed)');
const postgres = /^postgres(ql)?:\/\//.test(values.db);
const databaseUrl = postgres ? values.db : `sqlite:${values.db.replace(/^sqlite:/, '')}`;
const root = resolve(values.root);
const work = mkdtempSync(join(tmpdir(), 'tv2-stock-read-'));
const log = (line: string) => console.error(`[stock-read] ${line}`);
const rows: Row[] = [];
const row = (path: string, tv2: string, baseline: string, ratio: string, note = ''): Row => {
  const r = { path, engine: postgres ? 'PostgreSQL' : 'SQLite', tv2, baseline, ratio, notes: note };
  rows.push(r);
  log(`${path}: ${tv2} vs ${baseline} (${ratio})${note ? `; ${note}` : ''}`);
  return r;
};

const basic = { authorization: `Basic ${Buffer.from(`${BENCH_USER}:${BENCH_SECRET}`).toString('base64')}` };
const profile = values['cpu-prof'] ? resolve(values['cpu-prof']) : undefined;
if (profile) mkdirSync(profile, { recursive: true });
const tv2Args = [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), 'bin/tv2.js', 'serve'];
const tv2 = await startProcess(
  tv2Args,
  { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', TV2_DEMO: '0' },
  { path: '/health/ready' },
  root,
);
// --before <dir>: a second tv2, run from another checkout (e.g. `git archive <commit>` unpacked there
// with a node_modules link), measured in turn with this one in every round, on other articles.
const before = values.before
  ? await startProcess(
      ['bin/tv2.js', 'serve'],
      { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', TV2_DEMO: '0' },
      { path: '/health/ready' },
      resolve(values.before),
    )
  : undefined;
let bare: Started | undefined;
try {
  const token = (
    JSON.parse(await getText(`${tv2.base}/TV2/GetToken`, basic)) as { GETTOKEN: { TOKEN: string } }
  ).GETTOKEN.TOKEN;
  const auth = { authorization: `Bearer ${token}` };

  log('retail articles');
  const articles: Article[] = [];
  for (let offset: number | null = 1; offset !== null; ) {
    const page = JSON.parse(
      await getText(`${tv2.base}${EXEC}B2C_GetAllArticles?stroffset=${offset}&strlimit=1000`, auth),
    ).B2CGETALLARTICLES as {
      ARTICLES: Array<{ ARTICLE: string; SIZES: Array<{ SIZEX: string }> }>;
      NEXTOFFSET: number | null;
    };
    for (const a of page.ARTICLES)
      articles.push({ no: a.ARTICLE, active: true, retail: true, sizes: a.SIZES.map((s) => s.SIZEX) });
    offset = page.NEXTOFFSET;
  }
  // The same selection and order as bench/all-engine.ts: active retail articles with sizes, shuffled.
  const retail = shuffled(articles.filter((a) => a.sizes.length > 0));
  const reserve = 50;
  const stockPath = (a: Article) => `${EXEC}B2C_GetArticleStock?strarticle=${encodeURIComponent(a.no)}`;
  const bodies: Record<string, string[]> = {
    stock: await Promise.all(
      retail.slice(0, reserve).map((a) => getText(`${tv2.base}${stockPath(a)}`, auth)),
    ),
  };

  log(`${CHANGES} stock receipts at WH`);
  const scnBefore = Number(
    JSON.parse(await getText(`${tv2.base}${EXEC}B2B_GetStockChanges?strscn=0&stroffset=1&strlimit=1`, auth))
      .B2BGETSTOCKCHANGES.SCN,
  );
  for (const a of retail.slice(reserve, reserve + CHANGES)) {
    await send(`${tv2.base}/TV2/Admin/stock/movements`, 'POST', auth, {
      TYPE: 'RECEIPT',
      LOCATION: 'WH',
      ARTICLE: a.no,
      SIZEX: a.sizes[0],
      QUANTITY: 1,
      REASON: 'bench',
    });
  }

  const p1 = postgres ? '$1' : '?';
  const configFile = join(work, 'bare.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      bodies,
      databaseUrl,
      queries: { stock: `SELECT * FROM stock_level WHERE scn > ${p1} ORDER BY scn` },
    }),
  );
  bare = await startProcess(
    ['bench/bare-server.ts', configFile],
    {},
    { path: '/static/stock' },
    process.cwd(),
  );

  const stage: Stage = { tv2, bare, auth, seconds: Number(values.seconds), log, row };
  // The CPU (user and system) per answered request of the measured run of the tv2 process and, on
  // PostgreSQL, of the server's processes for this database: their own work, which the load of other
  // processes on the shared machine moves less than the throughput.
  const cpuPerRequest = (pid: number, load: ReturnType<typeof distinct>): ReturnType<typeof distinct> => {
    return async (seconds, warmUp) => {
      const tv2Before = cpuOf(pid);
      const dbBefore = serverCpu();
      const statementsBefore = await statements();
      const result = await load(seconds, warmUp);
      const per = (used: number) => ((used / result.ok) * 1e6).toFixed(0);
      if (!warmUp)
        log(
          `CPU per request: tv2 ${per(cpuOf(pid) - tv2Before)} µs` +
            (postgres
              ? `, PostgreSQL ${per(serverCpu() - dbBefore)} µs; ` +
                `${((await statements()) - statementsBefore) / result.ok} statements per request`
              : ''),
        );
      return result;
    };
  };
  const stockRow = async (process: Started, label: string, items: Article[]) => {
    const on: Stage = { ...stage, tv2: process };
    await compare(
      on,
      label,
      cpuPerRequest(process.child.pid ?? 0, distinct(on, items, stockPath, 'articles')),
      'stock',
    );
  };
  const fresh = retail.slice(reserve + CHANGES);
  const rounds = Number(values.rounds);
  for (let round = 0; round < rounds; round++) {
    // each round asks other articles: none is asked twice in a run
    const share = Math.floor(fresh.length / rounds);
    const mine = fresh.slice(round * share, (round + 1) * share);
    if (values.only !== 'feeds') {
      if (before) {
        // each first in every other round: the machine's load drifts within a round too
        const half = Math.floor(mine.length / 2);
        const rows = [
          () => stockRow(before, 'B2C_GetArticleStock (before)', mine.slice(0, half)),
          () => stockRow(tv2, 'B2C_GetArticleStock', mine.slice(half)),
        ];
        for (const measure of round % 2 === 0 ? rows : rows.reverse()) await measure();
      } else await stockRow(tv2, 'B2C_GetArticleStock', mine);
    }
    if (values.only !== 'read')
      for (const op of ['B2B_GetStockChanges', 'B2C_GetStockChanges'])
        await feedRow(stage, `${op} after ${CHANGES} changes`, op, 'stock', scnBefore);
  }
} finally {
  await stopProcess(tv2.child);
  if (before) await stopProcess(before.child);
  if (bare) await stopProcess(bare.child);
}

/** CPU seconds a process has used (user and system, from /proc); 0 when it ended. */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * PostgreSQL: the transactions the database committed so far (pg_stat_database; each statement
 * outside a transaction is one, and the stock read runs none in a transaction), through psql; 0 on
 * SQLite. The statistics are sent by the backends when idle, so the counts lag by up to a second.
 */
async function statements(): Promise<number> {
  if (!postgres) return 0;
  await new Promise((r) => setTimeout(r, 1100));
  const { execFileSync } = await import('node:child_process');
  const url = new URL(databaseUrl);
  const out = execFileSync('psql', [
    databaseUrl,
    '-Atc',
    `select xact_commit from pg_stat_database where datname = '${url.pathname.slice(1)}'`,
  ]);
  return Number(String(out).trim());
}

/** CPU seconds used so far by the PostgreSQL processes serving the measured database. */
function serverCpu(): number {
  if (!postgres) return 0;
  const name = `postgres: postgres ${new URL(databaseUrl).pathname.slice(1)} `;
  let sum = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').startsWith(name)) sum += cpuOf(Number(d));
    } catch {
      // the process ended
    }
  }
  return sum;
}

console.log(`| path | engine | tv2 | baseline | ratio | notes |\n|---|---|---|---|---|---|`);
for (const r of rows)
  console.log(`| ${r.path} | ${r.engine} | ${r.tv2} | ${r.baseline} | ${r.ratio} | ${r.notes} |`);
