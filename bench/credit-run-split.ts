/**
 * Where the batch run's time goes since the credit run (docs/billing-issuing.md, "Figures"): on a
 * copy of bench/invoice-batch.ts's world (built by it), one `issueAll` (invoices, then the credit
 * run), then the credit run alone again (nothing owed: the same reads as in the first pass); the
 * difference is the invoices' pass. Run it under `flock /tmp/tv2-bench.lock`.
 *
 *   npx tsx bench/credit-run-split.ts [--world /tmp/tv2-invoice-world-10000.sqlite]
 */
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MIGRATIONS } from '../src/areas.ts';
import { loadConfig } from '../src/config.ts';
import { migrate, openDatabase } from '../src/kernel/db/database.ts';
import { createServices } from '../src/services.ts';

const { values } = parseArgs({ options: { world: { type: 'string' } } });
const WORLD = values.world ?? '/tmp/tv2-invoice-world-10000.sqlite';
const RUN = '/tmp/tv2-credit-split.sqlite';
for (const suffix of ['', '-wal', '-shm']) rmSync(`${RUN}${suffix}`, { force: true });
copyFileSync(WORLD, RUN);
for (const suffix of ['-wal', '-shm'])
  if (existsSync(`${WORLD}${suffix}`)) copyFileSync(`${WORLD}${suffix}`, `${RUN}${suffix}`);

const url = `sqlite:${RUN}`;
const config = loadConfig({}, { databaseUrl: url, demo: false });
const database = openDatabase(url);
await migrate(database, MIGRATIONS);
const services = createServices(config, database);
const cpu = () => process.cpuUsage().user / 1000;
let t = performance.now();
let c = cpu();
const report = await services.billing.issuing.issueAll();
const all = { wall: performance.now() - t, cpu: cpu() - c };
t = performance.now();
c = cpu();
// (Before the credit run existed there is none: run against an older tree, this measures 0.)
const again = (await services.billing.credits?.issueAllOwed({
  creditCustomers: 0,
  creditNotes: 0,
  failed: 0,
  failures: [],
})) ?? { creditCustomers: 0, creditNotes: 0 };
const credits = { wall: performance.now() - t, cpu: cpu() - c };
const f = (n: number) => (n / 1000).toFixed(2);
console.log(
  `issueAll: ${report.issued} invoices, ${report.creditNotes ?? 0} credit notes, ${f(all.wall)} s wall, ${f(all.cpu)} s CPU`,
);
console.log(
  `credit run alone (${again.creditCustomers} customers, ${again.creditNotes} owed): ${f(credits.wall)} s wall, ${f(credits.cpu)} s CPU`,
);
console.log(
  `so the invoices' pass: about ${f(all.wall - credits.wall)} s wall, ${f(all.cpu - credits.cpu)} s CPU`,
);
await database.close();
for (const suffix of ['', '-wal', '-shm']) rmSync(`${RUN}${suffix}`, { force: true });
