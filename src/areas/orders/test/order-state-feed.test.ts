import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, testSeed } from '../../../../test/helpers/seed.ts';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { inWriteTransaction } from '../../../kernel/db/unit-of-work.ts';
import { CLIENT, CUSTOMER, O100, O200, ordCus, orderContext, webOrder } from './order-context.ts';
import { read, refused } from './read-helpers.ts';

/**
 * The order state feeds (B2B_/B2C_GetOrderStateChanges): every state move after strscn exactly
 * once. Writers place orders over HTTP and write moves on their own connections, taking their SCN
 * and holding the transaction open a moment (so on PostgreSQL commits come out of SCN order), while
 * clients follow the feeds with small pages; each must end having seen every move of its channel
 * and party exactly once.
 */

const ctx = orderContext();
const OTHER_CUSTOMER = CUSTOMER + 1;
const OTHER_CLIENT = CLIENT + 1;

beforeAll(async () => {
  // enough stock for every placement of the test
  await ctx.t.services.stock.ledger.receiveAll(
    [...O100, ...O200].map((z, i) => ({
      locationCode: 'WH',
      articleNo: i < 3 ? 'O100-010' : 'O200-010',
      sizex: z.sizex,
      quantity: 5000,
    })),
  );
});

/** A client following one feed as its description says: SCN and NEXTOFFSET of the last page. */
class FeedFollower {
  readonly seen = new Map<number, number>();
  readonly scns: number[] = [];
  scn = 0;
  offset = 1;
  rounds = 0;
  readonly operation: string;
  readonly token: () => string;
  readonly query: Record<string, string>;

  constructor(operation: string, token: () => string, query: Record<string, string> = {}) {
    this.operation = operation;
    this.token = token;
    this.query = query;
  }

  async syncOnce(limit = 3): Promise<void> {
    for (let pages = 0; ; pages++) {
      expect(pages, 'a follower that never reaches the end of the feed').toBeLessThan(5000);
      const page = await read(ctx.t, this.token(), this.operation, {
        ...this.query,
        strscn: this.scn,
        stroffset: this.offset,
        strlimit: limit,
      });
      expect(page.CHANGES.length).toBeLessThanOrEqual(limit);
      for (const c of page.CHANGES as Array<{ CHANGE: number }>) {
        this.seen.set(c.CHANGE, (this.seen.get(c.CHANGE) ?? 0) + 1);
      }
      this.scn = page.SCN;
      this.scns.push(page.SCN);
      this.offset = page.NEXTOFFSET ?? 1;
      if (page.NEXTOFFSET === null) break;
    }
    this.rounds++;
  }
}

/** Every history id of a channel (and party), from the tables. */
async function truth(channel: 'B2B' | 'B2C', partyNo?: number): Promise<number[]> {
  const rows = await ctx.t.database.db
    .selectFrom('order_history as h')
    .innerJoin('sales_order as o', 'o.order_no', 'h.order_no')
    .select('h.id')
    .where('o.channel', '=', channel)
    .$if(partyNo !== undefined, (q) =>
      q.where(channel === 'B2B' ? 'o.customer_no' : 'o.client_no', '=', partyNo!),
    )
    .orderBy('h.id')
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Writes `orders.length` history rows in one transaction (one SCN), one per order. */
async function moves(orderNos: readonly number[], hold = 0): Promise<number> {
  return inWriteTransaction(ctx.t.database, async (uow) => {
    const scn = await uow.stamp();
    if (hold > 0) await sleep(hold);
    const at = new Date().toISOString();
    await uow.db
      .insertInto('order_history')
      .values(
        orderNos.map((order_no) => ({
          order_no,
          from_state: 'NEW',
          to_state: 'CONFIRMED',
          action: 'confirm',
          actor: 'SYSTEM',
          reference: null,
          scn,
          at,
        })),
      )
      .execute();
    return scn;
  });
}

describe('order state feeds', () => {
  it('answers each move once, resuming inside a transaction whose moves span pages', async () => {
    const placed: number[] = [];
    for (const ref of ['F-1', 'F-2', 'F-3']) {
      const res = await ctx.t.call('POST', 'B2B_PostOrdCus', {
        token: ctx.customer,
        body: ordCus(ref, [{ barcode: O200[0]!.barcode, quantity: 1 }]),
      });
      expect(res.statusCode, res.body).toBe(200);
      placed.push(res.json().B2BPOSTORDCUS.ORDERNO);
    }
    const follower = new FeedFollower('B2B_GetOrderStateChanges', () => ctx.customer);
    await follower.syncOnce(2);
    const first = await read(ctx.t, ctx.customer, 'B2B_GetOrderStateChanges', { strscn: 0, strlimit: 1 });
    expect(first.CHANGES[0]).toMatchObject({
      ORDERNO: placed[0],
      WEBORDER: 'F-1',
      CUSTOMER,
      FROMSTATE: null,
      STATE: 'NEW',
      ACTION: 'place',
      ACTOR: 'CUSTOMER',
      REFERENCE: null,
    });
    expect(first.CHANGES[0].AT).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(first.CHANGES[0]).not.toHaveProperty('CLIENT');
    // five moves in one transaction, read two by two
    const scn = await moves([...placed, ...placed.slice(0, 2)]);
    const before = follower.seen.size;
    await follower.syncOnce(2);
    expect(follower.seen.size).toBe(before + 5);
    expect([...follower.seen.values()].every((n) => n === 1)).toBe(true);
    expect(follower.scn).toBeGreaterThanOrEqual(scn);
    // nothing more: an empty page with the same SCN or later
    const again = await read(ctx.t, ctx.customer, 'B2B_GetOrderStateChanges', { strscn: follower.scn });
    expect(again).toMatchObject({ CHANGES: [], NEXTOFFSET: null });
    expect(again.SCN).toBeGreaterThanOrEqual(follower.scn);
    expect(await refused(ctx.t, ctx.customer, 'B2B_GetOrderStateChanges', {})).toMatchObject({ status: 400 });
    expect(
      await refused(ctx.t, ctx.customer, 'B2B_GetOrderStateChanges', {
        strscn: 0,
        strcustomer: OTHER_CUSTOMER,
      }),
    ).toEqual({ status: 403, code: 'OUTSIDE_SCOPE' });
    expect(
      await refused(ctx.t, ctx.client, 'B2C_GetOrderStateChanges', { strscn: 0, strclient: OTHER_CLIENT }),
    ).toEqual({ status: 403, code: 'OUTSIDE_SCOPE' });
  });

  it(`never lets a follower miss or see twice a move of concurrent writers (${ENGINE})`, async () => {
    const followers = {
      wholesale: new FeedFollower('B2B_GetOrderStateChanges', () => ctx.both),
      retail: new FeedFollower('B2C_GetOrderStateChanges', () => ctx.both),
      customer: new FeedFollower('B2B_GetOrderStateChanges', () => ctx.customer),
      client: new FeedFollower('B2C_GetOrderStateChanges', () => ctx.client),
      otherClient: new FeedFollower('B2C_GetOrderStateChanges', () => ctx.both, {
        strclient: String(OTHER_CLIENT),
      }),
    };
    const writers = 6;
    const perWriter = 25;
    let running = writers;
    const orders: number[] = [];
    const seed = testSeed();
    const writer = async (w: number) => {
      const random = seededRandom(seed + w);
      for (let i = 0; i < perWriter || followers.wholesale.rounds < 4 || followers.retail.rounds < 4; i++) {
        if (orders.length === 0 || random.next() < 0.6) {
          // a placement (its history row: NEW) over HTTP
          const retail = random.next() < 0.5;
          const ref = `C-${w}-${i}`;
          const res = retail
            ? await ctx.t.call('POST', 'B2C_PostWebOrder', {
                token: ctx.both,
                body: webOrder(ref, [{ barcode: random.pick(O100).barcode, quantity: 1 }], {
                  CLIENT: random.pick([CLIENT, OTHER_CLIENT]),
                }),
              })
            : await ctx.t.call('POST', 'B2B_PostOrdCus', {
                token: ctx.both,
                body: ordCus(ref, [{ barcode: random.pick(O200).barcode, quantity: 1 }], {
                  CUSTOMER: String(random.pick([CUSTOMER, OTHER_CUSTOMER])),
                }),
              });
          expect(res.statusCode, res.body).toBe(200);
          orders.push(Number(Object.values(res.json() as Record<string, { ORDERNO: number }>)[0]!.ORDERNO));
        } else {
          // moves of one to three orders in one transaction that takes its SCN and then waits
          const count = random.int(1, 3);
          await moves(
            Array.from({ length: count }, () => random.pick(orders)),
            random.int(0, 4),
          );
        }
      }
      running--;
    };
    const follow = async (f: FeedFollower) => {
      while (running > 0) {
        await f.syncOnce();
        await sleep(1);
      }
      await f.syncOnce();
    };

    await Promise.all([
      ...Array.from({ length: writers }, (_, w) => writer(w)),
      ...Object.values(followers).map((f) => follow(f)),
    ]);

    const expectations: Array<[FeedFollower, number[]]> = [
      [followers.wholesale, await truth('B2B')],
      [followers.retail, await truth('B2C')],
      [followers.customer, await truth('B2B', CUSTOMER)],
      [followers.client, await truth('B2C', CLIENT)],
      [followers.otherClient, await truth('B2C', OTHER_CLIENT)],
    ];
    for (const [f, ids] of expectations) {
      const twice = [...f.seen].filter(([, n]) => n > 1).map(([id]) => id);
      expect(twice, `${f.operation} answered moves twice`).toEqual([]);
      expect(
        [...f.seen.keys()].sort((a, b) => a - b),
        f.operation,
      ).toEqual(ids);
      expect(f.rounds).toBeGreaterThan(2);
      // the SCN a follower holds never goes back
      expect(f.scns.every((s, i) => i === 0 || s >= f.scns[i - 1]!)).toBe(true);
    }
    expect(followers.wholesale.seen.size).toBeGreaterThan(writers * 5);
    expect(followers.retail.seen.size).toBeGreaterThan(writers * 5);
  }, 120_000);
});
