/**
 * Group commit on SQLite (docs/architecture.md, "Group commit (SQLite)"): tv2's CPU time per web
 * order, measured from the process's own clock (/proc/<pid>/stat), with and without group commit,
 * in one run. Orders per second move with whatever else the shared machine runs; the CPU a served
 * order costs the process moves much less. The same B2C_PostWebOrder load as bench:orders (5 lines,
 * 32 connections, bench/orders-world.ts), on tv2 processes of this checkout serving one database in
 * turn: `TV2_SQLITE_GROUP_COMMIT=1`, `=0`, and optionally another checkout (`--other <dir>`,
 * e.g. a variant), each loaded `--rounds` times, alternating.
 *
 *   flock /tmp/tv2-bench.lock node bench/group-commit.ts [--seconds 4 --rounds 2 --other <dir>]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Random } from '../src/kernel/random.ts';
import { type LoadResult, load, type Started, startProcess, stopProcess } from './measure.ts';
import { BENCH_ORDER_SECRET, BENCH_ORDER_USER, buildOrdersWorld, LINE_BARCODES } from './orders-world.ts';

const ROOT = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    sqlite: { type: 'string', default: join(ROOT, '.tmp', 'bench', 'group-commit.sqlite') },
    other: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

/** User plus system CPU time of a process so far, in ms (Linux clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const databaseUrl = `sqlite:${values.sqlite}`;
const { clientNo } = await buildOrdersWorld(databaseUrl);
const env = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', TV2_DEMO: '0' };
const probe = { path: '/health/ready' };
const variants: Array<{ label: string; server: Started }> = [
  {
    label: 'group commit on',
    server: await startProcess(
      ['bin/tv2.js', 'serve'],
      { ...env, TV2_SQLITE_GROUP_COMMIT: '1' },
      probe,
      ROOT,
    ),
  },
  {
    label: 'group commit off',
    server: await startProcess(
      ['bin/tv2.js', 'serve'],
      { ...env, TV2_SQLITE_GROUP_COMMIT: '0' },
      probe,
      ROOT,
    ),
  },
];
if (values.other) {
  variants.push({
    label: `other (${values.other})`,
    server: await startProcess(['bin/tv2.js', 'serve'], env, probe, values.other),
  });
}
try {
  const basic = `Basic ${Buffer.from(`${BENCH_ORDER_USER}:${BENCH_ORDER_SECRET}`).toString('base64')}`;
  const tokenRes = await fetch(`${variants[0]?.server.base}/TV2/GetToken`, {
    headers: { authorization: basic },
  });
  const token = ((await tokenRes.json()) as { GETTOKEN: { TOKEN: string } }).GETTOKEN.TOKEN;
  const headers = { authorization: `Bearer ${token}` };
  const random = new Random(11);
  let n = 0;
  const next = (prefix: string) => () => {
    const from = random.int(0, LINE_BARCODES.length - 5);
    const lines = [0, 1, 2, 3, 4].map((k) => ({
      BARCODE: random.pick(LINE_BARCODES[from + k]!),
      QUANTITY: 1,
    }));
    const weborder = `${prefix}-${++n}`;
    return {
      path: '/TV2/Execute/APIPACK.B2C_PostWebOrder',
      body: JSON.stringify({
        WEBORDERDATA: {
          CLIENT: clientNo,
          WEBORDER: weborder,
          PAYMENTREFERENCE: `PAY-${weborder}`,
          ORDERLINES: lines,
        },
      }),
    };
  };
  const run = (v: (typeof variants)[number], prefix: string, secs: number) =>
    load({ base: v.server.base, connections, seconds: secs, method: 'POST', headers, next: next(prefix) });
  for (const [i, v] of variants.entries()) await run(v, `warm${i}`, 2);
  const results = variants.map(() => [] as Array<{ load: LoadResult; cpuPerOrderMs: number }>);
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [i, v] of variants.entries()) {
      const pid = v.server.child.pid as number;
      const before = cpuMs(pid);
      const result = await run(v, `r${round}v${i}`, seconds);
      results[i]?.push({ load: result, cpuPerOrderMs: (cpuMs(pid) - before) / result.ok });
    }
  }
  for (const [i, v] of variants.entries()) {
    for (const r of results[i] ?? []) {
      console.log(
        `${v.label}: ${r.load.reqPerSec.toFixed(0)} orders/s, p99 ${r.load.p99Ms.toFixed(0)} ms, ` +
          `tv2 CPU ${r.cpuPerOrderMs.toFixed(3)} ms per order${r.load.failed ? `, ${r.load.failed} failed (${r.load.firstFailure})` : ''}`,
      );
    }
  }
} finally {
  for (const v of variants) await stopProcess(v.server.child);
}
