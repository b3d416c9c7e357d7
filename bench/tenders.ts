/**
 * B2C_PostCashedVoucher throughput (issue 13) against the bare-Fastify insert baseline of
 * bench/orders-bare.ts (one single-row insert transaction per request on the same database), in the
 * same run, on SQLite and on PostgreSQL. Each engine gets a fresh database with VOUCHERS gift
 * vouchers of 10,000.00; every request cashes 0.01 off one of them in turn with a new reference (so
 * concurrent cashings meet on a voucher now and then, not on every request). After the runs, every
 * voucher's balance must equal its issue less what the 200 answers cashed, and Σ entries.
 *
 *   node bench/tenders.ts [--seconds 5 --connections 32 --engines sqlite,postgres
 *                          --pg postgres://postgres@127.0.0.1:55450/tv2_bench_tenders]
 *
 * Run it under `flock /tmp/tv2-bench.lock`: the figures are ratios to the bare route of the same run.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { MIGRATIONS } from '../src/areas.ts';
import { loadConfig } from '../src/config.ts';
import { migrate, openDatabase } from '../src/kernel/db/database.ts';
import { createServices } from '../src/services.ts';
import { type LoadResult, load, startProcess, stopProcess } from './measure.ts';
import { maintenanceUrl } from './world.ts';

const ROOT = join(import.meta.dirname, '..');
const EXEC = '/TV2/Execute/APIPACK.';
const USER = 'bench-tenders';
const SECRET = 'bench-tenders-secret-not-for-production';
const VOUCHERS = 1000;
const VALUE = 1_000_000; // minor units: 10,000.00

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    engines: { type: 'string', default: 'sqlite,postgres' },
    sqlite: { type: 'string', default: join(ROOT, '.tmp', 'bench', 'tenders.sqlite') },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:55450/tv2_bench_tenders' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

async function recreate(databaseUrl: string): Promise<void> {
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const file = databaseUrl.replace(/^sqlite:/, '');
    mkdirSync(join(file, '..'), { recursive: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    return;
  }
  const { url, name } = maintenanceUrl(databaseUrl);
  if (!name.startsWith('tv2_bench_tenders')) throw new Error(`refusing to drop ${name}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

async function dropPostgres(databaseUrl: string): Promise<void> {
  const { url, name } = maintenanceUrl(databaseUrl);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** A fresh database with the vouchers and the API user; the vouchers' codes. */
async function buildWorld(databaseUrl: string): Promise<string[]> {
  await recreate(databaseUrl);
  const database = openDatabase(databaseUrl);
  try {
    await migrate(database, MIGRATIONS);
    const s = createServices(loadConfig({}, { databaseUrl, demo: false }), database);
    const codes: string[] = [];
    for (let i = 0; i < VOUCHERS; i++) {
      const { tender } = await s.tenders.vouchers.issue({
        kind: 'GIFT_VOUCHER',
        amount: VALUE,
        currency: 'EUR',
        clientNo: null,
        email: null,
        webId: `BENCH-${i}`,
      });
      codes.push(tender.code);
    }
    await s.general.auth.createUser({ name: USER, roles: ['B2C'], secret: SECRET });
    return codes;
  } finally {
    await database.close();
  }
}

/** Every voucher's balance is its issue less its cashings, and Σ entries; the cashings counted. */
async function ledgerCheck(databaseUrl: string): Promise<{ cashings: number; exact: boolean }> {
  const database = openDatabase(databaseUrl);
  try {
    const { rows } = await sql<{
      balance: string | number;
      entries: string | number;
      redeems: string | number;
    }>`
      select t.balance, sum(e.amount) as entries, sum(case when e.kind = 'REDEEM' then 1 else 0 end) as redeems
      from tender t join tender_entry e on e.tender_id = t.id group by t.id, t.balance`.execute(database.db);
    let cashings = 0;
    let exact = rows.length === VOUCHERS;
    for (const r of rows) {
      cashings += Number(r.redeems);
      if (Number(r.balance) !== Number(r.entries) || Number(r.balance) !== VALUE - Number(r.redeems))
        exact = false;
    }
    return { cashings, exact };
  } finally {
    await database.close();
  }
}

const show = (r: LoadResult) =>
  `${r.reqPerSec.toFixed(0)}/s, p99 ${r.p99Ms.toFixed(1)} ms, mean ${r.meanMs.toFixed(1)} ms` +
  (r.failed > 0 ? `, ${r.failed} failed (${r.firstFailure})` : '');

async function runEngine(engine: 'sqlite' | 'postgres') {
  const databaseUrl = engine === 'sqlite' ? `sqlite:${values.sqlite}` : values.pg;
  const started = performance.now();
  const codes = await buildWorld(databaseUrl);
  console.log(
    `[${engine}] ${VOUCHERS} vouchers issued in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const tv2 = await startProcess(
    ['bin/tv2.js', 'serve'],
    { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', TV2_DEMO: '0' },
    { path: '/health/ready' },
    ROOT,
  );
  const bare = await startProcess(['bench/orders-bare.ts', databaseUrl], {}, { path: '/ready' }, ROOT);
  try {
    const basic = `Basic ${Buffer.from(`${USER}:${SECRET}`).toString('base64')}`;
    const tokenRes = await fetch(`${tv2.base}/TV2/GetToken`, { headers: { authorization: basic } });
    const token = ((await tokenRes.json()) as { GETTOKEN: { TOKEN: string } }).GETTOKEN.TOKEN;
    const auth = { authorization: `Bearer ${token}` };
    let n = 0;
    const next = (prefix: string) => () => {
      n++;
      return {
        path: prefix === 'bare' ? '/order' : `${EXEC}B2C_PostCashedVoucher`,
        body: JSON.stringify({
          CASHEDVOUCHERDATA: {
            CODE: codes[n % VOUCHERS],
            AMOUNT: 0.01,
            CURRENCY: 'EUR',
            REFERENCE: `${prefix}-${n}`,
          },
        }),
      };
    };
    const run = (base: string, prefix: string, secs: number) =>
      load({ base, connections, seconds: secs, method: 'POST', headers: auth, next: next(prefix) });

    await run(tv2.base, 'warm', 2);
    await run(bare.base, 'bare', 1);
    const tv2Runs: LoadResult[] = [];
    const bareRuns: LoadResult[] = [];
    for (let i = 0; i < 2; i++) {
      bareRuns.push(await run(bare.base, 'bare', seconds));
      tv2Runs.push(await run(tv2.base, 'cash', seconds));
    }
    const best = (rs: LoadResult[]) => rs.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a));
    for (const [i, r] of tv2Runs.entries()) console.log(`[${engine}] tv2 run ${i + 1}: ${show(r)}`);
    for (const [i, r] of bareRuns.entries()) console.log(`[${engine}] bare run ${i + 1}: ${show(r)}`);
    const t = best(tv2Runs);
    const b = best(bareRuns);
    const ratio = t.reqPerSec / b.reqPerSec;
    const answered = tv2Runs.reduce((s, r) => s + r.ok, 0);
    const ledger = await ledgerCheck(databaseUrl);
    console.log(
      `[${engine}] B2C_PostCashedVoucher, ${connections} connections: ${show(t)}; bare insert: ${show(b)}; ` +
        `ratio ${ratio.toFixed(2)}; ledger ${ledger.exact ? 'exact' : 'NOT EXACT'} ` +
        `(${ledger.cashings} cashings posted, ${answered} answered 200 in the measured runs, plus the warm-up)`,
    );
    return { engine, tv2: t, bare: b, ratio, exact: ledger.exact };
  } finally {
    await stopProcess(tv2.child);
    await stopProcess(bare.child);
    if (engine === 'postgres') await dropPostgres(databaseUrl);
  }
}

const results = [];
for (const engine of values.engines.split(',') as Array<'sqlite' | 'postgres'>)
  results.push(await runEngine(engine));
console.log('\n| engine | B2C_PostCashedVoucher | bare insert | ratio | ledger |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of results) {
  console.log(
    `| ${r.engine} | ${r.tv2.reqPerSec.toFixed(0)}/s, p99 ${r.tv2.p99Ms.toFixed(0)} ms | ` +
      `${r.bare.reqPerSec.toFixed(0)}/s, p99 ${r.bare.p99Ms.toFixed(0)} ms | ${r.ratio.toFixed(2)} | ` +
      `${r.exact ? 'exact' : 'NOT EXACT'} |`,
  );
}
if (results.some((r) => !r.exact || r.tv2.failed > 0)) process.exitCode = 1;
