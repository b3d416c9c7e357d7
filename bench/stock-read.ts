/**
 * The stock rows of `npm run bench:all` alone, for working on them: B2C_GetArticleStock under load
 * (32 connections, each request a different retail article) against a bare Fastify process serving
 * the bytes tv2 answered, and B2B/B2C_GetStockChanges after 100 stock receipts against the bare
 * SELECT of the changed rows, measured as bench/all-engine.ts and bench/all-rows.ts measure them
 * (their functions, the same baseline, same-run ratios).
 *
 *   npx node bench/stock-read.ts --db <sqlite file or postgres url> [--root <checkout>] [--seconds 8]
 *       [--rounds 1] [--cpu-prof <dir>] [--only read|feeds]
 *
 * The database is changed (100 receipts at WH): give it a copy of a world (bench/world.ts), never
 * the world itself. `--root` runs tv2 from another checkout (a before/after on one machine in one
 * run); `--cpu-prof` writes a V8 CPU profile of the tv2 process to that directory.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
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
  const fresh = retail.slice(reserve + CHANGES);
  const rounds = Number(values.rounds);
  for (let round = 0; round < rounds; round++) {
    // each round asks other articles: none is asked twice in a run
    const share = Math.floor(fresh.length / rounds);
    const mine = fresh.slice(round * share, (round + 1) * share);
    if (values.only !== 'feeds')
      await compare(stage, 'B2C_GetArticleStock', distinct(stage, mine, stockPath, 'articles'), 'stock');
    if (values.only !== 'read')
      for (const op of ['B2B_GetStockChanges', 'B2C_GetStockChanges'])
        await feedRow(stage, `${op} after ${CHANGES} changes`, op, 'stock', scnBefore);
  }
} finally {
  await stopProcess(tv2.child);
  if (bare) await stopProcess(bare.child);
}

console.log(`| path | engine | tv2 | baseline | ratio | notes |\n|---|---|---|---|---|---|`);
for (const r of rows)
  console.log(`| ${r.path} | ${r.engine} | ${r.tv2} | ${r.baseline} | ${r.ratio} | ${r.notes} |`);
