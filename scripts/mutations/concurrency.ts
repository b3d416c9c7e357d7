import type { Mutation } from './mutation.ts';

/**
 * The guards that keep concurrent writers apart, each removed in turn. On SQLite every write
 * transaction begins IMMEDIATE, so a read, a check and a write inside one are serialised and
 * safe there; on PostgreSQL (READ COMMITTED) every service write first takes the SCN counter's row
 * lock, which serialises them too. So each guard has a test that takes those away (`withoutScnLock`
 * in test/helpers/thread-sync.ts: a transaction without the SCN lock on PostgreSQL, statements
 * without a transaction on SQLite), runs the callers on separate connections (worker threads with
 * their own database handles) and lines them up at a barrier in front of the guarded write
 * (`pauseBefore`), so all of them have read before any of them writes.
 */

const STOCK_TESTS = ['src/areas/stock/test/stock-concurrency.test.ts'];
const CLIENT_TESTS = ['src/areas/clients/test/client-concurrency.test.ts'];

export const CONCURRENCY_MUTATIONS: Mutation[] = [
  {
    name: 'stock-reserve-read-check-update',
    what:
      'the reservation reads the level, checks on_hand - reserved in code and then sets reserved to what it read plus q ' +
      '(no WHERE on availability), in the same transaction: a lost update wherever that transaction is not serialised ' +
      '(PostgreSQL READ COMMITTED without the SCN lock in front; SQLite statements outside BEGIN IMMEDIATE); the ' +
      'CHECK (on_hand >= reserved) does not see it, as the written value never exceeds on_hand',
    edits: [
      {
        file: 'src/areas/stock/stock-repository.ts',
        find: `  reserve(key: LevelKey, quantity: number, scn: number): Promise<LevelRow | undefined> {
    return this.#conditional(
      key,
      scn,
      (eb) => ({ reserved: eb('reserved', '+', quantity) }),
      (eb) =>
        eb.and([
          eb(eb('on_hand', '-', eb.ref('reserved')), '>=', quantity),
`,
        replace: `  async reserve(key: LevelKey, quantity: number, scn: number): Promise<LevelRow | undefined> {
    const seen = await this.db
      .selectFrom('stock_level')
      .select(['on_hand', 'reserved'])
      .where('article_no', '=', key.articleNo)
      .where('sizex', '=', key.sizex)
      .where('location_code', '=', key.locationCode)
      .executeTakeFirst();
    if (!seen || Number(seen.on_hand) - Number(seen.reserved) < quantity) return undefined;
    return this.#conditional(
      key,
      scn,
      () => ({ reserved: Number(seen.reserved) + quantity }),
      (eb) =>
        eb.and([
`,
      },
    ],
    tests: STOCK_TESTS,
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'stock-reserve-checked-before-transaction',
    what:
      'reserve() reads the level and checks availability before it opens its write transaction, then sets reserved ' +
      'to what it read plus q: a real defect on both engines, in the code as it runs (neither BEGIN IMMEDIATE nor ' +
      'the SCN lock covers a read made before the transaction)',
    edits: [
      {
        file: 'src/areas/stock/stock-ledger-service.ts',
        find: `  reserve(line: StockLine): Promise<StockLevel> {
    return inWriteTransaction(this.database, (uow) => this.reserveIn(uow, line));
  }
`,
        replace: `  async reserve(line: StockLine): Promise<StockLevel> {
    assertQuantity(line.quantity);
    const seen = (await this.#read.levelsOfArticle(line.articleNo, line.locationCode)).find(
      (l) => l.sizex === line.sizex,
    );
    if (!seen || seen.on_hand - seen.reserved < line.quantity) throw await whyNot(this.#read, line, 'reserve');
    return inWriteTransaction(this.database, async (uow) => {
      const scn = await uow.scn();
      const row = await uow.db
        .updateTable('stock_level')
        .set({ reserved: seen.reserved + line.quantity, scn })
        .where('article_no', '=', line.articleNo)
        .where('sizex', '=', line.sizex)
        .where('location_code', '=', line.locationCode)
        .returning(['article_no', 'sizex', 'location_code', 'on_hand', 'reserved', 'scn'])
        .executeTakeFirstOrThrow();
      await new StockRepository(uow.db).insertMovements([
        movementRow(this.now, scn, line, 'RESERVE', 0, line.quantity, line.reference),
      ]);
      return toLevel(line, {
        ...row,
        on_hand: Number(row.on_hand),
        reserved: Number(row.reserved),
        scn: Number(row.scn),
      });
    });
  }
`,
      },
    ],
    tests: STOCK_TESTS,
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'client-claim-check-then-insert',
    what:
      'a client action claim looks for an existing claim and then inserts without ON CONFLICT DO NOTHING: the ' +
      'unique key still refuses the second row, but that caller gets the raw violation (a 500) instead of 409 ' +
      'ACTION_ALREADY_CLAIMED; reached wherever the check and the insert are not serialised (PostgreSQL without ' +
      'the SCN lock in front; SQLite statements outside BEGIN IMMEDIATE)',
    edits: [
      {
        file: 'src/areas/clients/client-repository.ts',
        find: `    const row = await this.db
      .insertInto('client_action_claim')
      .values({ action_code: actionCode, client_no: clientNo, claimed_at: at, scn })
      .onConflict((oc) => oc.columns(['action_code', 'client_no']).doNothing())
`,
        replace: `    const claimed = await this.db
      .selectFrom('client_action_claim')
      .select('claimed_at')
      .where('action_code', '=', actionCode)
      .where('client_no', '=', clientNo)
      .executeTakeFirst();
    if (claimed) return undefined;
    const row = await this.db
      .insertInto('client_action_claim')
      .values({ action_code: actionCode, client_no: clientNo, claimed_at: at, scn })
`,
      },
    ],
    tests: CLIENT_TESTS,
    testNames: 'claim',
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'idempotency-find-then-insert',
    what:
      'the Idempotency-Key claim looks for the key and inserts when it finds none, and counts the claim as won ' +
      'whatever the insert did: requests that all looked before any claimed all run the handler; a real defect on ' +
      'both engines (the claim runs outside any transaction)',
    edits: [
      {
        file: 'src/areas/general/idempotency-repository.ts',
        find: `  async claim(userId: number, key: string, claim: ClaimRow): Promise<boolean> {
    const result = await this.db
`,
        replace: `  async claim(userId: number, key: string, claim: ClaimRow): Promise<boolean> {
    if (await this.find(userId, key)) return false;
    await this.db
`,
      },
      {
        file: 'src/areas/general/idempotency-repository.ts',
        find: `    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
`,
        replace: `    return true;
`,
      },
    ],
    tests: ['src/areas/general/test/idempotency-concurrency.test.ts'],
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'client-email-violation-unmapped',
    what:
      'the unique e-mail index violation is no longer mapped to 409 EMAIL_TAKEN (uniqueConflict): it comes back as ' +
      'a 500; reached only by writers whose e-mail checks both passed, which on SQLite takes statements outside ' +
      'BEGIN IMMEDIATE on separate connections, on PostgreSQL transactions without the SCN lock in front',
    edits: [
      {
        file: 'src/areas/clients/client-common.ts',
        find: `    case 'email':
      return emailTaken();
`,
        replace: '',
      },
    ],
    tests: CLIENT_TESTS,
    testNames: 'e-mail',
    engines: ['sqlite', 'postgres'],
  },
  {
    name: 'scn-horizon-passes-running-transactions',
    what:
      "the reader's SCN on PostgreSQL is the next transaction id less one, not the horizon below the " +
      'transactions still running: a transaction with a lower id that commits after a reader took its cursor ' +
      'hides behind that cursor, and a feed never returns its rows',
    edits: [
      {
        file: 'src/kernel/db/scn-horizon.ts',
        find: '    SELECT min(x::text::bigint) INTO lowest FROM pg_snapshot_xip(snap) AS x\n',
        replace: '    SELECT min(NULL::bigint) INTO lowest FROM pg_snapshot_xip(snap) AS x\n',
      },
    ],
    tests: ['src/kernel/db/unit-of-work.test.ts', 'test/scn-sync.test.ts'],
    engines: ['postgres'],
  },
  {
    name: 'stock-receipt-no-share-lock',
    what:
      'a receipt, which only stamps, checks that its article and location are live but without the shared ' +
      'row locks: it reads past a deletion that has marked the row and not committed, and writes stock the ' +
      'deleted article or location then holds; a deletion that starts while the receipt is open marks the row ' +
      'at once, finds no stock (the receipt has not committed) and commits (PostgreSQL)',
    edits: [
      {
        file: 'src/areas/stock/receipt-repository.ts',
        find: `        .where('code', '=', v.location)
        .where('deleted', '=', 0)
        .forShare();`,
        replace: `        .where('code', '=', v.location)
        .where('deleted', '=', 0);`,
      },
      {
        file: 'src/areas/stock/receipt-repository.ts',
        find: `        .where('article_no', '=', v.article)
        .where('deleted', '=', 0)
        .forShare();`,
        replace: `        .where('article_no', '=', v.article)
        .where('deleted', '=', 0);`,
      },
    ],
    tests: ['src/areas/stock/test/receipt-deletion-race.test.ts'],
    engines: ['postgres'],
  },
  {
    name: 'stock-receipt-statement-sets-instead-of-adds',
    what:
      "a receipt's one statement (PostgreSQL) sets on hand to its own quantity when the level exists " +
      'instead of adding to it: concurrent receipts of one level count once',
    edits: [
      {
        file: 'src/areas/stock/receipt-repository.ts',
        find: 'DO UPDATE SET on_hand = stock_level.on_hand + excluded.on_hand, scn = excluded.scn',
        replace: 'DO UPDATE SET on_hand = excluded.on_hand, scn = excluded.scn',
      },
    ],
    tests: ['src/areas/stock/test/stock-concurrency.test.ts'],
    testNames: 'concurrent receipts',
    engines: ['postgres'],
  },
  {
    name: 'client-number-from-max-plus-one',
    what:
      "a new client's one statement (PostgreSQL) numbers it as the highest number plus one instead of by the " +
      'sequence: concurrent creations take the same number and all but one fail',
    edits: [
      {
        file: 'src/areas/clients/client-repository.ts',
        find: "client_no: sql<number>`nextval('client_no_seq')`",
        replace: 'client_no: sql<number>`(SELECT coalesce(max(client_no), 100000) + 1 FROM client)`',
      },
    ],
    tests: ['src/areas/clients/test/client-concurrency.test.ts'],
    testNames: '120 concurrent new clients',
    engines: ['postgres'],
  },
  {
    name: 'location-delete-looks-before-marking',
    what:
      'a location deletion looks for stock before it marks the row: it does not wait for an open receipt, whose ' +
      'stock it cannot see yet, and the location is left holding stock (PostgreSQL)',
    edits: [
      {
        file: 'src/areas/stock/location-service.ts',
        find: '      await repo.replaceLocation({\n        ...old,\n        deleted: 1,\n        active: 0,\n        scn,\n        updated_at: this.now().toISOString(),\n      });\n      if (await repo.locationHoldsStock(code)) {\n        throw STOCK_ERRORS.LOCATION_HAS_STOCK(\n          `Location "$\u007bcode}" still holds stock; transfer or correct it to zero first.`,\n        );\n      }\n',
        replace:
          '      if (await repo.locationHoldsStock(code)) {\n        throw STOCK_ERRORS.LOCATION_HAS_STOCK(\n          `Location "$\u007bcode}" still holds stock; transfer or correct it to zero first.`,\n        );\n      }\n      await repo.replaceLocation({\n        ...old,\n        deleted: 1,\n        active: 0,\n        scn,\n        updated_at: this.now().toISOString(),\n      });\n',
      },
    ],
    tests: ['src/areas/stock/test/receipt-deletion-race.test.ts'],
    engines: ['postgres'],
  },
];
