/**
 * `npm run bench:orders` (issue 11): B2C_PostWebOrder with 5 lines at 32 connections against a bare
 * Fastify route that commits one single-row insert transaction on the same database (bench/
 * orders-bare.ts), in the same run, on SQLite and on PostgreSQL; then 1,000 concurrent one-unit web
 * orders for a size with 100 units (exactly 100 placed, nothing oversold). Each engine gets a fresh
 * small world (bench/orders-world.ts); tv2 is `node bin/tv2.js serve` as bench/all.ts starts it.
 *
 *   npm run bench:orders [-- --seconds 5 --connections 32 --engines sqlite,postgres
 *                            --pg postgres://postgres@127.0.0.1:55450/tv2_bench_orders
 *                            --before <another checkout> --cpu-prof <dir>]
 *
 * --before: a second tv2 from another checkout (an earlier commit, node_modules linked) serves the
 * same database and is loaded in turn with the other two, so a change is measured in one run.
 *
 * Run it under `flock /tmp/tv2-bench.lock`: the figures are ratios to the bare route of the same run.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Random } from '../src/kernel/random.ts';
import { type LoadResult, load, startProcess, stopProcess } from './measure.ts';
import {
  BENCH_ORDER_SECRET,
  BENCH_ORDER_USER,
  buildOrdersWorld,
  LINE_BARCODES,
  RACE_BARCODE,
  RACE_UNITS,
  raceOutcome,
} from './orders-world.ts';

const ROOT = join(import.meta.dirname, '..');
const EXEC = '/TV2/Execute/APIPACK.';
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    engines: { type: 'string', default: 'sqlite,postgres' },
    race: { type: 'string', default: '1000' },
    sqlite: { type: 'string', default: join(ROOT, '.tmp', 'bench', 'orders.sqlite') },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:55450/tv2_bench_orders' },
    before: { type: 'string' },
    /** A directory: tv2 runs with --cpu-prof and writes its profile there. */
    'cpu-prof': { type: 'string' },
  },
});
const profile = values['cpu-prof'];
const profiled = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const raceOrders = Number(values.race);

const webOrder = (clientNo: number, weborder: string, lines: Array<{ barcode: string; quantity: number }>) =>
  JSON.stringify({
    WEBORDERDATA: {
      CLIENT: clientNo,
      WEBORDER: weborder,
      PAYMENTREFERENCE: `PAY-${weborder}`,
      ORDERLINES: lines.map((l) => ({ BARCODE: l.barcode, QUANTITY: l.quantity })),
    },
  });

const show = (r: LoadResult) =>
  `${r.reqPerSec.toFixed(0)}/s, p99 ${r.p99Ms.toFixed(1)} ms, mean ${r.meanMs.toFixed(1)} ms` +
  (r.failed > 0 ? `, ${r.failed} failed (${r.firstFailure})` : '');

async function runEngine(engine: 'sqlite' | 'postgres') {
  const databaseUrl = engine === 'sqlite' ? `sqlite:${values.sqlite}` : values.pg;
  if (engine === 'sqlite') mkdirSync(join(values.sqlite, '..'), { recursive: true });
  let started = performance.now();
  const { clientNo } = await buildOrdersWorld(databaseUrl);
  console.log(`[${engine}] world built in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const tv2 = await startProcess(
    [...profiled, 'bin/tv2.js', 'serve'],
    { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', TV2_DEMO: '0' },
    { path: '/health/ready' },
    ROOT,
  );
  const bare = await startProcess(['bench/orders-bare.ts', databaseUrl], {}, { path: '/ready' }, ROOT);
  const before = values.before
    ? await startProcess(
        ['bin/tv2.js', 'serve'],
        { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', TV2_DEMO: '0' },
        { path: '/health/ready' },
        values.before,
      )
    : undefined;
  try {
    const basic = `Basic ${Buffer.from(`${BENCH_ORDER_USER}:${BENCH_ORDER_SECRET}`).toString('base64')}`;
    const tokenRes = await fetch(`${tv2.base}/TV2/GetToken`, { headers: { authorization: basic } });
    const token = ((await tokenRes.json()) as { GETTOKEN: { TOKEN: string } }).GETTOKEN.TOKEN;
    const auth = { authorization: `Bearer ${token}` };
    let n = 0;
    // Five lines of five different articles, a size of each, drawn in turn (deterministic).
    const random = new Random(11);
    const fiveLines = () => {
      const from = random.int(0, LINE_BARCODES.length - 5);
      return [0, 1, 2, 3, 4].map((k) => ({ barcode: random.pick(LINE_BARCODES[from + k]!), quantity: 1 }));
    };
    const next = (prefix: string) => () => ({
      path: prefix === 'bare' ? '/order' : `${EXEC}B2C_PostWebOrder`,
      body: webOrder(clientNo, `${prefix}-${engine}-${++n}`, fiveLines()),
    });
    const run = (base: string, prefix: string, secs: number) =>
      load({ base, connections, seconds: secs, method: 'POST', headers: auth, next: next(prefix) });

    // Warm both (JIT, statement caches, pools), then measure each in turn, twice, alternating.
    await run(tv2.base, 'warm', 2);
    if (before) await run(before.base, 'warm-before', 2);
    await run(bare.base, 'bare', 1);
    const tv2Runs: LoadResult[] = [];
    const bareRuns: LoadResult[] = [];
    const beforeRuns: LoadResult[] = [];
    for (let i = 0; i < 2; i++) {
      bareRuns.push(await run(bare.base, 'bare', seconds));
      tv2Runs.push(await run(tv2.base, 'web', seconds));
      if (before) beforeRuns.push(await run(before.base, 'before', seconds));
    }
    const best = (rs: LoadResult[]) => rs.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a));
    const t = best(tv2Runs);
    const b = best(bareRuns);
    for (const [i, r] of tv2Runs.entries()) console.log(`[${engine}] tv2 run ${i + 1}: ${show(r)}`);
    for (const [i, r] of bareRuns.entries()) console.log(`[${engine}] bare run ${i + 1}: ${show(r)}`);
    const ratio = t.reqPerSec / b.reqPerSec;
    console.log(
      `[${engine}] B2C_PostWebOrder, 5 lines, ${connections} connections: ${show(t)}; bare insert: ${show(b)}; ratio ${ratio.toFixed(2)}`,
    );
    if (before) {
      for (const [i, r] of beforeRuns.entries()) console.log(`[${engine}] before run ${i + 1}: ${show(r)}`);
      const p = best(beforeRuns);
      console.log(
        `[${engine}] before (${values.before}): ${show(p)}; ratio ${(p.reqPerSec / b.reqPerSec).toFixed(2)}; ` +
          `now ${(t.reqPerSec / p.reqPerSec).toFixed(2)}× before`,
      );
    }

    // The race: raceOrders one-unit web orders at once for a size with RACE_UNITS pieces.
    started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: raceOrders }, async (_, i) => {
        const res = await fetch(`${tv2.base}${EXEC}B2C_PostWebOrder`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: webOrder(clientNo, `race-${engine}-${i}`, [{ barcode: RACE_BARCODE, quantity: 1 }]),
        });
        const text = await res.text();
        return res.status === 200 ? '200' : `${res.status} ${(JSON.parse(text) as { code?: string }).code}`;
      }),
    );
    const raceMs = performance.now() - started;
    const counts: Record<string, number> = {};
    for (const a of answers) counts[a] = (counts[a] ?? 0) + 1;
    const outcome = await raceOutcome(databaseUrl);
    const exact =
      counts['200'] === RACE_UNITS &&
      counts['409 INSUFFICIENT_STOCK'] === raceOrders - RACE_UNITS &&
      outcome.reserved === RACE_UNITS &&
      outcome.orders === RACE_UNITS;
    console.log(
      `[${engine}] race: ${raceOrders} concurrent one-unit web orders for ${RACE_UNITS} units in ${raceMs.toFixed(0)} ms: ` +
        `${JSON.stringify(counts)}; level on hand ${outcome.onHand}, reserved ${outcome.reserved}; ` +
        `${outcome.orders} order lines; ${exact ? 'exact, nothing oversold' : 'NOT EXACT'}`,
    );
    return { engine, tv2: t, bare: b, ratio, raceMs, exact };
  } finally {
    await stopProcess(tv2.child);
    await stopProcess(bare.child);
    if (before) await stopProcess(before.child);
  }
}

const results = [];
for (const engine of values.engines.split(',') as Array<'sqlite' | 'postgres'>)
  results.push(await runEngine(engine));
console.log('\n| engine | B2C_PostWebOrder (5 lines) | bare insert | ratio | race of 1,000 |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of results) {
  console.log(
    `| ${r.engine} | ${r.tv2.reqPerSec.toFixed(0)}/s, p99 ${r.tv2.p99Ms.toFixed(0)} ms | ` +
      `${r.bare.reqPerSec.toFixed(0)}/s, p99 ${r.bare.p99Ms.toFixed(0)} ms | ${r.ratio.toFixed(2)} | ` +
      `${r.raceMs.toFixed(0)} ms${r.exact ? '' : ' (NOT EXACT)'} |`,
  );
}
if (results.some((r) => !r.exact || r.tv2.failed > 0)) process.exitCode = 1;
