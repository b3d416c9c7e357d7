import { afterAll, beforeAll, expect } from 'vitest';
import { article, barcode, sizeTable, toEan13 } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { currentScn } from '../../../kernel/db/unit-of-work.ts';
import type { LocationInput } from '../stock-rules.ts';

export const SIZES = ['S', 'M', 'L', 'XL'];
/** A100-010 comes in S, M and L (not XL); saved twice, so its barcodes are fixed. */
export const A100_SIZES = ['S', 'M', 'L'].map((sizex, i) => ({ sizex, barcode: toEan13(`87200000000${i}`) }));

export function location(code: string, overrides: Partial<LocationInput> = {}): LocationInput {
  return {
    code,
    name: `Location ${code}`,
    kind: 'SHOP',
    servesWholesale: false,
    servesRetail: true,
    ...overrides,
  };
}

/**
 * The shared set-up of the stock tests (locations-and-movements, stock-reads-and-ledger): call it
 * once at the top of a test file. It registers the file's beforeAll/afterAll (a fresh app with
 * articles A100-010 to R000-001, locations WH, AMS and SHOWROOM, and tokens for B2B+B2C, B2B only
 * and ADMIN) and answers the app, the tokens and the small helpers; `t` and the tokens are there
 * from beforeAll on.
 */
export function stockContext() {
  let app: TestApp | undefined;
  let both = '';
  let wholesaleOnly = '';
  let admin = '';

  beforeAll(async () => {
    app = await startTestApp();
    [both, wholesaleOnly, admin] = await Promise.all([
      app.tokenFor(['B2B', 'B2C']),
      app.tokenFor(['B2B']),
      app.tokenFor(['ADMIN']),
    ]);
    await app.services.catalog.saveSizeTable(sizeTable('CONF', SIZES));
    await app.services.catalog.saveArticles([
      article('A100-010', { sizes: A100_SIZES }),
      article('A100-020', { retail: false }),
      article('A200-010', { sizes: SIZES.map((sizex) => ({ sizex, barcode: barcode() })) }),
      article('A300-010', { sizes: SIZES.map((sizex) => ({ sizex, barcode: barcode() })) }),
      article('R000-001', { sizes: SIZES.map((sizex) => ({ sizex, barcode: barcode() })) }),
    ]);
    const stock = app.services.stock;
    await stock.locations.createLocation(
      location('WH', {
        kind: 'WAREHOUSE',
        name: 'Central warehouse',
        servesWholesale: true,
        servesRetail: true,
      }),
    );
    await stock.locations.createLocation(
      location('AMS', { name: 'Amsterdam', city: 'Amsterdam', country: 'NL' }),
    );
    await stock.locations.createLocation(
      location('SHOWROOM', { servesWholesale: true, servesRetail: false }),
    );
  });
  afterAll(() => app?.close());

  const t = (): TestApp => {
    if (!app) throw new Error('the stock test app is there from beforeAll on');
    return app;
  };
  const get = async (op: string, query: Record<string, string>, token = both) =>
    t().call('GET', op, { token, query });

  return {
    get t(): TestApp {
      return t();
    },
    get both(): string {
      return both;
    },
    get wholesaleOnly(): string {
      return wholesaleOnly;
    },
    get admin(): string {
      return admin;
    },
    get,
    async ok(op: string, query: Record<string, string>, token = both) {
      const res = await get(op, query, token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
    /** The field names of a 400 the back office answers to `body` (the written form's pointers). */
    async refusedByAdmin(method: 'PUT' | 'POST', url: string, body: unknown): Promise<string[]> {
      const res = await t().send(admin, method, url, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
      return res.json().errors.map((e: { name: string }) => e.name);
    },
    async movementCount(): Promise<number> {
      const row = await t()
        .database.db.selectFrom('stock_movement')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async scnNow(): Promise<number> {
      return currentScn(t().database.db);
    },
  };
}
