import { describe, expect, it } from 'vitest';
import { BuildCounter, StatementCounter } from '../../../../test/helpers/statement-counter.ts';
import type { Database } from '../../../kernel/db/database.ts';
import { createServices } from '../../../services.ts';
import { placementFromOrdCus, placementFromWebOrder } from '../placement-rules.ts';
import { CLIENT, CUSTOMER, O100, O200, ordCus, orderContext, webOrder } from './order-context.ts';

/**
 * What one placement costs in statements, and the Idempotency-Key on both placement operations.
 * A placement issues a fixed number of statements plus a constant per line, whatever else the
 * database holds: the figures below are the contract, and a change that adds a statement fails here
 * (docs/orders.md, "Placement under load").
 */

const ctx = orderContext();

/** The services of the app over the same database, every statement counted. */
function counted() {
  const counter = new StatementCounter();
  const database: Database = { ...ctx.t.database, db: ctx.t.database.db.withPlugin(counter) };
  return { counter, services: createServices(ctx.t.services.config, database) };
}

const sizes = (n: number, of = O100) => of.slice(0, n).map((z) => ({ barcode: z.barcode, quantity: 1 }));

async function webStatements(weborder: string, lines: number): Promise<number> {
  const { counter, services } = counted();
  const placed = await services.orders.placement.placeOrder(
    placementFromWebOrder(webOrder(weborder, sizes(lines)), CLIENT),
    'CLIENT',
  );
  expect(placed.LINES).toHaveLength(lines);
  return counter.count;
}

async function ordCusStatements(weborder: string, lines: number): Promise<number> {
  const { counter, services } = counted();
  const placed = await services.orders.placement.placeOrder(
    placementFromOrdCus(ordCus(weborder, sizes(lines, O200)), CUSTOMER),
    'CUSTOMER',
  );
  expect(placed.LINES).toHaveLength(lines);
  return counter.count;
}

/**
 * Statements of a placement: fixed + perLine x lines. A web order: the client (1), the sizes by
 * barcode (1), the retail prices of all lines (1), the SCN (1), the claim (1), the reservation
 * of all lines (1: all or nothing), its ledger rows (1), the lines (1), the VAT rows (1), the
 * history row (1): none per line. A wholesale order (back-orders on): its customer (2) in place of
 * the client, no price or reservation of all lines at once, and per line its price by the price
 * resolution (1), what is available (1) and its reservation (1: as much as there is). A repeat
 * (of a web order here) reads what a placement reads, finds its claim taken and reads the first
 * order back (the reference, the order, its lines, its VAT rows, their sizes).
 */
const WEB = { fixed: 10, perLine: 0 };
const ORDCUS = { fixed: 9, perLine: 3 };
const REPLAY = { fixed: 10, perLine: 0 };
/** A web order's tenders: their rows (1), and per tender the check (2), the debit (1) and its entry (1). */
const TENDERS = { fixed: 1, perTender: 4 };

describe('statements of one placement', () => {
  it('B2C_PostWebOrder: a fixed number plus a constant per line', async () => {
    const counts = [
      await webStatements('ST-W1', 1),
      await webStatements('ST-W2', 2),
      await webStatements('ST-W3', 3),
    ];
    console.log(`[placement-statements] web orders of 1, 2, 3 lines: ${counts.join(', ')}`);
    expect(counts).toEqual([1, 2, 3].map((n) => WEB.fixed + WEB.perLine * n));
  });

  it('B2C_PostWebOrder paid with tenders: a constant per tender more, and one for their rows', async () => {
    const counts = [];
    for (const tenders of [1, 2]) {
      const codes = [];
      for (let i = 0; i < tenders; i++) {
        const issued = await ctx.t.services.tenders.vouchers.issue({
          kind: 'GIFT_VOUCHER',
          amount: 100,
          currency: 'EUR',
          clientNo: null,
          email: null,
          webId: `ST-V${tenders}-${i}`,
        });
        codes.push(issued.tender.code);
      }
      const { counter, services } = counted();
      const placed = await services.orders.placement.placeOrder(
        placementFromWebOrder(
          webOrder(`ST-T${tenders}`, sizes(2), {
            TENDERS: codes.map((CODE) => ({ TYPE: 'VOUCHER', CODE, AMOUNT: 1 })),
          }),
          CLIENT,
        ),
        'CLIENT',
      );
      expect(placed.TENDERS).toHaveLength(tenders);
      counts.push(counter.count);
    }
    console.log(`[placement-statements] web orders of 2 lines paid with 1, 2 vouchers: ${counts.join(', ')}`);
    // Per tender: the throttle's read and the code's (the check before), the debit and its entry.
    expect(counts).toEqual(
      [1, 2].map((n) => WEB.fixed + WEB.perLine * 2 + TENDERS.fixed + TENDERS.perTender * n),
    );
  });

  it('B2B_PostOrdCus: a fixed number plus a constant per line', async () => {
    const counts = [
      await ordCusStatements('ST-B1', 1),
      await ordCusStatements('ST-B2', 2),
      await ordCusStatements('ST-B3', 3),
    ];
    console.log(`[placement-statements] wholesale orders of 1, 2, 3 lines: ${counts.join(', ')}`);
    expect(counts).toEqual([1, 2, 3].map((n) => ORDCUS.fixed + ORDCUS.perLine * n));
  });

  it('a repeat of a placed WEBORDER: a fixed number plus a constant per line', async () => {
    const counts = [];
    for (const weborder of ['ST-W1', 'ST-W3']) {
      const { counter, services } = counted();
      const lines = weborder === 'ST-W1' ? 1 : 3;
      const again = await services.orders.placement.placeOrder(
        placementFromWebOrder(webOrder(weborder, sizes(lines)), CLIENT),
        'CLIENT',
      );
      expect(again.CREATED).toBe(false);
      counts.push(counter.count);
    }
    console.log(`[placement-statements] repeats of 1 and 3 lines: ${counts.join(', ')}`);
    expect(counts).toEqual([1, 3].map((n) => REPLAY.fixed + REPLAY.perLine * n));
  });
});

describe('statements kept compiled', () => {
  it('a web order of a shape placed before builds no statement: each is kept compiled', async () => {
    const builds = new BuildCounter();
    const database: Database = { ...ctx.t.database, db: ctx.t.database.db.withPlugin(builds) };
    const services = createServices(ctx.t.services.config, database);
    const place = async (weborder: string) => {
      builds.built = [];
      await services.orders.placement.placeOrder(
        placementFromWebOrder(webOrder(weborder, sizes(4)), CLIENT),
        'CLIENT',
      );
      return builds.built;
    };
    await place('KC-1');
    // Building a statement cost more CPU than running it (docs/benchmarks.md, "Seventh round").
    expect(await place('KC-2')).toEqual([]);
  });
});

describe('the answer of a new order', () => {
  it('built from the rows the placement wrote, equals the order read back (its repeat’s answer)', async () => {
    for (const [operation, root, body] of [
      // more than the stock of a size: a back-order line
      ['B2B_PostOrdCus', 'B2BPOSTORDCUS', ordCus('AN-B1', [{ barcode: O200[2]!.barcode, quantity: 25 }])],
      ['B2C_PostWebOrder', 'B2CPOSTWEBORDER', webOrder('AN-W1', [...sizes(3)].reverse())],
    ] as const) {
      const first = await ctx.t.call('POST', operation, { token: ctx.both, body });
      expect(first.statusCode, first.body).toBe(200);
      const again = await ctx.t.call('POST', operation, { token: ctx.both, body });
      expect(again.statusCode, again.body).toBe(200);
      expect(first.json()[root].CREATED).toBe(true);
      expect(again.json()[root]).toEqual({ ...first.json()[root], CREATED: false });
    }
  });
});

describe('Idempotency-Key on the placements', () => {
  const post = (operation: string, body: unknown, key: string) =>
    ctx.t.call('POST', operation, { token: ctx.both, body, headers: { 'idempotency-key': key } });

  for (const [operation, root, body, other] of [
    ['B2B_PostOrdCus', 'B2BPOSTORDCUS', ordCus('IK-B1', sizes(1, O200)), ordCus('IK-B2', sizes(1, O200))],
    ['B2C_PostWebOrder', 'B2CPOSTWEBORDER', webOrder('IK-W1', sizes(1)), webOrder('IK-W2', sizes(1))],
  ] as const) {
    it(`${operation}: a retry with the key is replayed and reserves nothing again; the key with another body is refused`, async () => {
      const key = `key-${operation}`;
      const first = await post(operation, body, key);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(first.json()[root].CREATED).toBe(true);
      const reserved = await reservedOf(operation);
      const again = await post(operation, body, key);
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      expect(await reservedOf(operation)).toBe(reserved);
      const reused = await post(operation, other, key);
      expect(reused.statusCode).toBe(409);
      expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await reservedOf(operation)).toBe(reserved);
    });
  }
});

async function reservedOf(operation: string): Promise<number> {
  const articleNo = operation === 'B2B_PostOrdCus' ? 'O200-010' : 'O100-010';
  const l = await ctx.t.services.stock.ledger.level({ locationCode: 'WH', articleNo, sizex: 'S' });
  return l.reserved;
}
