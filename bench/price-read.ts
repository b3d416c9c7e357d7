/**
 * B2B_GetArticlePrice under load, measured as `npm run bench:all` measures it (bench/all-engine.ts):
 * tv2 started as in production on a copy of a world, each article size asked once (customers
 * FIRST_DEMO_CUSTOMER + i % 9, 32 connections), against a bare Fastify process (bench/bare-server.ts)
 * serving bytes tv2 answered for other article sizes, in the same run. Optionally the uncached
 * B2C_GetArticle row too, as a reference; the authenticated APIPing (no database read: what tv2 costs
 * around any handler, the ceiling of a read's ratio); and a CPU profile of the tv2 process.
 *
 *   node bench/price-read.ts --db sqlite:/tmp/copy.sqlite [--seconds 8] [--article] [--ping] [--cpu-prof <dir>]
 *   node bench/price-read.ts --db postgres://postgres@127.0.0.1:55450/my_copy
 *   node bench/price-read.ts --db ... --tv2 /tmp/before    (tv2 of another checkout, same bench)
 *   node bench/price-read.ts --db ... --before /tmp/before [--rounds 2]
 *
 * `--before <checkout>` starts a second tv2 from another checkout (a `git worktree` of an earlier
 * commit with a node_modules link) and measures B2B_GetArticlePrice of both in turn in every round,
 * on other article sizes, each first in every other round: a before/after in one run, against the
 * same bare baseline process, less moved by the machine's load than two runs.
 *
 * Work on a copy of the world (bench/all.ts makes its own): the run writes nothing but tokens.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FIRST_DEMO_CUSTOMER } from '../src/areas/customers/index.ts';
import {
  type Article,
  CONNECTIONS,
  compare,
  distinct,
  EXEC,
  getText,
  type Row,
  type Stage,
  shuffled,
} from './all-rows.ts';
import { cpuReader, load, startProcess, stopProcess } from './measure.ts';
import { BENCH_SECRET, BENCH_USER } from './world.ts';

type Tv2Load = Parameters<typeof compare>[2];

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    seconds: { type: 'string', default: '8' },
    article: { type: 'boolean', default: false },
    ping: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    work: { type: 'string', default: '/tmp/tv2-price-read' },
    /** Another checkout whose tv2 to measure (e.g. an earlier commit, unpacked by git archive). */
    tv2: { type: 'string' },
    /** Another checkout whose tv2 to measure in turn with this one, in the same run. */
    before: { type: 'string' },
    rounds: { type: 'string', default: '1' },
  },
});
if (!values.db) throw new Error('--db <url> is required (a copy of a world)');
const root = join(import.meta.dirname, '..');
const work = values.work;
mkdirSync(work, { recursive: true });
const log = (line: string) => console.log(line);
const seconds = Number(values.seconds);

const profile = values['cpu-prof'];
const tv2Args = [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), 'bin/tv2.js', 'serve'];
const tv2Env = { DATABASE_URL: values.db, LOG_LEVEL: 'warn', TV2_DEMO: '0' };
const basic = { authorization: `Basic ${Buffer.from(`${BENCH_USER}:${BENCH_SECRET}`).toString('base64')}` };

const database = values.db.startsWith('sqlite:') ? undefined : new URL(values.db).pathname.slice(1);
const cpu = cpuReader(values.db);

const tv2 = await startProcess(tv2Args, tv2Env, { path: '/health/ready' }, values.tv2 ?? root);
const started = [tv2];
const before = values.before
  ? await startProcess(['bin/tv2.js', 'serve'], tv2Env, { path: '/health/ready' }, values.before)
  : undefined;
if (before) started.push(before);
try {
  const token = (
    JSON.parse(await getText(`${tv2.base}/TV2/GetToken`, basic)) as { GETTOKEN: { TOKEN: string } }
  ).GETTOKEN.TOKEN;
  const auth = { authorization: `Bearer ${token}` };

  // The articles as the record finds them: a full B2B_GetAllArticles pass, in position order.
  log('B2B_GetAllArticles pass');
  const articles: Article[] = [];
  for (let offset: number | null = 1; offset !== null; ) {
    const page = JSON.parse(
      await getText(`${tv2.base}${EXEC}B2B_GetAllArticles?stroffset=${offset}&strlimit=1000`, auth),
    ).B2BGETALLARTICLES as {
      ARTICLES: Array<{ ARTICLE: string; ACTIVE: boolean; RETAIL: boolean; SIZES: Array<{ SIZEX: string }> }>;
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
  const live = articles.filter((a) => a.active && a.sizes.length > 0);
  const retail = shuffled(live.filter((a) => a.retail));
  const priced = shuffled(live);
  const reserve = 50;
  const pricePath = (a: Article, i: number) =>
    `${EXEC}B2B_GetArticlePrice?strcustomer=${FIRST_DEMO_CUSTOMER + (i % 9)}&strarticle=${encodeURIComponent(a.no)}&strsize=${encodeURIComponent(a.sizes[i % a.sizes.length] ?? '')}`;
  const articlePath = (a: Article) => `${EXEC}B2C_GetArticle?strarticle=${encodeURIComponent(a.no)}`;
  const capture = (paths: string[]) => Promise.all(paths.map((p) => getText(`${tv2.base}${p}`, auth)));
  const bodies = {
    price: await capture(priced.slice(0, reserve).map(pricePath)),
    article: await capture(retail.slice(0, reserve).map(articlePath)),
    ping: await capture([`${EXEC}APIPing`]),
  };
  const config = join(work, 'bare.json');
  writeFileSync(config, JSON.stringify({ bodies }));
  const bare = await startProcess(['bench/bare-server.ts', config], {}, { path: '/static/price' }, root);
  started.push(bare);

  const rows: Row[] = [];
  const stage: Stage = {
    tv2,
    bare,
    auth,
    seconds,
    log,
    row: (path, tv2Text, baseline, ratio, note = '') => {
      const r = {
        path,
        engine: values.db?.startsWith('sqlite:') ? 'SQLite' : 'PostgreSQL',
        tv2: tv2Text,
        baseline,
        ratio,
        notes: note,
      };
      rows.push(r);
      log(`${path}: ${tv2Text} vs ${baseline} (${ratio})${note ? `; ${note}` : ''}`);
      return r;
    },
  };
  /** The measured run's CPU per request (tv2, and the database server on PostgreSQL), logged. */
  const measured =
    (label: string, run: Tv2Load, pid = tv2.child.pid ?? 0): Tv2Load =>
    async (s, warmUp) => {
      const before = cpu(pid);
      const result = await run(s, warmUp);
      const after = cpu(pid);
      if (!warmUp) {
        const us = (n: number) => `${Math.round((n * 1e6) / Math.max(1, result.ok))} µs`;
        log(
          `${label}: CPU per request: tv2 ${us(after.tv2 - before.tv2)}` +
            (database === undefined ? '' : `, PostgreSQL ${us(after.db - before.db)}`),
        );
      }
      return result;
    };
  const price = 'B2B_GetArticlePrice';
  const sizes = priced.slice(reserve);
  const rounds = Number(values.rounds);
  for (let round = 0; round < rounds; round++) {
    // each round asks other article sizes: none is asked twice in a run
    const share = Math.floor(sizes.length / rounds);
    const mine = sizes.slice(round * share, (round + 1) * share);
    if (before) {
      const half = Math.floor(mine.length / 2);
      const on = { ...stage, tv2: before };
      const turns = [
        () =>
          compare(
            on,
            `${price} (before)`,
            measured(
              `${price} (before)`,
              distinct(on, mine.slice(0, half), pricePath, 'article sizes'),
              before.child.pid ?? 0,
            ),
            'price',
          ),
        () =>
          compare(
            stage,
            price,
            measured(price, distinct(stage, mine.slice(half), pricePath, 'article sizes')),
            'price',
          ),
      ];
      // each first in every other round: the machine's load drifts within a round too
      for (const turn of round % 2 === 0 ? turns : turns.reverse()) await turn();
    } else {
      await compare(
        stage,
        price,
        measured(price, distinct(stage, mine, pricePath, 'article sizes')),
        'price',
      );
    }
  }
  if (values.article) {
    const article = 'B2C_GetArticle, cache missed';
    await compare(
      stage,
      article,
      measured(article, distinct(stage, retail.slice(reserve), articlePath, 'articles')),
      'article',
    );
  }
  if (values.ping) {
    const ping = 'APIPing with a token';
    await compare(
      stage,
      ping,
      measured(ping, () =>
        load({
          base: tv2.base,
          connections: CONNECTIONS,
          seconds,
          headers: auth,
          next: () => ({ path: `${EXEC}APIPing` }),
        }),
      ),
      'ping',
    );
  }
  writeFileSync(join(work, 'rows.json'), JSON.stringify(rows, null, 2));
} finally {
  for (const s of started) await stopProcess(s.child);
}
