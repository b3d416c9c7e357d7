import type { Mutation } from './mutation.ts';

/**
 * The guards of the orders area's moves, deliveries and returns (docs/orders.md, "Moves",
 * "Deliveries", "Returns"), each removed in turn. The concurrency tests run their callers in worker
 * threads on separate connections; on PostgreSQL each waits at a barrier in front of the guarded
 * statement (the order's lock, the delivery's claim) until all are there.
 */

const MOVES = 'src/areas/orders/test/order-moves.test.ts';
const CONCURRENCY = 'src/areas/orders/test/order-move-concurrency.test.ts';
const RETURNS = 'src/areas/orders/test/order-returns-close.test.ts';
const FEED = 'src/areas/orders/test/order-state-feed.test.ts';

export const ORDER_MOVE_MUTATIONS: Mutation[] = [
  {
    name: 'order-move-without-lock',
    what:
      'a move reads the order and its lines without FOR UPDATE: on PostgreSQL (READ COMMITTED) two deliveries of ' +
      'one order both see the open quantity and both deliver it (SQLite serialises writers with BEGIN IMMEDIATE)',
    edits: [
      {
        file: 'src/areas/orders/order-repository.ts',
        find: 'return (onPostgres(this.db) ? q.forUpdate() : q).executeTakeFirst();',
        replace: 'return (onPostgres(this.db) ? q : q).executeTakeFirst();',
      },
    ],
    tests: [CONCURRENCY],
    testNames: 'never deliver more than open|add up to at most|back-order',
    engines: ['postgres'],
  },
  {
    name: 'delivery-cancel-unconditional',
    what:
      'the cancellation of a delivery marks it cancelled without `cancelled = 0`: a second cancel, also a ' +
      'concurrent one, takes the pieces back again',
    edits: [
      {
        file: 'src/areas/orders/delivery-repository.ts',
        find: `      .where('delivery_no', '=', deliveryNo)
      .where('cancelled', '=', 0)`,
        replace: `      .where('delivery_no', '=', deliveryNo)`,
      },
    ],
    tests: [MOVES, CONCURRENCY],
    testNames: 'cancels a delivery once|cancels of one delivery',
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'delivery-cancel-read-then-claim',
    what:
      'the cancellation reads `cancelled` and checks it in code, then marks the delivery without the condition: ' +
      'on PostgreSQL concurrent cancels all read 0 before any writes, and each takes the pieces back',
    edits: [
      {
        file: 'src/areas/orders/delivery-repository.ts',
        find: `  async claimCancel(deliveryNo: number, scn: number, at: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('delivery')
      .set({ cancelled: 1, scn, updated_at: at })
      .where('delivery_no', '=', deliveryNo)
      .where('cancelled', '=', 0)`,
        replace: `  async claimCancel(deliveryNo: number, scn: number, at: string): Promise<number | undefined> {
    const seen = await this.findDelivery(deliveryNo);
    if (!seen || Number(seen.cancelled) !== 0) return undefined;
    const row = await this.db
      .updateTable('delivery')
      .set({ cancelled: 1, scn, updated_at: at })
      .where('delivery_no', '=', deliveryNo)`,
      },
    ],
    tests: [CONCURRENCY],
    testNames: 'cancels of one delivery',
    engines: ['postgres'],
  },
  {
    name: 'back-order-ships-reserved-stock',
    what:
      'a back-order delivered beyond its reservation takes on hand without the availability condition, ' +
      'shipping stock reserved for another order',
    edits: [
      {
        file: 'src/areas/stock/reservation-service.ts',
        find: `      const row = await repo.takeAvailable(line, line.quantity, scn);
      if (!row) throw await whyNot(repo, line, 'take');`,
        replace: `      await repo.addOnHand([{ ...keyOf(line), quantity: -line.quantity }], scn);`,
      },
    ],
    tests: [MOVES],
    testNames: 'back-order',
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'return-receipt-unconditional',
    what:
      'the receipt of a return marks it RECEIVED without `state = AUTHORISED`: a second receipt puts the goods ' +
      'on hand and counts them on the line again',
    edits: [
      {
        file: 'src/areas/orders/return-repository.ts',
        find: `      .where('return_no', '=', returnNo)
      .where('state', '=', 'AUTHORISED')`,
        replace: `      .where('return_no', '=', returnNo)`,
      },
    ],
    tests: [RETURNS, CONCURRENCY],
    testNames: 'receipt counts once|receipts of one return',
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'return-authorised-twice',
    what: 'an authorisation does not count the pieces authorised already and not yet received',
    edits: [
      {
        file: 'src/areas/orders/return-service.ts',
        find: `        const out = l.delivered - l.returned - (authorised.get(l.line_no) ?? 0);`,
        replace: `        const out = l.delivered - l.returned;`,
      },
    ],
    tests: [RETURNS],
    testNames: 'receipt counts once',
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'return-receipt-read-then-claim',
    what:
      'the receipt reads the return state and checks it in code, then marks it RECEIVED without the condition: ' +
      'on PostgreSQL concurrent receipts all read AUTHORISED before any writes, and each counts the goods',
    edits: [
      {
        file: 'src/areas/orders/return-repository.ts',
        find: `    const row = await this.db
      .updateTable('order_return')
      .set({ state: 'RECEIVED', scn, updated_at: at })
      .where('return_no', '=', returnNo)
      .where('state', '=', 'AUTHORISED')`,
        replace: `    const seen = await this.findReturn(returnNo);
    if (!seen || seen.state !== 'AUTHORISED') return undefined;
    const row = await this.db
      .updateTable('order_return')
      .set({ state: 'RECEIVED', scn, updated_at: at })
      .where('return_no', '=', returnNo)`,
      },
    ],
    tests: [CONCURRENCY],
    testNames: 'receipts of one return',
    engines: ['postgres'],
  },
  {
    name: 'order-feed-without-horizon',
    what:
      'the order state feeds read past the SCN horizon (no `h.scn <= upToScn`): on PostgreSQL a page can hold ' +
      'a move of a transaction that committed while one with a lower SCN was still open, and the cursor then ' +
      'passes that one (SQLite hands out SCNs in commit order, so only PostgreSQL can catch it)',
    edits: [
      {
        file: 'src/areas/orders/order-read-repository.ts',
        find: `      .where('h.scn', '<=', q.upToScn)
`,
        replace: '',
      },
    ],
    tests: [FEED],
    testNames: 'never lets a follower miss',
    engines: ['postgres'],
  },
  {
    name: 'order-feed-resume-skips-one',
    what:
      'a feed page that resumes inside a transaction starts after the history id of the cursor instead of at ' +
      'it: the move at the page boundary is never answered',
    edits: [
      {
        file: 'src/areas/orders/order-read-repository.ts',
        find: `eb('h.id', '>=', q.fromId)`,
        replace: `eb('h.id', '>', q.fromId)`,
      },
    ],
    tests: [FEED],
    testNames: 'answers each move once',
    engines: ['sqlite', 'postgres'],
  },
];
