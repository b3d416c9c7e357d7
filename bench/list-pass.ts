/**
 * The full B2B_GetAllArticles pass of `npm run bench:all` (bench/all-engine.ts) on its own, timed as
 * the record times it since commit 3517d55: the client's time per page, its request and JSON.parse,
 * summed (not the bench's own keeping of the articles and writing of the pages), a few rounds in
 * turn with the bare Fastify baseline, so a change of the list path can be measured without the
 * whole record (bench/article-pass.ts times the whole loop, as the record did before):
 *
 *   node bench/list-pass.ts --db sqlite:/tmp/me/world.sqlite [--rounds 3] [--limit 1000]
 *   node bench/list-pass.ts --db postgres://postgres@127.0.0.1:55450/my_copy
 *   node bench/list-pass.ts --db ... --before /tmp/tv2-before   (an export of an earlier commit)
 *
 * Use a copy of a world (docs/benchmarks.md). Each round starts a fresh `node bin/tv2.js serve`
 * (as the record does: its peak RSS, sampled every 10 ms, is the pass's), fetches every page in
 * turn with the record's client work (parse, keep the articles, write the page to a file), then a
 * fresh bare Fastify process (bench/bare-server.ts) streams the pages the first round captured and
 * the client parses them. Prints each round and the median ratios; checks that every round answers
 * the same bytes (but for the pages' SCN). With `--before <dir>` (e.g. `git archive <commit> |
 * tar -x -C <dir>` with a node_modules link), each round also passes over tv2 run from that
 * directory, in turn with this one, so a change is measured against the code before it in the
 * same run.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXEC, getText, mib } from './all-rows.ts';
import { rssSampler, startProcess, stopProcess } from './measure.ts';
import { BENCH_SECRET, BENCH_USER } from './world.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    limit: { type: 'string', default: '1000' },
    before: { type: 'string' },
  },
});
if (!values.db) throw new Error('--db <sqlite:file | postgres://...> (a copy of a world) is required');
const databaseUrl = values.db;
const rounds = Number(values.rounds);
const limit = Number(values.limit);
const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'tv2-list-pass-'));
const pages = join(work, 'pages');
mkdirSync(pages);
const tv2Env = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', TV2_DEMO: '0' };
const basic = { authorization: `Basic ${Buffer.from(`${BENCH_USER}:${BENCH_SECRET}`).toString('base64')}` };

/**
 * CPU seconds a process has used (user and system, from /proc): the server's own work, which the
 * load of other processes on a shared machine moves less than the wall time.
 */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Pass {
  seconds: number;
  cpu: number;
  peak: number;
  pages: number;
  articles: number;
  bytes: number;
  slowestMs: number;
  digest: string;
}

/**
 * A token and the record's start probe (a B2C_GetArticle), from a first process: the measured ones
 * then start as the record's does, with no GetToken (its scrypt check) before the pass.
 */
async function setUp(): Promise<{ auth: Record<string, string>; probe: string }> {
  const first = await startProcess(['bin/tv2.js', 'serve'], tv2Env, { path: '/health/ready' }, root);
  try {
    const token = (
      JSON.parse(await getText(`${first.base}/TV2/GetToken`, basic)) as { GETTOKEN: { TOKEN: string } }
    ).GETTOKEN.TOKEN;
    const auth = { authorization: `Bearer ${token}` };
    const some = JSON.parse(
      await getText(`${first.base}${EXEC}B2C_GetAllArticles?stroffset=1&strlimit=1`, auth),
    ) as { B2CGETALLARTICLES: { ARTICLES: Array<{ ARTICLE: string }> } };
    const article = some.B2CGETALLARTICLES.ARTICLES[0]?.ARTICLE ?? '';
    return { auth, probe: `${EXEC}B2C_GetArticle?strarticle=${encodeURIComponent(article)}` };
  } finally {
    await stopProcess(first.child);
  }
}
const { auth, probe } = await setUp();

/** One tv2 pass in a fresh process, with the client work of bench/all-engine.ts. */
async function tv2Pass(capture: boolean, from = root): Promise<Pass> {
  const tv2 = await startProcess(['bin/tv2.js', 'serve'], tv2Env, { path: probe, headers: auth }, from);
  try {
    const hash = createHash('sha256');
    const kept: Array<{ no: string; active: boolean; retail: boolean; sizes: string[] }> = [];
    let n = 0;
    let bytes = 0;
    let slowestMs = 0;
    const sampler = rssSampler(tv2.child.pid ?? 0);
    const cpuBefore = cpuOf(tv2.child.pid ?? 0);
    let passMs = 0;
    for (let offset: number | null = 1; offset !== null; ) {
      const pageStarted = performance.now();
      const text = await getText(
        `${tv2.base}${EXEC}B2B_GetAllArticles?stroffset=${offset}&strlimit=${limit}`,
        auth,
      );
      slowestMs = Math.max(slowestMs, performance.now() - pageStarted);
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
        kept.push({ no: a.ARTICLE, active: a.ACTIVE, retail: a.RETAIL, sizes: a.SIZES.map((s) => s.SIZEX) });
      n++;
      // The record writes every page (its bare pages): so does every round here, to a scratch file
      // after the first.
      writeFileSync(capture ? join(pages, `page-${n}.json`) : join(work, 'scratch.json'), text);
      bytes += Buffer.byteLength(text);
      // The page's SCN is the database's at the time, which other work in the checkout may count
      // otherwise: the rest must be the same bytes.
      hash.update(text.replace(/^\{"B2BGETALLARTICLES":\{"SCN":\d+,/, ''));
      offset = page.NEXTOFFSET;
    }
    const seconds = passMs / 1000;
    const peak = sampler.stop();
    const cpu = cpuOf(tv2.child.pid ?? 0) - cpuBefore;
    return {
      seconds,
      cpu,
      peak,
      pages: n,
      articles: kept.length,
      bytes,
      slowestMs,
      digest: hash.digest('hex'),
    };
  } finally {
    await stopProcess(tv2.child);
  }
}

/** The bare pass: a fresh bare Fastify streaming the captured pages, each parsed by the client. */
async function barePass(count: number): Promise<{ seconds: number; cpu: number; peak: number }> {
  const config = join(work, 'bare.json');
  writeFileSync(config, JSON.stringify({ bodies: { ping: ['{}'] }, pages }));
  const bare = await startProcess(['bench/bare-server.ts', config], {}, { path: '/static/ping' }, root);
  try {
    const sampler = rssSampler(bare.child.pid ?? 0);
    const cpuBefore = cpuOf(bare.child.pid ?? 0);
    const started = performance.now();
    for (let n = 1; n <= count; n++) JSON.parse(await getText(`${bare.base}/page/${n}`, {}));
    const seconds = (performance.now() - started) / 1000;
    return { seconds, cpu: cpuOf(bare.child.pid ?? 0) - cpuBefore, peak: sampler.stop() };
  } finally {
    await stopProcess(bare.child);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const summary = (name: string, passes: Array<{ ratio: number; peak: number }>) =>
  `${name}: median ratio ${median(passes.map((p) => p.ratio)).toFixed(2)}× ` +
  `(${passes.map((p) => p.ratio.toFixed(2)).join(', ')}); peak RSS median ${mib(median(passes.map((p) => p.peak)))}, ` +
  `max ${mib(Math.max(...passes.map((p) => p.peak)))}`;
const line = (name: string, t: Pass, bare: { seconds: number; peak: number }) =>
  `  ${name}: ${t.seconds.toFixed(2)} s (${(t.seconds / bare.seconds).toFixed(2)}×), server CPU ${t.cpu.toFixed(2)} s, ` +
  `peak RSS ${mib(t.peak)}; ` +
  `${t.pages} pages, ${t.articles} articles, ${mib(t.bytes)}, slowest page ${t.slowestMs.toFixed(1)} ms`;
const now: Array<{ ratio: number; peak: number }> = [];
const then: Array<{ ratio: number; peak: number }> = [];
let digest = '';
try {
  for (let r = 1; r <= rounds; r++) {
    const earlier = values.before ? await tv2Pass(false, values.before) : undefined;
    const t = await tv2Pass(r === 1);
    if (r === 1) digest = t.digest;
    for (const pass of [t, earlier]) {
      if (pass && pass.digest !== digest) throw new Error(`round ${r} answered other bytes than round 1`);
    }
    const b = await barePass(t.pages);
    console.log(
      `round ${r}: bare ${b.seconds.toFixed(2)} s, server CPU ${b.cpu.toFixed(2)} s, peak RSS ${mib(b.peak)}`,
    );
    if (earlier) {
      console.log(line('before', earlier, b));
      then.push({ ratio: earlier.seconds / b.seconds, peak: earlier.peak });
    }
    console.log(line('tv2', t, b));
    now.push({ ratio: t.seconds / b.seconds, peak: t.peak });
  }
  if (then.length > 0) console.log(summary('before', then));
  console.log(`${summary('tv2', now)}; bytes sha256 ${digest.slice(0, 16)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
