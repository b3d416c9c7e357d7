import type { Mutation } from './mutation.ts';

/**
 * The guards of the orders area's placement (docs/orders.md, "Placement under load"), each removed
 * in turn: the reservation's conditional UPDATE (through the stock area's reserveAllIn, in the
 * placement's transaction) and the exactly-once claim (the order row inserted with ON CONFLICT DO
 * NOTHING on the party's reference). Their tests run placements in worker threads with their own
 * database handles; each guard also has a test without the SCN lock or BEGIN IMMEDIATE in front
 * (`withoutScnLock`), its callers lined up at a barrier in front of the guarded statement.
 */

const TESTS = ['src/areas/orders/test/placement-concurrency.test.ts'];
const SERVICE = 'src/areas/orders/placement-service.ts';
const REPOSITORY = 'src/areas/orders/placement-repository.ts';

const RESERVE_CALL = `      const reserved = await this.all.stock.reservations.reserveAllIn(
        uow,
        priced.map((l) => ({
          locationCode: this.config.orderLocation,
          articleNo: l.size.articleNo,
          sizex: l.size.sizex,
          quantity: l.quantity,
          reference: \`ORDER \${orderNo}\`,
        })),
        { upTo: placement.channel === 'B2B' && this.config.orderBackorders },
      );
`;

/** Reserves each line by setting reserved to what `seen` holds plus its quantity: no condition. */
const WRITE_WHAT_WAS_SEEN = `      const { StockRepository } = await import('../stock/stock-repository.ts');
      const { movementRow } = await import('../stock/stock-shared.ts');
      const reserved = [];
      const movements = [];
      for (const [i, l] of priced.entries()) {
        const key = { locationCode: this.config.orderLocation, articleNo: l.size.articleNo, sizex: l.size.sizex };
        await uow.db
          .updateTable('stock_level')
          .set({ reserved: seen[i]!.reserved + l.quantity, scn: stamp })
          .where('article_no', '=', key.articleNo)
          .where('sizex', '=', key.sizex)
          .where('location_code', '=', key.locationCode)
          .execute();
        movements.push(movementRow(this.now, stamp, key, 'RESERVE', 0, l.quantity, \`ORDER \${orderNo}\`));
        reserved.push({ asked: l.quantity, reserved: l.quantity });
      }
      await new StockRepository(uow.db).insertMovements(movements);
`;

/** Reads the lines' levels (over `db`) into `seen` and refuses a line short of stock, in code. */
const readAndCheck = (db: string) => `      const { STOCK_ERRORS } = await import('../stock/errors.ts');
      const seen = [];
      for (const l of priced) {
        const level = await ${db}
          .selectFrom('stock_level')
          .select(['on_hand', 'reserved'])
          .where('article_no', '=', l.size.articleNo)
          .where('sizex', '=', l.size.sizex)
          .where('location_code', '=', this.config.orderLocation)
          .executeTakeFirst();
        if (!level || Number(level.on_hand) - Number(level.reserved) < l.quantity)
          throw STOCK_ERRORS.INSUFFICIENT_STOCK(\`not enough of \${l.size.articleNo} \${l.size.sizex}\`);
        seen.push({ reserved: Number(level.reserved) });
      }
`;

export const ORDER_PLACEMENT_MUTATIONS: Mutation[] = [
  {
    name: 'order-placement-reserve-all-unconditional',
    what:
      "the reservation of all a web order's lines (stock's reserveAll, one UPDATE over the levels) adds the " +
      'quantities without its condition that available (on hand - reserved) covers each: concurrent web orders ' +
      'reserve more than is on hand',
    edits: [
      {
        file: 'src/areas/stock/stock-repository.ts',
        find: `              eb(
                eb('stock_level.on_hand', '-', eb.ref('stock_level.reserved')),
                '>=',
                eb.ref('take.quantity'),
              ),
              eb(
                'stock_level.location_code',`,
        replace: `              eb.val(true),
              eb(
                'stock_level.location_code',`,
      },
    ],
    tests: TESTS,
    testNames: 'stock',
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'order-placement-checked-before-transaction',
    what:
      'the placement reads the levels of its lines with its other reads, before its write transaction, refuses a ' +
      'line short of stock in code and then sets reserved to what it read plus the quantity (no condition in the ' +
      'UPDATE): a real defect on both engines (neither BEGIN IMMEDIATE nor any lock covers a read made before the ' +
      'transaction), concurrent web orders oversell',
    edits: [
      {
        file: SERVICE,
        find: `    const result = await inWriteTransaction(this.database, async (uow) => {
`,
        replace: `${readAndCheck('this.database.db')}    const result = await inWriteTransaction(this.database, async (uow) => {
`,
      },
      { file: SERVICE, find: RESERVE_CALL, replace: WRITE_WHAT_WAS_SEEN },
    ],
    tests: TESTS,
    testNames: 'stock',
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'order-placement-read-check-update',
    what:
      'in its transaction, the placement reads the levels of its lines, refuses a line short of stock in code and ' +
      'sets reserved to what it read plus the quantity (no condition in the UPDATE): a lost update wherever the ' +
      'transaction is not serialised (PostgreSQL, where the placement takes no SCN lock; SQLite statements ' +
      'outside BEGIN IMMEDIATE)',
    edits: [{ file: SERVICE, find: RESERVE_CALL, replace: readAndCheck('uow.db') + WRITE_WHAT_WAS_SEEN }],
    tests: TESTS,
    testNames: 'stock',
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'order-placement-claim-lookup-then-insert',
    what:
      'the claim looks the reference up and then inserts the order without ON CONFLICT DO NOTHING: the unique key ' +
      'still refuses a second row, but that caller gets the raw violation (a 500) instead of the first order; ' +
      'reached wherever the look-up and the insert are not serialised (PostgreSQL, where the placement takes no ' +
      'SCN lock; SQLite statements outside BEGIN IMMEDIATE)',
    edits: [
      {
        file: REPOSITORY,
        find: `    const query = this.#claims[row.channel as 'B2B' | 'B2C']({ ...(row as Values) });
`,
        replace: `    if (await this.referenceOf(row.channel, Number(row.customer_no ?? row.client_no), row.weborder, db))
      return undefined;
    const query = this.#claims[row.channel as 'B2B' | 'B2C']({ ...(row as Values) });
`,
      },
      {
        file: REPOSITORY,
        find: `          // the party's unique reference: a partial index (migration 0043), named with its condition
          .onConflict((oc) =>
            oc
              .columns(channel === 'B2B' ? ['customer_no', 'weborder'] : ['client_no', 'weborder'])
              .where(channel === 'B2B' ? 'customer_no' : 'client_no', 'is not', null)
              .doNothing(),
          )
`,
        replace: '',
      },
    ],
    tests: TESTS,
    testNames: 'WEBORDER',
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'order-placement-claim-plain-insert',
    what:
      'the claim inserts the order without ON CONFLICT DO NOTHING (no look-up at all): a repeat of a reference, ' +
      'also one posted many times at once, gets the unique key’s raw violation (a 500) instead of the first order',
    edits: [
      {
        file: REPOSITORY,
        find: `          // the party's unique reference: a partial index (migration 0043), named with its condition
          .onConflict((oc) =>
            oc
              .columns(channel === 'B2B' ? ['customer_no', 'weborder'] : ['client_no', 'weborder'])
              .where(channel === 'B2B' ? 'customer_no' : 'client_no', 'is not', null)
              .doNothing(),
          )
`,
        replace: '',
      },
    ],
    tests: TESTS,
    testNames: 'WEBORDER',
    engines: ['sqlite', 'postgres'],
  },
];
