/**
 * A/B: two tv2 processes, from two checkouts or one checkout with other settings, serving the same
 * read in turn on the same world: how the rounds of issue 10 judged a change (docs/benchmarks.md,
 * the A/B tables), where one bench:all row cannot tell a few percent from the machine's mood.
 *
 *   node bench/ab.ts --db <world> --a <checkout> --b <checkout> --read price|stock|article
 *                    [--rounds 6] [--seconds 5] [--b-env NAME=VALUE ...] [--b-node-flag FLAG ...]
 *
 * `--db` is a SQLite file (a copy of bench/world.ts's world: the run reads only) or a PostgreSQL
 * URL. Each round loads A and B for `--seconds` at 32 connections, the one that goes first taking
 * turns; every request asks for another article (for prices another size and one of the nine demo
 * customers), cycling over the retail articles with sizes, so few answers come from the article
 * cache. Prints each round's answers a second and A/B, then the medians and the median of the
 * per-round ratios. `--b-env` and `--b-node-flag` start B with other settings or Node flags (e.g.
 * `--b-env TV2_SQLITE_READER=0`, `--b-node-flag --cpu-prof`).
 */
import { parseArgs } from 'node:util';
import { FIRST_DEMO_CUSTOMER } from '../src/areas/customers/index.ts';
import { EXEC, getText, shuffled } from './all-rows.ts';
import { load, startProcess, stopProcess } from './measure.ts';
import { BENCH_SECRET, BENCH_USER } from './world.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    a: { type: 'string' },
    b: { type: 'string' },
    read: { type: 'string', default: 'price' },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '5' },
    'b-env': { type: 'string', multiple: true, default: [] },
    'b-node-flag': { type: 'string', multiple: true, default: [] },
  },
});
const { db, a: dirA, b: dirB, read } = values;
if (!db || !dirA || !dirB || !['price', 'stock', 'article'].includes(read)) {
  console.error(
    'usage: node bench/ab.ts --db <world> --a <checkout> --b <checkout> --read price|stock|article',
  );
  process.exit(2);
}
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const env = {
  DATABASE_URL: db.startsWith('postgres') ? db : `sqlite:${db}`,
  LOG_LEVEL: 'warn',
  TV2_DEMO: '0',
};
const envB = Object.fromEntries(
  values['b-env'].map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);

const ready = { path: '/health/ready' };
const A = await startProcess(['bin/tv2.js', 'serve'], env, ready, dirA);
const B = await startProcess(
  [...values['b-node-flag'], 'bin/tv2.js', 'serve'],
  { ...env, ...envB },
  ready,
  dirB,
);
const basic = { authorization: `Basic ${Buffer.from(`${BENCH_USER}:${BENCH_SECRET}`).toString('base64')}` };
try {
  const tokenOf = async (base: string) =>
    (JSON.parse(await getText(`${base}/TV2/GetToken`, basic)) as { GETTOKEN: { TOKEN: string } }).GETTOKEN
      .TOKEN;
  const auth = new Map([
    [A.base, { authorization: `Bearer ${await tokenOf(A.base)}` }],
    [B.base, { authorization: `Bearer ${await tokenOf(B.base)}` }],
  ]);
  const headersA = auth.get(A.base) ?? {};
  interface ArticlesPage {
    B2CGETALLARTICLES: {
      ARTICLES: Array<{ ARTICLE: string; SIZES: Array<{ SIZEX: string }> }>;
      NEXTOFFSET: number | null;
    };
  }
  const sizes = new Map<string, string[]>();
  for (let offset: number | null = 1; offset !== null; ) {
    const url = `${A.base}${EXEC}B2C_GetAllArticles?stroffset=${offset}&strlimit=1000`;
    const page: ArticlesPage['B2CGETALLARTICLES'] = (JSON.parse(await getText(url, headersA)) as ArticlesPage)
      .B2CGETALLARTICLES;
    for (const article of page.ARTICLES) {
      if (article.SIZES.length > 0)
        sizes.set(
          article.ARTICLE,
          article.SIZES.map((size) => size.SIZEX),
        );
    }
    offset = page.NEXTOFFSET;
  }
  const articles = shuffled([...sizes.keys()]);
  const pathOf = (k: number) => {
    const article = articles[k % articles.length] as string;
    const q = encodeURIComponent(article);
    if (read === 'stock') return `${EXEC}B2C_GetArticleStock?strarticle=${q}`;
    if (read === 'article') return `${EXEC}B2C_GetArticle?strarticle=${q}`;
    const own = sizes.get(article) ?? [];
    const size = encodeURIComponent(own[k % own.length] ?? '');
    return `${EXEC}B2B_GetArticlePrice?strcustomer=${FIRST_DEMO_CUSTOMER + (k % 9)}&strarticle=${q}&strsize=${size}`;
  };
  let next = 0;
  const run = async (base: string, s: number) => {
    const result = await load({
      base,
      connections: 32,
      seconds: s,
      headers: auth.get(base) ?? {},
      next: () => ({ path: pathOf(next++) }),
    });
    if (result.failed) console.log(`${result.failed} failed; first: ${result.firstFailure}`);
    return result.reqPerSec;
  };
  await run(A.base, 2); // warm-up of both
  await run(B.base, 2);
  const perSecA: number[] = [];
  const perSecB: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const which of r % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
      if (which === 'A') perSecA.push(await run(A.base, seconds));
      else perSecB.push(await run(B.base, seconds));
    }
    const ra = perSecA[r] ?? 0;
    const rb = perSecB[r] ?? 0;
    console.log(`round ${r + 1}: A ${ra.toFixed(0)}/s, B ${rb.toFixed(0)}/s, A/B ${(ra / rb).toFixed(3)}`);
  }
  const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)] ?? 0;
  const ratios = perSecA.map((v, r) => v / (perSecB[r] ?? 1));
  console.log(
    `median A ${median(perSecA).toFixed(0)}/s, B ${median(perSecB).toFixed(0)}/s; median of A/B ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)})`,
  );
} finally {
  await stopProcess(A.child);
  await stopProcess(B.child);
}
