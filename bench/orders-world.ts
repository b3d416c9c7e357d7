/**
 * The small world of bench/orders.ts: a fresh database with the demo parties (the areas' demo
 * seeders: a small catalogue, shops, prices, customers, clients), ARTICLES retail articles of five
 * sizes each with more stock than any run takes (the 5-line web orders draw their lines from them,
 * so concurrent orders meet on a size now and then, as in a shop, not on every line) and one size
 * with exactly RACE_UNITS pieces (the race of 1,000 one-unit web orders), all at the order location
 * WH, and the API user `bench-orders` (B2C).
 */
import { rmSync } from 'node:fs';
import pg from 'pg';
import { seedCatalog } from '../src/areas/catalog/index.ts';
import { FIRST_CLIENT_NO } from '../src/areas/clients/client-service.ts';
import { seedClients } from '../src/areas/clients/demo.ts';
import { seedCustomers } from '../src/areas/customers/demo.ts';
import { seedPrices } from '../src/areas/pricing/demo.ts';
import { seedShops } from '../src/areas/shops/demo.ts';
import { seedStock } from '../src/areas/stock/index.ts';
import { MIGRATIONS } from '../src/areas.ts';
import { loadConfig } from '../src/config.ts';
import { migrate, openDatabase } from '../src/kernel/db/database.ts';
import { createServices } from '../src/services.ts';
import { article, sizeTable, toEan13 } from '../test/helpers/fixtures.ts';
import { maintenanceUrl } from './world.ts';

export const BENCH_ORDER_USER = 'bench-orders';
export const BENCH_ORDER_SECRET = 'bench-orders-secret-not-for-production';
export const RACE_UNITS = 100;
const PLENTY = 10_000_000;

const ARTICLES = 100;
const SIZES = ['S', 'M', 'L', 'XL', 'XXL'];
const articleNo = (a: number) => `B${String(100 + a)}-010`;
const barcodeOf = (a: number, z: number) => toEan13(`8739${String(a).padStart(6, '0')}0${z}`);

/** The barcodes of the sizes the 5-line orders draw from: one list per article. */
export const LINE_BARCODES: string[][] = Array.from({ length: ARTICLES }, (_, a) =>
  SIZES.map((_, z) => barcodeOf(a, z)),
);
/** The one size of the race. */
export const RACE_BARCODE = toEan13('873999999900');
export const RACE_SIZE = { locationCode: 'WH', articleNo: 'B999-010', sizex: 'M' };

/** A fresh, empty database at `databaseUrl` (SQLite: the file removed; PostgreSQL: dropped, created). */
async function recreate(databaseUrl: string): Promise<void> {
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const file = databaseUrl.replace(/^sqlite:/, '');
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    return;
  }
  const { url, name } = maintenanceUrl(databaseUrl);
  if (!name.startsWith('tv2_bench_orders')) throw new Error(`refusing to drop ${name}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/** Builds the world; returns the client the web orders are for. */
export async function buildOrdersWorld(databaseUrl: string): Promise<{ clientNo: number }> {
  await recreate(databaseUrl);
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
    await s.catalog.saveSizeTable(sizeTable('BSZ', SIZES));
    const lineSizes = LINE_BARCODES.flatMap((barcodes, a) =>
      SIZES.map((sizex, z) => ({ articleNo: articleNo(a), sizex, barcode: barcodes[z]! })),
    );
    await s.catalog.saveArticles([
      ...LINE_BARCODES.map((barcodes, a) =>
        article(articleNo(a), {
          sizeTableCode: 'BSZ',
          sizes: SIZES.map((sizex, z) => ({ sizex, barcode: barcodes[z]! })),
        }),
      ),
      article(RACE_SIZE.articleNo, { sizeTableCode: 'BSZ', sizes: [{ sizex: 'M', barcode: RACE_BARCODE }] }),
    ]);
    await s.pricing.listPrices.setListPrices(
      [...lineSizes, RACE_SIZE].map((z) => ({
        articleNo: z.articleNo,
        sizex: z.sizex,
        priceGroup: 1,
        priceType: 'SELLING' as const,
        currency: 'EUR',
        priceMinor: 4995,
      })),
    );
    await s.stock.ledger.receiveAll([
      ...lineSizes.map((z) => ({
        locationCode: 'WH',
        articleNo: z.articleNo,
        sizex: z.sizex,
        quantity: PLENTY,
      })),
      { ...RACE_SIZE, quantity: RACE_UNITS },
    ]);
    await s.general.auth.createUser({ name: BENCH_ORDER_USER, roles: ['B2C'], secret: BENCH_ORDER_SECRET });
    return { clientNo: FIRST_CLIENT_NO };
  } finally {
    await database.close();
  }
}

/** What the race left at its size: on hand and reserved, and the orders placed for it. */
export async function raceOutcome(databaseUrl: string) {
  const database = openDatabase(databaseUrl);
  try {
    const level = await database.db
      .selectFrom('stock_level')
      .select(['on_hand', 'reserved'])
      .where('article_no', '=', RACE_SIZE.articleNo)
      .where('sizex', '=', RACE_SIZE.sizex)
      .where('location_code', '=', RACE_SIZE.locationCode)
      .executeTakeFirstOrThrow();
    const orders = await database.db
      .selectFrom('sales_order_line')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('article_no', '=', RACE_SIZE.articleNo)
      .executeTakeFirstOrThrow();
    return { onHand: Number(level.on_hand), reserved: Number(level.reserved), orders: Number(orders.n) };
  } finally {
    await database.close();
  }
}
