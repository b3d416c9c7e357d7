/**
 * The write rows of `npm run bench:all` alone (bench/all-rows.ts, writeRows): admin stock receipts
 * at WH spread over all sizes, or B2C_PostClient, at 32 connections, with the CPU per request of
 * tv2 and (on PostgreSQL) of the server processes of the measured database. No bare baseline: the
 * figures to compare are two tv2 builds or settings measured in turn in the same run.
 *
 *   node bench/write-load.ts --db postgres://postgres@127.0.0.1:55450/my_copy [--what receipt|client]
 *        [--seconds 8] [--rounds 2] [--before <checkout>] [--env KEY=VALUE ...]
 *
 * `--before <checkout>` starts a second tv2 from another checkout (a `git worktree` with a
 * node_modules link) and measures both in turn in every round, each first in every other round.
 * `--env` sets a variable for this checkout's tv2 only (e.g. TV2_DB_POOL_SIZE=20).
 * The run writes: give it a copy of a world (bench/world.ts).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CONNECTIONS, EXEC, getText, shuffled } from './all-rows.ts';
import { cpuReader, load, type Started, startProcess, stopProcess } from './measure.ts';
import { BENCH_SECRET, BENCH_USER } from './world.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    what: { type: 'string', default: 'receipt' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '1' },
    before: { type: 'string' },
    env: { type: 'string', multiple: true, default: [] },
  },
});
if (!values.db) throw new Error('--db <url> is required (a copy of a world)');
const root = join(import.meta.dirname, '..');
const seconds = Number(values.seconds);
const log = (line: string) => console.log(line);
const baseEnv = { DATABASE_URL: values.db, LOG_LEVEL: 'warn', TV2_DEMO: '0' };
const ownEnv = Object.fromEntries(
  (values.env as string[]).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
const basic = { authorization: `Basic ${Buffer.from(`${BENCH_USER}:${BENCH_SECRET}`).toString('base64')}` };

const database = values.db.startsWith('sqlite:') ? undefined : new URL(values.db).pathname.slice(1);
const cpu = cpuReader(values.db);

const tv2 = await startProcess(
  ['bin/tv2.js', 'serve'],
  { ...baseEnv, ...ownEnv },
  { path: '/health/ready' },
  root,
);
const started: Started[] = [tv2];
const before = values.before
  ? await startProcess(['bin/tv2.js', 'serve'], baseEnv, { path: '/health/ready' }, values.before)
  : undefined;
if (before) started.push(before);
try {
  const token = (
    JSON.parse(await getText(`${tv2.base}/TV2/GetToken`, basic)) as { GETTOKEN: { TOKEN: string } }
  ).GETTOKEN.TOKEN;
  const headers = { authorization: `Bearer ${token}` };
  const sizes: Array<[string, string]> = [];
  for (let offset: number | null = 1; offset !== null && sizes.length < 100_000; ) {
    const page = JSON.parse(
      await getText(`${tv2.base}${EXEC}B2B_GetAllArticles?stroffset=${offset}&strlimit=1000`, headers),
    ).B2BGETALLARTICLES as {
      ARTICLES: Array<{ ARTICLE: string; ACTIVE: boolean; SIZES: Array<{ SIZEX: string }> }>;
      NEXTOFFSET: number | null;
    };
    for (const a of page.ARTICLES) if (a.ACTIVE) for (const s of a.SIZES) sizes.push([a.ARTICLE, s.SIZEX]);
    offset = page.NEXTOFFSET;
  }
  const order = shuffled(sizes);
  let n = 0;
  const runId = Date.now().toString(36);
  const next = () => {
    n++;
    if (values.what === 'client')
      return {
        path: `${EXEC}B2C_PostClient`,
        body: JSON.stringify({ CLIENTDATA: { EMAIL: `wl-${runId}-${n}@example.com`, LASTNAME: 'Bench' } }),
      };
    const [article, sizex] = order[n % order.length] as [string, string];
    return {
      path: '/TV2/Admin/stock/movements',
      body: JSON.stringify({
        TYPE: 'RECEIPT',
        LOCATION: 'WH',
        ARTICLE: article,
        SIZEX: sizex,
        QUANTITY: 1,
        REASON: 'bench',
      }),
    };
  };
  const measure = async (label: string, on: Started) => {
    const run = (s: number) =>
      load({ base: on.base, connections: CONNECTIONS, seconds: s, method: 'POST', headers, next });
    await run(2);
    const a = cpu(on.child.pid ?? 0);
    const r = await run(seconds);
    const b = cpu(on.child.pid ?? 0);
    const us = (x: number) => `${Math.round((x * 1e6) / Math.max(1, r.ok))} µs`;
    log(
      `${label}: ${r.reqPerSec.toFixed(0)}/s, mean ${r.meanMs.toFixed(1)} ms, p99 ${r.p99Ms} ms, ` +
        `CPU per request tv2 ${us(b.tv2 - a.tv2)}` +
        (database === undefined ? '' : `, PostgreSQL ${us(b.db - a.db)}`) +
        (r.failed ? `; ${r.failed} failed: ${r.firstFailure}` : ''),
    );
  };
  for (let round = 0; round < Number(values.rounds); round++) {
    const turns = [() => measure(`${values.what} (this)`, tv2)];
    if (before) turns.push(() => measure(`${values.what} (before)`, before));
    for (const turn of round % 2 === 0 ? turns : turns.reverse()) await turn();
  }
} finally {
  for (const s of started) await stopProcess(s.child);
}
