import { describe, expect, it } from 'vitest';
import { expectScnStep } from '../../../../test/helpers/scn.ts';
import { inWriteTransaction } from '../../../kernel/db/unit-of-work.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../../kernel/errors.ts';
import { location, SIZES, stockContext } from './stock-context.ts';

const ctx = stockContext();
const { ok, refusedByAdmin, movementCount, scnNow } = ctx;

describe('locations', () => {
  it('creates, changes and refuses bad or duplicate locations with typed errors', async () => {
    const stock = ctx.t.services.stock;
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
    const stock = ctx.t.services.stock;
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
      const res = await ctx.t.send(ctx.admin, 'POST', '/TV2/Admin/stock/movements', {
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
    const stock = ctx.t.services.stock;
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
    const stock = ctx.t.services.stock;
    const key = { locationCode: 'WH', articleNo: 'A300-010', sizex: 'S' };
    await stock.ledger.receive({ ...key, quantity: 5 });
    const before = await movementCount();
    await expect(
      inWriteTransaction(ctx.t.database, async (uow) => {
        await stock.ledger.reserveIn(uow, { ...key, quantity: 2 });
        await stock.ledger.reserveIn(uow, { ...key, sizex: 'M', quantity: 1 }); // nothing there: refused
      }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_STOCK' });
    expect((await stock.ledger.level(key)).reserved).toBe(0);
    expect(await movementCount()).toBe(before);

    // a refusal is no SQL error: the caller may catch it and go on in the same transaction
    const result = await inWriteTransaction(ctx.t.database, async (uow) => {
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
    const stock = ctx.t.services.stock;
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
    const stock = ctx.t.services.stock;
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
    expectScnStep(scn, await scnNow(), 0);
    const ledger = await stock.ledger.movements(key);
    expect(ledger.filter((m) => m.reason === 'CORRECTION').map((m) => m.on_hand_delta)).toEqual([-2, 7]);
  });

  it('sets levels in bulk, idempotently, and names every bad row', async () => {
    const stock = ctx.t.services.stock;
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
    expectScnStep(scn, await scnNow(), 0);

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
    const stock = ctx.t.services.stock;
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
