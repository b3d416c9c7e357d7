/**
 * The batch run of billing (docs/billing-issuing.md, "Figures"): time and peak memory of one
 * `tv2 invoice` that issues one invoice per customer, on SQLite.
 *
 *   npx tsx bench/invoice-batch.ts [--customers 10000] [--world /tmp/tv2-invoice-world-10000.sqlite]
 *
 * The world is built once (kept at --world, rebuilt with --rebuild): the demo parties and catalogue,
 * article B100-010 with plenty of stock, and --customers Belgian customers (numbers from 20001, valid
 * VAT numbers, an invoice address), each with one wholesale order of two lines placed, confirmed and
 * delivered in full through the HTTP interface. Each run copies the world and runs
 * `node bin/tv2.js invoice` on the copy under /usr/bin/time (wall time and maximum resident set),
 * then the baseline on another copy: the same writes per invoice with nothing around them (one
 * transaction: the counter, a document row with a snapshot of the same size, its two lines), from
 * better-sqlite3 with tv2's pragmas. Run it under `flock /tmp/tv2-bench.lock`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import BetterSqlite from 'better-sqlite3';
import { seedCatalog } from '../src/areas/catalog/index.ts';
import { seedClients } from '../src/areas/clients/demo.ts';
import { seedCustomers } from '../src/areas/customers/demo.ts';
import { seedPrices } from '../src/areas/pricing/demo.ts';
import { seedShops } from '../src/areas/shops/demo.ts';
import { seedStock } from '../src/areas/stock/index.ts';
import { AREAS, MIGRATIONS } from '../src/areas.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/server.ts';
import { migrate, openDatabase } from '../src/kernel/db/database.ts';
import { createServices } from '../src/services.ts';
import { article, sizeTable, toEan13 } from '../test/helpers/fixtures.ts';

const { values } = parseArgs({
  options: {
    customers: { type: 'string', default: '10000' },
    world: { type: 'string' },
    rebuild: { type: 'boolean', default: false },
  },
});
const CUSTOMERS = Number(values.customers);
const WORLD = values.world ?? `/tmp/tv2-invoice-world-${CUSTOMERS}.sqlite`;
const FIRST = 20001;
const SIZES = ['S', 'M', 'L'];
const BARCODES = SIZES.map((_, z) => toEan13(`87500000010${z}`));

/** A Belgian enterprise number (mod-97 checked) made from a counter. */
function enterpriseNumber(i: number): string {
  const first8 = String(2_000_000 + i).padStart(8, '0');
  return first8 + String(97 - (Number(first8) % 97)).padStart(2, '0');
}

function removeWorld(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

async function buildWorld(): Promise<void> {
  removeWorld(WORLD);
  const databaseUrl = `sqlite:${WORLD}`;
  const config = loadConfig({}, { databaseUrl, demo: false });
  const database = openDatabase(databaseUrl);
  try {
    await migrate(database, MIGRATIONS);
    const s = createServices(config, database);
    await seedCatalog(s, { articles: 12, images: false });
    await seedStock(s, {});
    await seedShops(s, {});
    await seedPrices(s, {});
    await seedCustomers(s, {});
    await seedClients(s, {});
    await s.catalog.saveSizeTable(sizeTable('ISZ', SIZES));
    await s.catalog.saveArticles([
      article('I100-010', {
        sizeTableCode: 'ISZ',
        sizes: SIZES.map((sizex, z) => ({ sizex, barcode: BARCODES[z]! })),
      }),
    ]);
    await s.pricing.listPrices.setListPrices(
      SIZES.flatMap((sizex) =>
        [1, 2, 3].map((priceGroup) => ({
          articleNo: 'I100-010',
          sizex,
          priceGroup,
          priceType: 'SELLING' as const,
          currency: 'EUR',
          priceMinor: 2495,
        })),
      ),
    );
    await s.stock.ledger.receiveAll(
      SIZES.map((sizex) => ({ locationCode: 'WH', articleNo: 'I100-010', sizex, quantity: 10 * CUSTOMERS })),
    );
    for (let from = 0; from < CUSTOMERS; from += 1000) {
      await s.pricing.customers.saveCustomers(
        Array.from({ length: Math.min(1000, CUSTOMERS - from) }, (_, k) => ({
          customerNo: FIRST + from + k,
          name: `Boetiek ${from + k + 1} BV`,
          priceGroup: 2,
          currency: 'EUR',
        })),
      );
    }
    for (let i = 0; i < CUSTOMERS; i++) {
      await s.customers.customers.postCustomer({
        customerNo: FIRST + i,
        vatNo: `BE${enterpriseNumber(i)}`,
        language: 'LANGUAGE_11',
        paymentDays: 30,
        invoiceAddress: {
          address: 'Veldstraat',
          houseNumber: String(1 + (i % 180)),
          postalCode: '9000',
          city: 'Gent',
          country: 'BE',
          mapArea: '',
          postBox: '',
        },
      });
    }
    const app = await buildApp(s, { areas: AREAS });
    await app.ready();
    const { secret } = await s.general.auth.createUser({ name: 'bench-invoice', roles: ['B2B', 'ADMIN'] });
    const login = await app.inject({
      method: 'GET',
      url: '/TV2/GetToken',
      headers: { authorization: `Basic ${Buffer.from(`bench-invoice:${secret}`).toString('base64')}` },
    });
    const token = login.json().GETTOKEN.TOKEN as string;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const started = performance.now();
    for (let i = 0; i < CUSTOMERS; i++) {
      const placed = await app.inject({
        method: 'POST',
        url: '/TV2/Execute/APIPACK.B2B_PostOrdCus',
        headers,
        payload: JSON.stringify({
          ORDERREQUEST: {
            ORDERHEADER: { CUSTOMER: String(FIRST + i), WEBORDER: `PO-${i + 1}` },
            ORDERLINES: [
              { BARCODE: BARCODES[0], QUANTITY: 2 },
              { BARCODE: BARCODES[1], QUANTITY: 1 },
            ],
          },
        }),
      });
      if (placed.statusCode !== 200) throw new Error(`order ${i}: ${placed.statusCode} ${placed.body}`);
      const orderNo = placed.json().B2BPOSTORDCUS.ORDERNO;
      for (const [path, body] of [
        [`orders/${orderNo}/confirm`, undefined],
        [`orders/${orderNo}/deliveries`, '{}'],
      ] as const) {
        const res = await app.inject({
          method: 'POST',
          url: `/TV2/Admin/${path}`,
          headers: body ? headers : { authorization: headers.authorization },
          ...(body ? { payload: body } : {}),
        });
        if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
      }
      if ((i + 1) % 1000 === 0)
        console.log(
          `world: ${i + 1} orders delivered (${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
    }
    await app.close();
  } finally {
    await database.close();
  }
}

if (values.rebuild || !existsSync(WORLD)) await buildWorld();

/** The same writes as the run, bare: one transaction per invoice, a snapshot of `snapshotBytes`. */
function bareBaseline(file: string, snapshotBytes: number): number {
  const db = new BetterSqlite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`create table bare_series (k text primary key, n integer not null);
    create table bare_doc (id integer primary key, number text unique, snapshot text not null, hash text not null);
    create table bare_line (doc integer, line integer, delivery integer, dline integer, q integer,
      primary key (doc, line), unique (delivery, dline));
    insert into bare_series values ('INVOICE', 0);`);
  const next = db.prepare("update bare_series set n = n + 1 where k = 'INVOICE' returning n");
  const doc = db.prepare('insert into bare_doc (number, snapshot, hash) values (?, ?, ?)');
  const line = db.prepare('insert into bare_line values (?, ?, ?, ?, ?)');
  const snapshot = 'x'.repeat(snapshotBytes);
  const begin = db.prepare('begin immediate');
  const commit = db.prepare('commit');
  const started = performance.now();
  for (let i = 0; i < CUSTOMERS; i++) {
    begin.run();
    const { n } = next.get() as { n: number };
    const id = doc.run(`INV-${n}`, snapshot, 'h').lastInsertRowid;
    line.run(id, 1, i, 1, 2);
    line.run(id, 2, i, 2, 1);
    commit.run();
  }
  const ms = performance.now() - started;
  db.close();
  return ms;
}

const RUN = '/tmp/tv2-invoice-run.sqlite';
removeWorld(RUN);
copyFileSync(WORLD, RUN);
for (const suffix of ['-wal', '-shm'])
  if (existsSync(`${WORLD}${suffix}`)) copyFileSync(`${WORLD}${suffix}`, `${RUN}${suffix}`);
const run = spawnSync('/usr/bin/time', ['-v', process.execPath, 'bin/tv2.js', 'invoice'], {
  env: { ...process.env, DATABASE_URL: `sqlite:${RUN}`, TV2_DEMO: '0', LOG_LEVEL: 'warn' },
  encoding: 'utf8',
});
console.log(run.stdout.trim());
const figure = (label: string) =>
  run.stderr
    .split('\n')
    .find((l) => l.includes(label))
    ?.trim();
console.log(figure('Elapsed (wall clock)'));
console.log(figure('Maximum resident set size'));
console.log(figure('User time'));
if (run.status !== 0) console.log(run.stderr);
const sizes = new BetterSqlite(RUN, { readonly: true })
  .prepare('select avg(length(snapshot)) as bytes from billing_document')
  .get() as { bytes: number };
removeWorld(RUN);
copyFileSync(WORLD, RUN);
for (const suffix of ['-wal', '-shm'])
  if (existsSync(`${WORLD}${suffix}`)) copyFileSync(`${WORLD}${suffix}`, `${RUN}${suffix}`);
const bareMs = bareBaseline(RUN, Math.round(sizes.bytes));
console.log(
  `baseline: the same writes bare (better-sqlite3, snapshots of ${Math.round(sizes.bytes)} bytes): ${(bareMs / 1000).toFixed(1)} s for ${CUSTOMERS} transactions`,
);
removeWorld(RUN);
