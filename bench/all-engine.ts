/**
 * One engine's rows of `npm run bench:all` (bench/all.ts): tv2 as it is started in production
 * (`node bin/tv2.js serve`) on a copy of the generated world, and a bare Fastify process
 * (bench/bare-server.ts) serving the same bytes or running the same SELECT, measured in the same run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIRST_DEMO_CUSTOMER } from '../src/areas/customers/index.ts';
import {
  type Article,
  CHANGES,
  compare,
  distinct,
  EXEC,
  failures,
  feedRow,
  getText,
  mib,
  ms,
  notes,
  type Row,
  recordsOf,
  type Stage,
  send,
  shuffled,
  times,
  writeRows,
} from './all-rows.ts';
import { alternating, rssOf, rssSampler, type Started, startProcess, stopProcess } from './measure.ts';
import { BENCH_SECRET, BENCH_USER } from './world.ts';

export interface EngineRun {
  engine: 'sqlite' | 'postgres';
  databaseUrl: string;
  articles: number;
  /** Seconds of load per tv2 row (each baseline gets 5 s before and 5 s after). */
  seconds: number;
  /** A directory for captured pages and the bare server's config. */
  work: string;
  /** The repository (bin/tv2.js and bench/ are found from here). */
  root: string;
  log(line: string): void;
}

const PAGE = 1000;
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

export async function runEngine(run: EngineRun): Promise<Row[]> {
  const { engine, log } = run;
  const rows: Row[] = [];
  const row = (path: string, tv2: string, baseline: string, ratio: string, note = ''): Row => {
    const r = {
      path,
      engine: engine === 'sqlite' ? 'SQLite' : 'PostgreSQL',
      tv2,
      baseline,
      ratio,
      notes: note,
    };
    rows.push(r);
    log(`${r.path}: ${r.tv2} vs ${r.baseline} (${r.ratio})${r.notes ? `; ${r.notes}` : ''}`);
    return r;
  };
  const tv2Args = ['bin/tv2.js', 'serve'];
  // warn: no line per request (at info Fastify logs two, which a busy deployment turns down too)
  const tv2Env = { DATABASE_URL: run.databaseUrl, LOG_LEVEL: 'warn', TV2_DEMO: '0' };
  const basic = { authorization: `Basic ${Buffer.from(`${BENCH_USER}:${BENCH_SECRET}`).toString('base64')}` };
  mkdirSync(join(run.work, 'pages'), { recursive: true });
  const bareConfigFile = (name: string, config: object) => {
    const file = join(run.work, `${name}.json`);
    writeFileSync(file, JSON.stringify(config));
    return ['bench/bare-server.ts', file];
  };

  // --- Cold start: one start to fill Node's compile cache and get a token and an article, then three timed.
  log('cold start');
  const first = await startProcess(tv2Args, tv2Env, { path: '/health/ready' }, run.root);
  const token = (
    JSON.parse(await getText(`${first.base}/TV2/GetToken`, basic)) as { GETTOKEN: { TOKEN: string } }
  ).GETTOKEN.TOKEN;
  const auth = { authorization: `Bearer ${token}` };
  const somePage = JSON.parse(
    await getText(`${first.base}${EXEC}B2C_GetAllArticles?stroffset=1&strlimit=100`, auth),
  ) as { B2CGETALLARTICLES: { ARTICLES: Array<{ ARTICLE: string }> } };
  const probeArticle = somePage.B2CGETALLARTICLES.ARTICLES[0]?.ARTICLE;
  if (!probeArticle) throw new Error('no retail article in the first 100 positions');
  const probe = {
    path: `${EXEC}B2C_GetArticle?strarticle=${encodeURIComponent(probeArticle)}`,
    headers: auth,
  };
  const probeBody = await getText(`${first.base}${probe.path}`, auth);
  await stopProcess(first.child);
  const coldStarts = async (start: () => Promise<Started>) => {
    const ms: number[] = [];
    let idle = 0;
    for (let i = 0; i < 3; i++) {
      const s = await start();
      ms.push(s.startMs);
      if (i === 2) {
        await sleep(2000);
        idle = rssOf(s.child.pid ?? 0);
      }
      await stopProcess(s.child);
    }
    ms.sort((a, b) => a - b);
    return { ms: ms[1] as number, all: ms, idle };
  };
  const tv2Cold = await coldStarts(() => startProcess(tv2Args, tv2Env, probe, run.root));
  const bareStartArgs = bareConfigFile('bare-start', { bodies: { article: [probeBody] } });
  const bareCold = await coldStarts(() =>
    startProcess(bareStartArgs, {}, { path: '/static/article' }, run.root),
  );
  row(
    'cold start to first answer (B2C_GetArticle)',
    ms(tv2Cold.ms),
    ms(bareCold.ms),
    times(tv2Cold.ms, bareCold.ms),
    `median of 3 starts (${tv2Cold.all.map((n) => n.toFixed(0)).join(', ')} ms), compile cache warm`,
  );
  row(
    'idle process memory (RSS 2 s after the first answer)',
    mib(tv2Cold.idle),
    mib(bareCold.idle),
    times(tv2Cold.idle, bareCold.idle),
  );

  // --- The measured tv2 process: a full pass first (fresh process: its peak RSS is the pass's).
  const tv2 = await startProcess(tv2Args, tv2Env, probe, run.root);
  const bareProcesses: Started[] = [];
  try {
    log('full B2B_GetAllArticles pass');
    const articles: Article[] = [];
    const pageFiles: string[] = [];
    let bytes = 0;
    let slowestPageMs = 0;
    let lastPageMs = 0;
    // The pass's time is the client's time per page as the bare pass spends it (the request and
    // JSON.parse), not the bench's own work on the page (its articles noted, the page written to a
    // file for the bare server: 223 MiB on the 100k world), which the bare pass does not do.
    let passMs = 0;
    const sampler = rssSampler(tv2.child.pid ?? 0);
    for (let offset: number | null = 1; offset !== null; ) {
      const pageStarted = performance.now();
      const text = await getText(
        `${tv2.base}${EXEC}B2B_GetAllArticles?stroffset=${offset}&strlimit=${PAGE}`,
        auth,
      );
      lastPageMs = performance.now() - pageStarted;
      slowestPageMs = Math.max(slowestPageMs, lastPageMs);
      const parsed = JSON.parse(text);
      passMs += performance.now() - pageStarted;
      const page = parsed.B2BGETALLARTICLES as {
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
      const file = join(run.work, 'pages', `page-${pageFiles.length + 1}.json`);
      writeFileSync(file, text);
      pageFiles.push(file);
      bytes += Buffer.byteLength(text);
      offset = page.NEXTOFFSET;
    }
    const passSeconds = passMs / 1000;
    const passPeak = sampler.stop();

    // --- Bodies for the bare server, captured from tv2 for articles the measured runs do not ask for.
    const live = articles.filter((a) => a.active && a.sizes.length > 0);
    const retail = shuffled(live.filter((a) => a.retail));
    const priced = shuffled(live);
    const reserve = 50;
    const capture = async (paths: string[]) =>
      Promise.all(paths.map((p) => getText(`${tv2.base}${p}`, auth)));
    const articlePath = (a: Article) => `${EXEC}B2C_GetArticle?strarticle=${encodeURIComponent(a.no)}`;
    const stockPath = (a: Article) => `${EXEC}B2C_GetArticleStock?strarticle=${encodeURIComponent(a.no)}`;
    const pricePath = (a: Article, i: number) =>
      `${EXEC}B2B_GetArticlePrice?strcustomer=${FIRST_DEMO_CUSTOMER + (i % 9)}&strarticle=${encodeURIComponent(a.no)}&strsize=${encodeURIComponent(a.sizes[i % a.sizes.length] ?? '')}`;
    const bodies: Record<string, string[]> = {
      article: await capture(retail.slice(0, reserve).map(articlePath)),
      stock: await capture(retail.slice(0, reserve).map(stockPath)),
      price: await capture(priced.slice(0, reserve).map(pricePath)),
    };

    const allPricesPath = `${EXEC}B2B_GetAllPrices?stroffset=1&strlimit=${PAGE}`;
    bodies.allprices = [await getText(`${tv2.base}${allPricesPath}`, auth)];

    // --- 100 changes: list prices (one admin request each) and stock receipts at WH (wholesale and retail).
    log(`${CHANGES} price changes and ${CHANGES} stock receipts`);
    const scnText = await getText(
      `${tv2.base}${EXEC}B2B_GetStockChanges?strscn=0&stroffset=1&strlimit=1`,
      auth,
    );
    const scnBefore = Number(JSON.parse(scnText).B2BGETSTOCKCHANGES.SCN);
    const changed = retail.slice(reserve, reserve + CHANGES);
    for (const [i, a] of changed.entries()) {
      const sizex = a.sizes[0] as string;
      await send(`${tv2.base}/TV2/Admin/prices`, 'PUT', auth, {
        PRICES: [
          {
            ARTICLE: a.no,
            PRICETYPE: 'SELLING',
            PRICEGROUP: 2,
            CURRENCY: 'EUR',
            SIZEX: sizex,
            PRICE: `${10 + i}.01`,
          },
        ],
      });
    }
    let receiptBody = '';
    for (const a of changed) {
      receiptBody = await send(`${tv2.base}/TV2/Admin/stock/movements`, 'POST', auth, {
        TYPE: 'RECEIPT',
        LOCATION: 'WH',
        ARTICLE: a.no,
        SIZEX: a.sizes[0],
        QUANTITY: 1,
        REASON: 'bench',
      });
    }
    bodies.receipt = [receiptBody];
    const runId = Date.now().toString(36);
    bodies.client = [
      await send(`${tv2.base}${EXEC}B2C_PostClient`, 'POST', auth, {
        CLIENTDATA: { EMAIL: `bench-${runId}-sample@example.com`, LASTNAME: 'Bench' },
      }),
    ];

    // --- The bare process: the same bytes, the same pages, the changed rows by their SCN index.
    // In SCN order, so the index gives the order and no planner statistics can turn the SELECT
    // into a scan of the whole table in key order.
    const p = (n: number) => (engine === 'postgres' ? `$${n}` : '?');
    const bare = await startProcess(
      bareConfigFile('bare', {
        bodies,
        pages: join(run.work, 'pages'),
        databaseUrl: run.databaseUrl,
        queries: {
          prices: `SELECT * FROM list_price WHERE scn > ${p(1)} ORDER BY scn`,
          stock: `SELECT * FROM stock_level WHERE scn > ${p(1)} ORDER BY scn`,
        },
      }),
      {},
      { path: '/static/article' },
      run.root,
    );
    bareProcesses.push(bare);

    log('full pass from bare Fastify');
    const bareSampler = rssSampler(bare.child.pid ?? 0);
    const started = performance.now();
    for (let n = 1; n <= pageFiles.length; n++) {
      const text = await getText(`${bare.base}/page/${n}`, {});
      JSON.parse(text); // the client's work is the same as with tv2's pages
    }
    const barePassSeconds = (performance.now() - started) / 1000;
    const barePeak = bareSampler.stop();
    row(
      `full B2B_GetAllArticles pass, ${pageFiles.length} page${pageFiles.length === 1 ? '' : 's'} of ${PAGE.toLocaleString('en')}`,
      `${passSeconds.toFixed(1)} s`,
      `${barePassSeconds.toFixed(1)} s`,
      times(passSeconds, barePassSeconds),
      notes(
        `${articles.length.toLocaleString('en')} articles, ${mib(bytes)} of JSON`,
        `slowest page ${ms(slowestPageMs)}, last ${ms(lastPageMs)}`,
        articles.length === run.articles ? '' : `**expected ${run.articles} articles**`,
      ),
    );
    row('peak RSS during the full pass', mib(passPeak), mib(barePeak), times(passPeak, barePeak));

    log('B2B_GetAllPrices first page');
    const [allPrices, bareAllPrices] = await alternating(
      { url: `${tv2.base}${allPricesPath}`, headers: auth },
      { url: `${bare.base}/static/allprices` },
      { minCount: 3, seconds: 6 },
    );
    row(
      `B2B_GetAllPrices, first page of ${PAGE.toLocaleString('en')} articles`,
      ms(allPrices.medianMs),
      ms(bareAllPrices.medianMs),
      times(allPrices.medianMs, bareAllPrices.medianMs),
      notes(
        `median of ${allPrices.count}`,
        allPrices.count ? `${recordsOf(allPrices.lastText)} articles` : '',
        failures(allPrices, bareAllPrices),
      ),
    );

    // --- Single reads under load, each article asked once.
    const stage: Stage = { tv2, bare, auth, seconds: run.seconds, log, row };
    const fresh = retail.slice(reserve + CHANGES);
    await compare(
      stage,
      `B2C_GetArticle, cache missed (${fresh.length.toLocaleString('en')} distinct articles)`,
      distinct(stage, fresh, articlePath, 'articles'),
      'article',
    );
    await compare(
      stage,
      'B2B_GetArticlePrice',
      distinct(stage, priced.slice(reserve), pricePath, 'article sizes'),
      'price',
    );
    await compare(stage, 'B2C_GetArticleStock', distinct(stage, fresh, stockPath, 'articles'), 'stock');

    // --- Feeds after the 100 changes, against the bare SELECT of the changed rows.
    for (const [op, query] of [
      ['B2B_GetPriceChanges', 'prices'],
      ['B2B_GetStockChanges', 'stock'],
      ['B2C_GetStockChanges', 'stock'],
    ] as const) {
      await feedRow(stage, `${op} after ${CHANGES} changes`, op, query, scnBefore);
    }

    // --- Writes at 32 connections.
    await writeRows(stage, run.databaseUrl, runId, live);
  } finally {
    await stopProcess(tv2.child);
    for (const b of bareProcesses) await stopProcess(b.child);
  }
  return rows;
}
