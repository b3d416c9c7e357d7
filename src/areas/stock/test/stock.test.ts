import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, barcode, sizeTable, toEan13 } from '../../../../test/helpers/fixtures.ts';
import { seededRandom } from '../../../../test/helpers/seed.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { inWriteTransaction } from '../../../kernel/db/unit-of-work.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../../kernel/errors.ts';
import type { LocationInput } from '../stock-rules.ts';

let t: TestApp;
let both: string;
let wholesaleOnly: string;
let admin: string;

const SIZES = ['S', 'M', 'L', 'XL'];
/** A100-010 comes in S, M and L (not XL); saved twice, so its barcodes are fixed. */
const A100_SIZES = ['S', 'M', 'L'].map((sizex, i) => ({ sizex, barcode: toEan13(`87200000000${i}`) }));

function location(code: string, overrides: Partial<LocationInput> = {}): LocationInput {
  return {
    code,
    name: `Location ${code}`,
    kind: 'SHOP',
    servesWholesale: false,
    servesRetail: true,
    ...overrides,
  };
}

beforeAll(async () => {
  t = await startTestApp();
  [both, wholesaleOnly, admin] = await Promise.all([
    t.tokenFor(['B2B', 'B2C']),
    t.tokenFor(['B2B']),
    t.tokenFor(['ADMIN']),
  ]);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', SIZES));
  await t.services.catalog.saveArticles([
    article('A100-010', { sizes: A100_SIZES }),
    article('A100-020', { retail: false }),
    article('A200-010', { sizes: SIZES.map((sizex) => ({ sizex, barcode: barcode() })) }),
    article('A300-010', { sizes: SIZES.map((sizex) => ({ sizex, barcode: barcode() })) }),
    article('R000-001', { sizes: SIZES.map((sizex) => ({ sizex, barcode: barcode() })) }),
  ]);
  const stock = t.services.stock;
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
  await stock.locations.createLocation(location('SHOWROOM', { servesWholesale: true, servesRetail: false }));
});
afterAll(() => t.close());

async function get(op: string, query: Record<string, string>, token = both) {
  return t.call('GET', op, { token, query });
}

async function ok(op: string, query: Record<string, string>, token = both) {
  const res = await get(op, query, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The field names of a 400 the back office answers to `body` (the written form's pointers). */
async function refusedByAdmin(method: 'PUT' | 'POST', url: string, body: unknown): Promise<string[]> {
  const res = await t.send(admin, method, url, body);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().code).toBe('VALIDATION_FAILED');
  return res.json().errors.map((e: { name: string }) => e.name);
}

async function movementCount(): Promise<number> {
  const row = await t.database.db
    .selectFrom('stock_movement')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function scnNow(): Promise<number> {
  const row = await t.database.db.selectFrom('scn_counter').select('value').executeTakeFirstOrThrow();
  return Number(row.value);
}

describe('locations', () => {
  it('creates, changes and refuses bad or duplicate locations with typed errors', async () => {
    const stock = t.services.stock;
    const created = await stock.locations.createLocation(
      location('UTR', { name: 'Utrecht', postalCode: '3511 AA' }),
    );
    expect(created).toMatchObject({ code: 'UTR', kind: 'SHOP', servesRetail: true, active: true });
    expect(created.scn).toBeGreaterThan(0);

    await expect(stock.locations.createLocation(location('UTR'))).rejects.toMatchObject({
      code: 'LOCATION_EXISTS',
      kind: 'conflict',
    });
    // the code's characters are the service's to check; the other fields' shape is the schema's
    const bad = await stock.locations.createLocation(location('bad code!')).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).errors.map((e) => e.name)).toEqual(['/LOCATION']);
    const body = {
      LOCATION: 'bad code!',
      NAME: '',
      KIND: 'DEPOT',
      WHOLESALE: false,
      RETAIL: true,
      COUNTRY: 'nl',
    };
    expect((await refusedByAdmin('PUT', '/TV2/Admin/locations/bad%20code!', body)).sort()).toEqual([
      '/COUNTRY',
      '/KIND',
      '/NAME',
    ]);
    expect(
      await refusedByAdmin('PUT', '/TV2/Admin/locations/bad%20code!', {
        ...body,
        NAME: 'Bad',
        KIND: 'SHOP',
        COUNTRY: 'NL',
      }),
    ).toEqual(['/LOCATION']);

    const changed = await stock.locations.changeLocation('UTR', {
      name: 'Utrecht Centrum',
      postalCode: null,
    });
    expect(changed).toMatchObject({ name: 'Utrecht Centrum', postalCode: null, city: null });
    expect(changed.scn).toBeGreaterThan(created.scn);
    await expect(stock.locations.changeLocation('NOPE', { name: 'x' })).rejects.toBeInstanceOf(NotFoundError);
    expect((await stock.locations.locations()).map((l) => l.code)).toEqual(['AMS', 'SHOWROOM', 'UTR', 'WH']);
  });
});

describe('movements', () => {
  it('validates the article, its size, the location and the quantity', async () => {
    const stock = t.services.stock;
    const line = { locationCode: 'WH', articleNo: 'A200-010', sizex: 'S', quantity: 5 };
    await expect(stock.ledger.receive({ ...line, articleNo: 'NOPE' })).rejects.toMatchObject({
      code: 'ARTICLE_NOT_FOUND',
      kind: 'not-found',
    });
    await expect(stock.ledger.receive({ ...line, sizex: 'XXL' })).rejects.toMatchObject({
      code: 'UNKNOWN_SIZE',
      kind: 'validation',
    });
    await expect(stock.ledger.receive({ ...line, locationCode: 'NOPE' })).rejects.toMatchObject({
      code: 'LOCATION_NOT_FOUND',
    });
    const receipt = { TYPE: 'RECEIPT', LOCATION: 'WH', ARTICLE: 'A200-010', SIZEX: 'S', REASON: 'delivery' };
    for (const quantity of [0, -1, 1.5, 2_000_000]) {
      const res = await t.send(admin, 'POST', '/TV2/Admin/stock/movements', {
        ...receipt,
        QUANTITY: quantity,
      });
      expect(res.statusCode, String(quantity)).toBe(400);
      expect(res.json().errors).toEqual([{ name: '/QUANTITY', message: expect.any(String) }]);
    }
    // the service is for callers that checked their input: a quantity that is no positive whole
    // number is a bug, refused before it reaches the ledger
    for (const quantity of [0, -1, 1.5]) {
      await expect(stock.ledger.receive({ ...line, quantity })).rejects.toBeInstanceOf(RangeError);
    }
    expect(await movementCount()).toBe(0);
    const level = await stock.ledger.receive(line);
    expect(level).toMatchObject({ onHand: 5, reserved: 0, available: 5 });
  });

  it('reserves, releases and ships within what is there, and says why not otherwise', async () => {
    const stock = t.services.stock;
    const key = { locationCode: 'WH', articleNo: 'A200-010', sizex: 'M' };
    await stock.ledger.receive({ ...key, quantity: 4 });
    expect(await stock.ledger.reserve({ ...key, quantity: 3, reference: 'ORDER-1' })).toMatchObject({
      onHand: 4,
      reserved: 3,
      available: 1,
    });
    const refused = await stock.ledger.reserve({ ...key, quantity: 2 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_STOCK' });
    expect((refused as Error).message).toContain('1 available (4 on hand, 3 reserved)');
    // a level that never had stock has nothing to reserve
    await expect(stock.ledger.reserve({ ...key, sizex: 'XL', quantity: 1 })).rejects.toMatchObject({
      code: 'INSUFFICIENT_STOCK',
    });
    await expect(stock.ledger.reserve({ ...key, sizex: 'XXL', quantity: 1 })).rejects.toMatchObject({
      code: 'UNKNOWN_SIZE',
    });
    await stock.ledger.receive({ ...key, locationCode: 'SHOWROOM', quantity: 1 });
    await stock.locations.changeLocation('SHOWROOM', { active: false });
    await expect(
      stock.ledger.reserve({ ...key, locationCode: 'SHOWROOM', quantity: 1 }),
    ).rejects.toMatchObject({
      code: 'LOCATION_INACTIVE',
    });
    await stock.locations.changeLocation('SHOWROOM', { active: true });
    await stock.stockTake.correct({ ...key, locationCode: 'SHOWROOM', setTo: 0 });
    await expect(stock.ledger.release({ ...key, quantity: 4 })).rejects.toMatchObject({
      code: 'INSUFFICIENT_RESERVATION',
    });
    expect(await stock.ledger.release({ ...key, quantity: 1 })).toMatchObject({ reserved: 2, available: 2 });
    expect(await stock.ledger.ship({ ...key, quantity: 2, reference: 'ORDER-1' })).toMatchObject({
      onHand: 2,
      reserved: 0,
      available: 2,
    });
    await expect(stock.ledger.ship({ ...key, quantity: 1 })).rejects.toMatchObject({
      code: 'INSUFFICIENT_RESERVATION',
    });
    const ledger = await stock.ledger.movements(key);
    expect(ledger.map((m) => [m.reason, m.on_hand_delta, m.reserved_delta, m.reference])).toEqual([
      ['SHIPMENT', -2, -2, 'ORDER-1'],
      ['RELEASE', 0, -1, null],
      ['RESERVE', 0, 3, 'ORDER-1'],
      ['RECEIPT', 4, 0, null],
    ]);
  });

  it("reserves inside a caller's transaction: all or nothing with the caller's own work", async () => {
    const stock = t.services.stock;
    const key = { locationCode: 'WH', articleNo: 'A300-010', sizex: 'S' };
    await stock.ledger.receive({ ...key, quantity: 5 });
    const before = await movementCount();
    await expect(
      inWriteTransaction(t.database, async (uow) => {
        await stock.ledger.reserveIn(uow, { ...key, quantity: 2 });
        await stock.ledger.reserveIn(uow, { ...key, sizex: 'M', quantity: 1 }); // nothing there: refused
      }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_STOCK' });
    expect((await stock.ledger.level(key)).reserved).toBe(0);
    expect(await movementCount()).toBe(before);

    // a refusal is no SQL error: the caller may catch it and go on in the same transaction
    const result = await inWriteTransaction(t.database, async (uow) => {
      const scn = await uow.scn();
      const first = await stock.ledger
        .reserveIn(uow, { ...key, sizex: 'M', quantity: 1 })
        .catch((e: unknown) => e);
      const second = await stock.ledger.reserveIn(uow, { ...key, quantity: 2 });
      return { scn, first, second };
    });
    expect(result.first).toMatchObject({ code: 'INSUFFICIENT_STOCK' });
    expect(result.second).toMatchObject({ reserved: 2, scn: result.scn });
  });

  it('transfers available stock between locations in one transaction, two ledger rows', async () => {
    const stock = t.services.stock;
    const key = { articleNo: 'A300-010', sizex: 'L' };
    await stock.ledger.receive({ ...key, locationCode: 'WH', quantity: 10 });
    await stock.ledger.reserve({ ...key, locationCode: 'WH', quantity: 4 });
    await expect(stock.ledger.transfer({ ...key, from: 'WH', to: 'AMS', quantity: 7 })).rejects.toMatchObject(
      {
        code: 'INSUFFICIENT_STOCK',
      },
    );
    await expect(stock.ledger.transfer({ ...key, from: 'WH', to: 'WH', quantity: 1 })).rejects.toMatchObject({
      errors: [{ name: '/TOLOCATION' }],
    });
    await expect(
      stock.ledger.transfer({ ...key, from: 'WH', to: 'NOPE', quantity: 1 }),
    ).rejects.toMatchObject({
      code: 'LOCATION_NOT_FOUND',
    });
    const moved = await stock.ledger.transfer({ ...key, from: 'WH', to: 'AMS', quantity: 6 });
    expect(moved.from).toMatchObject({ onHand: 4, reserved: 4, available: 0 });
    expect(moved.to).toMatchObject({ onHand: 6, reserved: 0, available: 6 });
    expect(moved.from.scn).toBe(moved.to.scn);
    const out = await stock.ledger.movements({ ...key, locationCode: 'WH' }, 1);
    const into = await stock.ledger.movements({ ...key, locationCode: 'AMS' }, 1);
    expect([out[0]?.reason, out[0]?.on_hand_delta, into[0]?.reason, into[0]?.on_hand_delta]).toEqual([
      'TRANSFER_OUT',
      -6,
      'TRANSFER_IN',
      6,
    ]);
    expect(out[0]?.scn).toBe(into[0]?.scn);
  });

  it('corrects to a counted quantity or by a delta, recording the delta, never below reserved', async () => {
    const stock = t.services.stock;
    const key = { locationCode: 'AMS', articleNo: 'A300-010', sizex: 'XL' };
    expect(await stock.stockTake.correct({ ...key, setTo: 7 })).toMatchObject({ onHand: 7 });
    expect(await stock.stockTake.correct({ ...key, delta: -2 })).toMatchObject({ onHand: 5 });
    await stock.ledger.reserve({ ...key, quantity: 3 });
    await expect(stock.stockTake.correct({ ...key, setTo: 2 })).rejects.toMatchObject({
      code: 'INSUFFICIENT_STOCK',
    });
    await expect(stock.stockTake.correct({ ...key, delta: -3 })).rejects.toMatchObject({
      code: 'INSUFFICIENT_STOCK',
    });
    await expect(stock.stockTake.correct({ ...key })).rejects.toMatchObject({ errors: [{ name: '/SETTO' }] });
    const correction = {
      TYPE: 'CORRECTION',
      LOCATION: 'AMS',
      ARTICLE: 'A300-010',
      SIZEX: 'XL',
      REASON: 'count',
    };
    expect(await refusedByAdmin('POST', '/TV2/Admin/stock/movements', correction)).toEqual(['/SETTO']);
    expect(await refusedByAdmin('POST', '/TV2/Admin/stock/movements', { ...correction, DELTA: 0 })).toEqual([
      '/DELTA',
    ]);
    const count = await movementCount();
    const scn = await scnNow();
    expect(await stock.stockTake.correct({ ...key, setTo: 5 })).toMatchObject({ onHand: 5, reserved: 3 });
    expect(await movementCount()).toBe(count);
    expect(await scnNow()).toBe(scn);
    const ledger = await stock.ledger.movements(key);
    expect(ledger.filter((m) => m.reason === 'CORRECTION').map((m) => m.on_hand_delta)).toEqual([-2, 7]);
  });

  it('sets levels in bulk, idempotently, and names every bad row', async () => {
    const stock = t.services.stock;
    const rows = SIZES.flatMap((sizex, i) => [
      { locationCode: 'WH', articleNo: 'R000-001', sizex, onHand: 10 + i },
      { locationCode: 'AMS', articleNo: 'R000-001', sizex, onHand: i },
    ]);
    expect(await stock.stockTake.setLevels(rows, { reference: 'COUNT-1' })).toEqual({
      changed: 7,
      unchanged: 1,
    });
    const count = await movementCount();
    const scn = await scnNow();
    expect(await stock.stockTake.setLevels(rows)).toEqual({ changed: 0, unchanged: 8 });
    expect(await movementCount()).toBe(count);
    expect(await scnNow()).toBe(scn);

    const next = rows.map((r) => (r.sizex === 'S' ? { ...r, onHand: r.onHand + 1 } : r));
    expect(await stock.stockTake.setLevels(next)).toEqual({ changed: 2, unchanged: 6 });
    expect((await stock.ledger.level({ locationCode: 'WH', articleNo: 'R000-001', sizex: 'S' })).onHand).toBe(
      11,
    );

    const badRows = [
      { locationCode: 'WH', articleNo: 'R000-001', sizex: 'S', onHand: 1 },
      { locationCode: 'WH', articleNo: 'R000-001', sizex: 'S', onHand: 2 },
      { locationCode: 'NOPE', articleNo: 'R000-001', sizex: 'M', onHand: 1 },
      { locationCode: 'WH', articleNo: 'NOPE', sizex: 'M', onHand: 1 },
      { locationCode: 'WH', articleNo: 'R000-001', sizex: 'XXL', onHand: 1 },
      { locationCode: 'WH', articleNo: 'R000-001', sizex: 'L', onHand: -1 },
    ];
    const bad = await stock.stockTake.setLevels(badRows.slice(0, 5)).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).errors.map((e) => e.name)).toEqual(['/1']);
    // the same rows in the written form: a level below 0 is the schema's, a repeat the service's
    const levels = badRows.map((r) => ({
      LOCATION: r.locationCode,
      ARTICLE: r.articleNo,
      SIZEX: r.sizex,
      ONHAND: r.onHand,
    }));
    expect(
      await refusedByAdmin('PUT', '/TV2/Admin/stock/levels', { REASON: 'count', LEVELS: levels }),
    ).toEqual(['/LEVELS/5/ONHAND']);
    expect(
      await refusedByAdmin('PUT', '/TV2/Admin/stock/levels', { REASON: 'count', LEVELS: levels.slice(0, 5) }),
    ).toEqual(['/LEVELS/1']);
    const unknown = await stock.stockTake
      .setLevels([
        { locationCode: 'NOPE', articleNo: 'R000-001', sizex: 'M', onHand: 1 },
        { locationCode: 'WH', articleNo: 'NOPE', sizex: 'M', onHand: 1 },
        { locationCode: 'WH', articleNo: 'R000-001', sizex: 'XXL', onHand: 1 },
      ])
      .catch((e: unknown) => e);
    expect((unknown as ValidationError).errors.map((e) => e.name)).toEqual([
      '/0/LOCATION',
      '/1/ARTICLE',
      '/2/SIZEX',
    ]);
    expect((await stock.ledger.level({ locationCode: 'WH', articleNo: 'R000-001', sizex: 'S' })).onHand).toBe(
      11,
    );
  });

  it('deletes only a location without stock; the row stays as tombstone and the code can return', async () => {
    const stock = t.services.stock;
    await stock.locations.createLocation(location('GENT', { name: 'Gent', country: 'BE' }));
    const key = { locationCode: 'GENT', articleNo: 'A200-010', sizex: 'L' };
    await stock.ledger.receive({ ...key, quantity: 2 });
    await expect(stock.locations.deleteLocation('GENT')).rejects.toMatchObject({
      code: 'LOCATION_HAS_STOCK',
    });
    const before = await scnNow();
    await stock.stockTake.correct({ ...key, setTo: 0 });
    await stock.locations.deleteLocation('GENT');
    await expect(stock.locations.deleteLocation('GENT')).rejects.toMatchObject({
      code: 'LOCATION_NOT_FOUND',
    });
    await expect(stock.ledger.receive({ ...key, quantity: 1 })).rejects.toMatchObject({
      code: 'LOCATION_NOT_FOUND',
    });
    expect((await stock.locations.locations()).map((l) => l.code)).not.toContain('GENT');
    expect((await stock.locations.locations({ includeDeleted: true })).map((l) => l.code)).toContain('GENT');

    const feed = (await ok('B2C_GetStockChanges', { strscn: String(before) })).B2CGETSTOCKCHANGES;
    expect(feed.DELETED).toContainEqual({ ARTICLE: 'A200-010', SIZEX: 'L', LOCATION: 'GENT' });
    expect(feed.STOCKS.filter((s: { LOCATION: string }) => s.LOCATION === 'GENT')).toEqual([]);

    await stock.locations.createLocation(location('GENT', { name: 'Gent Zuid' }));
    expect((await stock.locations.location('GENT')).name).toBe('Gent Zuid');
    await stock.locations.deleteLocation('GENT');
  });
});

describe('B2B_GetArticleStock and B2C_GetArticleStock', () => {
  beforeAll(async () => {
    const stock = t.services.stock;
    await stock.ledger.receiveAll([
      { locationCode: 'WH', articleNo: 'A100-010', sizex: 'S', quantity: 10 },
      { locationCode: 'WH', articleNo: 'A100-010', sizex: 'M', quantity: 20 },
      { locationCode: 'AMS', articleNo: 'A100-010', sizex: 'M', quantity: 3 },
      { locationCode: 'SHOWROOM', articleNo: 'A100-010', sizex: 'L', quantity: 1 },
      { locationCode: 'WH', articleNo: 'A100-020', sizex: 'S', quantity: 4 },
    ]);
    await stock.ledger.reserve({ locationCode: 'WH', articleNo: 'A100-010', sizex: 'M', quantity: 5 });
  });

  it('shows wholesale on hand, reserved and available per wholesale location and size, with totals', async () => {
    const body = (await ok('B2B_GetArticleStock', { strarticle: 'A100-010' })).B2BGETARTICLESTOCK;
    expect(body.ARTICLE).toBe('A100-010');
    expect(body.SCN).toBeGreaterThan(0);
    expect(body.LOCATIONS.map((l: { LOCATION: string }) => l.LOCATION)).toEqual(['SHOWROOM', 'WH']);
    const wh = body.LOCATIONS[1];
    expect(wh).toEqual({
      LOCATION: 'WH',
      NAME: 'Central warehouse',
      KIND: 'WAREHOUSE',
      SIZES: [
        { SIZEX: 'S', ONHAND: 10, RESERVED: 0, AVAILABLE: 10 },
        { SIZEX: 'M', ONHAND: 20, RESERVED: 5, AVAILABLE: 15 },
        { SIZEX: 'L', ONHAND: 0, RESERVED: 0, AVAILABLE: 0 },
      ],
    });
    expect(body.TOTALS).toEqual([
      { SIZEX: 'S', ONHAND: 10, RESERVED: 0, AVAILABLE: 10 },
      { SIZEX: 'M', ONHAND: 20, RESERVED: 5, AVAILABLE: 15 },
      { SIZEX: 'L', ONHAND: 1, RESERVED: 0, AVAILABLE: 1 },
    ]);
  });

  it('shows retail only AVAILABLE, at the locations serving retail', async () => {
    const body = (await ok('B2C_GetArticleStock', { strarticle: 'A100-010' })).B2CGETARTICLESTOCK;
    expect(body.LOCATIONS.map((l: { LOCATION: string }) => l.LOCATION)).toEqual(['AMS', 'UTR', 'WH']);
    expect(body.LOCATIONS[0].SIZES).toEqual([
      { SIZEX: 'S', AVAILABLE: 0 },
      { SIZEX: 'M', AVAILABLE: 3 },
      { SIZEX: 'L', AVAILABLE: 0 },
    ]);
    expect(body.TOTALS).toEqual([
      { SIZEX: 'S', AVAILABLE: 10 },
      { SIZEX: 'M', AVAILABLE: 18 },
      { SIZEX: 'L', AVAILABLE: 0 },
    ]);
  });

  it('narrows to one location with strlocation', async () => {
    const body = (await ok('B2C_GetArticleStock', { strarticle: 'A100-010', strlocation: 'AMS' }))
      .B2CGETARTICLESTOCK;
    expect(body.LOCATIONS.map((l: { LOCATION: string }) => l.LOCATION)).toEqual(['AMS']);
    expect(body.TOTALS[1]).toEqual({ SIZEX: 'M', AVAILABLE: 3 });
    // a location retail does not see is not found for retail
    const hidden = await get('B2C_GetArticleStock', { strarticle: 'A100-010', strlocation: 'SHOWROOM' });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().code).toBe('LOCATION_NOT_FOUND');
  });

  it('answers 404 for unknown or unpublished articles and 400 naming bad parameters', async () => {
    const unknown = await get('B2B_GetArticleStock', { strarticle: 'NOPE' });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'ARTICLE_NOT_FOUND']);
    expect((await get('B2B_GetArticleStock', { strarticle: 'A100-020' })).statusCode).toBe(200);
    const unpublished = await get('B2C_GetArticleStock', { strarticle: 'A100-020' });
    expect([unpublished.statusCode, unpublished.json().code]).toEqual([404, 'ARTICLE_NOT_FOUND']);

    const missing = await get('B2B_GetArticleStock', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { name: string }) => e.name)).toContain('strarticle');
    const extra = await get('B2B_GetArticleStock', { strarticle: 'A100-010', strsize: 'M' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().errors.map((e: { name: string }) => e.name)).toContain('strsize');
    expect((await get('B2C_GetArticleStock', { strarticle: 'A100-010' }, wholesaleOnly)).statusCode).toBe(
      403,
    );
  });
});

describe('B2B_GetStocks, B2C_GetStocks and the change feeds', () => {
  it('lists every level the audience sees, paged, and only changes after strscn', async () => {
    const all = (await ok('B2B_GetStocks', { strlocation: 'WH' })).B2BGETSTOCKS;
    expect(all.DELETED).toEqual([]);
    expect(all.NEXTOFFSET).toBeNull();
    expect(all.STOCKS[0]).toEqual({
      ARTICLE: 'A100-010',
      SIZEX: 'M',
      LOCATION: 'WH',
      ONHAND: 20,
      RESERVED: 5,
      AVAILABLE: 15,
      SCN: expect.any(Number),
    });
    const keys = all.STOCKS.map((s: { ARTICLE: string; SIZEX: string }) => `${s.ARTICLE}/${s.SIZEX}`);
    expect(keys).toEqual([...keys].sort());

    const paged: string[] = [];
    let offset: number | null = 1;
    while (offset !== null) {
      const page: {
        STOCKS: Array<{ ARTICLE: string; SIZEX: string }>;
        SCN: number;
        NEXTOFFSET: number | null;
      } = (await ok('B2B_GetStocks', { strlocation: 'WH', strlimit: '3', stroffset: String(offset) }))
        .B2BGETSTOCKS;
      paged.push(...page.STOCKS.map((s) => `${s.ARTICLE}/${s.SIZEX}`));
      expect(page.SCN).toBe(all.SCN);
      offset = page.NEXTOFFSET;
    }
    expect(paged).toEqual(keys);

    const retail = (await ok('B2C_GetStocks', {})).B2CGETSTOCKS;
    expect(retail.STOCKS.length).toBeGreaterThan(0);
    for (const s of retail.STOCKS) {
      expect(Object.keys(s).sort()).toEqual(['ARTICLE', 'AVAILABLE', 'LOCATION', 'SCN', 'SIZEX']);
      expect(s.LOCATION).not.toBe('SHOWROOM');
      expect(s.ARTICLE).not.toBe('A100-020');
    }

    const since = all.SCN;
    expect((await ok('B2B_GetStockChanges', { strscn: String(since) })).B2BGETSTOCKCHANGES.STOCKS).toEqual(
      [],
    );
    await t.services.stock.ledger.reserve({
      locationCode: 'WH',
      articleNo: 'A100-010',
      sizex: 'S',
      quantity: 1,
    });
    const changes = (await ok('B2B_GetStockChanges', { strscn: String(since) })).B2BGETSTOCKCHANGES;
    expect(changes.STOCKS).toEqual([
      expect.objectContaining({
        ARTICLE: 'A100-010',
        SIZEX: 'S',
        LOCATION: 'WH',
        RESERVED: 1,
        SCN: since + 1,
      }),
    ]);
    expect(changes.SCN).toBe(since + 1);
    const retailChanges = (await ok('B2C_GetStockChanges', { strscn: String(since) })).B2CGETSTOCKCHANGES;
    expect(retailChanges.STOCKS).toEqual([
      { ARTICLE: 'A100-010', SIZEX: 'S', LOCATION: 'WH', AVAILABLE: 9, SCN: since + 1 },
    ]);
  });

  it('reports levels under DELETED when a location stops serving an audience or an article is unpublished', async () => {
    const stock = t.services.stock;
    const since = (await ok('B2C_GetStocks', { strlimit: '1' })).B2CGETSTOCKS.SCN;
    await stock.locations.changeLocation('AMS', { servesRetail: false });
    const feed = (await ok('B2C_GetStockChanges', { strscn: String(since) })).B2CGETSTOCKCHANGES;
    expect(feed.STOCKS).toEqual([]);
    expect(feed.DELETED.length).toBeGreaterThan(0);
    expect(feed.DELETED.every((d: { LOCATION: string }) => d.LOCATION === 'AMS')).toBe(true);
    // a name change is not a change of anyone's stock
    const after = feed.SCN;
    await stock.locations.changeLocation('AMS', { name: 'Amsterdam Kalverstraat' });
    expect((await ok('B2C_GetStockChanges', { strscn: String(after) })).B2CGETSTOCKCHANGES.DELETED).toEqual(
      [],
    );
    await stock.locations.changeLocation('AMS', { servesRetail: true });
    const back = (await ok('B2C_GetStockChanges', { strscn: String(after) })).B2CGETSTOCKCHANGES;
    expect(back.STOCKS.length).toBe(feed.DELETED.length);

    const beforeUnpublish = back.SCN;
    await t.services.catalog.saveArticle(article('A100-010', { retail: false, sizes: A100_SIZES }));
    const unpublished = (await ok('B2C_GetStockChanges', { strscn: String(beforeUnpublish) }))
      .B2CGETSTOCKCHANGES;
    expect(unpublished.STOCKS).toEqual([]);
    expect(new Set(unpublished.DELETED.map((d: { ARTICLE: string }) => d.ARTICLE))).toEqual(
      new Set(['A100-010']),
    );
    // wholesale still sees it: the article's change re-sends its levels
    const wholesale = (await ok('B2B_GetStockChanges', { strscn: String(beforeUnpublish) }))
      .B2BGETSTOCKCHANGES;
    expect(new Set(wholesale.STOCKS.map((s: { LOCATION: string }) => s.LOCATION))).toEqual(
      new Set(['WH', 'SHOWROOM']),
    );
    // (its levels at shops that serve only retail are not wholesale's: they are reported as gone)
    expect(wholesale.DELETED.every((d: { LOCATION: string }) => d.LOCATION === 'AMS')).toBe(true);
  });

  it('answers 400 naming a missing strscn, a bad strlimit, and 404 for an unknown strlocation', async () => {
    const missing = await get('B2B_GetStockChanges', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { name: string }) => e.name)).toContain('strscn');
    const bad = await get('B2C_GetStocks', { strscn: '12x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { name: string }) => e.name)).toContain('strscn');
    const limit = await get('B2B_GetStocks', { strlimit: '5001' });
    expect(limit.json().errors).toEqual([{ name: 'strlimit', message: expect.any(String) }]);
    const unknown = await get('B2B_GetStocks', { strlocation: 'NOPE' });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'LOCATION_NOT_FOUND']);
    const hidden = await get('B2C_GetStocks', { strlocation: 'SHOWROOM' });
    expect(hidden.statusCode).toBe(404);
  });
});

describe('the ledger', () => {
  it('keeps every level equal to the sum of its movements, and available >= 0, after random work', async () => {
    const stock = t.services.stock;
    const random = seededRandom(); // the seed is printed on failure, TV2_TEST_SEED replays it
    const locations = ['WH', 'AMS', 'UTR', 'SHOWROOM'];
    const articles = ['A200-010', 'A300-010', 'R000-001'];
    const key = () => ({
      locationCode: random.pick(locations),
      articleNo: random.pick(articles),
      sizex: random.pick(['S', 'M', 'L']),
    });
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 400; i++) {
      const roll = random.int(0, 6);
      const quantity = random.int(1, 6);
      let outcome = 'ok';
      try {
        if (roll === 0) await stock.ledger.receive({ ...key(), quantity });
        else if (roll === 1) await stock.ledger.reserve({ ...key(), quantity });
        else if (roll === 2) await stock.ledger.release({ ...key(), quantity });
        else if (roll === 3) await stock.ledger.ship({ ...key(), quantity });
        else if (roll === 4) {
          const k = key();
          await stock.ledger.transfer({ ...k, from: k.locationCode, to: random.pick(locations), quantity });
        } else if (roll === 5) await stock.stockTake.correct({ ...key(), setTo: random.int(0, 12) });
        else await stock.stockTake.setLevels([{ ...key(), onHand: random.int(0, 12) }]);
      } catch (error) {
        outcome = (error as { code?: string }).code ?? 'unexpected';
      }
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    expect(outcomes.get('unexpected')).toBeUndefined();
    expect(outcomes.get('ok')).toBeGreaterThan(100);
    expect(outcomes.get('INSUFFICIENT_STOCK')).toBeGreaterThan(0);

    expect(await stock.ledger.verifyLedger()).toEqual([]);
    // and checked independently of the service's own query
    const levels = await t.database.db.selectFrom('stock_level').selectAll().execute();
    const movements = await t.database.db.selectFrom('stock_movement').selectAll().execute();
    const sums = new Map<string, { onHand: number; reserved: number }>();
    for (const m of movements) {
      const k = `${m.article_no}|${m.sizex}|${m.location_code}`;
      const sum = sums.get(k) ?? { onHand: 0, reserved: 0 };
      sum.onHand += Number(m.on_hand_delta);
      sum.reserved += Number(m.reserved_delta);
      sums.set(k, sum);
    }
    expect(levels.length).toBe(sums.size);
    expect(levels.length).toBeGreaterThan(0);
    for (const l of levels) {
      expect(sums.get(`${l.article_no}|${l.sizex}|${l.location_code}`)).toEqual({
        onHand: Number(l.on_hand),
        reserved: Number(l.reserved),
      });
      expect(Number(l.reserved)).toBeGreaterThanOrEqual(0);
      expect(Number(l.on_hand) - Number(l.reserved)).toBeGreaterThanOrEqual(0);
    }
  });
});
