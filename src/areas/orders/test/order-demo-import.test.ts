import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { loadDemoIfEmpty } from '../../../app.ts';
import { ORDERS_IMPORT_KINDS } from '../import-kinds.ts';
import { derivedState } from '../rules/line-counters.ts';
import type { StoredState } from '../rules/states.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  expect(await loadDemoIfEmpty(t.services)).toBe(true);
}, 120_000);
afterAll(() => t?.close());

async function orders() {
  const db = t.database.db;
  const rows = await db
    .selectFrom('sales_order')
    .select(['order_no', 'weborder', 'channel', 'state'])
    .execute();
  const lines = await db.selectFrom('sales_order_line').selectAll().execute();
  return rows.map((o) => {
    const own = lines.filter((l) => Number(l.order_no) === Number(o.order_no));
    return { ...o, order_no: Number(o.order_no), reported: derivedState(own, o.state as StoredState) };
  });
}

describe('the demo orders', () => {
  it('has orders in every state, wholesale and web, with deliveries (one cancelled) and a received return', async () => {
    const all = await orders();
    expect(new Set(all.map((o) => o.reported))).toEqual(
      new Set(['NEW', 'CONFIRMED', 'PICKING', 'PARTIALLY_DELIVERED', 'DELIVERED', 'CLOSED', 'CANCELLED']),
    );
    expect(new Set(all.map((o) => o.channel))).toEqual(new Set(['B2B', 'B2C']));
    const deliveries = await t.database.db.selectFrom('delivery').select(['cancelled']).execute();
    expect(deliveries.length).toBeGreaterThanOrEqual(5);
    expect(deliveries.filter((d) => Number(d.cancelled) === 1)).toHaveLength(1);
    const returns = await t.database.db.selectFrom('order_return').select(['state']).execute();
    expect(returns).toEqual([{ state: 'RECEIVED' }]);
    expect(await t.services.stock.ledger.verifyLedger()).toEqual([]);
    // A web order paid in part with a gift voucher (the tenders area's demo data, seeded after).
    const paid = await t.database.db
      .selectFrom('order_tender')
      .innerJoin('sales_order', 'sales_order.order_no', 'order_tender.order_no')
      .select(['sales_order.weborder', 'order_tender.kind', 'order_tender.amount'])
      .execute();
    expect(paid.map((p) => [p.weborder, p.kind, Number(p.amount)])).toEqual([
      ['WEB-DEMO-VOUCHER', 'GIFT_VOUCHER', 500],
    ]);
  });
});

describe('tv2 import deliveries', () => {
  const kind = ORDERS_IMPORT_KINDS.find((k) => k.name === 'deliveries')!;

  it('makes one delivery per order and reference of a batch, and writes nothing of a batch with a refusal', async () => {
    const confirmed = (await orders()).find((o) => o.weborder === 'DEMO-CONFIRMED')!;
    const no = confirmed.order_no;
    const before = await t.database.db.selectFrom('delivery').select('delivery_no').execute();
    const bad = [
      kind.parse({ ORDERNO: String(no), LINE: '1', QUANTITY: '1', REFERENCE: 'IMP-1' }, 'csv'),
      kind.parse({ ORDERNO: no, LINE: 2, QUANTITY: 99 }, 'json'),
    ];
    await expect(kind.save(t.services, bad)).rejects.toMatchObject({ code: 'ORDER_LINE_OVER_DELIVERED' });
    expect(await t.database.db.selectFrom('delivery').select('delivery_no').execute()).toEqual(before);
    expect(() => kind.parse({ ORDERNO: no, LINE: 1 }, 'json')).toThrow();
    const result = await kind.save(t.services, [
      kind.parse({ ORDERNO: String(no), LINE: '1', QUANTITY: '1', REFERENCE: 'IMP-2' }, 'csv'),
      kind.parse({ ORDERNO: String(no), LINE: '2', QUANTITY: '2', REFERENCE: 'IMP-2' }, 'csv'),
    ]);
    expect(result).toEqual({ written: 2, unchanged: 0 });
    const made = await t.database.db
      .selectFrom('delivery')
      .select(['delivery_no', 'reference'])
      .where('order_no', '=', no)
      .execute();
    expect(made.map((d) => d.reference)).toEqual(['IMP-2']);
    const lines = await t.database.db
      .selectFrom('delivery_line')
      .select(['line_no', 'quantity'])
      .where('delivery_no', '=', made[0]!.delivery_no)
      .orderBy('line_no')
      .execute();
    expect(lines).toEqual([
      { line_no: 1, quantity: 1 },
      { line_no: 2, quantity: 2 },
    ]);
    const rest = await kind.save(t.services, [kind.parse({ ORDERNO: String(no) }, 'csv')]);
    expect(rest.written).toBe(1);
    expect((await orders()).find((o) => o.order_no === no)!.reported).toBe('DELIVERED');
  });
});
