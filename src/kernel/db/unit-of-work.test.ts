import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, freshDatabaseUrl } from '../../../test/helpers/test-app.ts';
import { MIGRATIONS } from '../../areas.ts';
import { type Database, migrate, openDatabase } from './database.ts';
import { currentScn, inWriteTransaction, joinedDatabase, nextScn } from './unit-of-work.ts';

let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  database = openDatabase(fresh.url);
  await migrate(database, MIGRATIONS);
});
afterAll(async () => {
  await database.close();
  await drop();
});

class Boom extends Error {}

describe('inWriteTransaction', () => {
  it('hands a transaction one SCN, the next after the last committed, the same on every call', async () => {
    const before = await currentScn(database.db);
    const seen = await inWriteTransaction(database, async (uow) => [
      await uow.scn(),
      await uow.scn(),
      await uow.scn(),
    ]);
    expect(seen).toEqual([before + 1, before + 1, before + 1]);
    expect(await currentScn(database.db)).toBe(before + 1);
    // the next transaction gets the next number
    expect(await inWriteTransaction(database, (uow) => uow.scn())).toBe(before + 2);
    expect(await currentScn(database.db)).toBe(before + 2);
  });

  it('answers what the work answers, and takes no SCN for work that asks for none', async () => {
    const before = await currentScn(database.db);
    expect(await inWriteTransaction(database, async () => 'done')).toBe('done');
    expect(await currentScn(database.db)).toBe(before);
  });

  it('rolls back on a failure: the error reaches the caller and the SCN is not spent', async () => {
    const before = await currentScn(database.db);
    const failure = new Boom('refused');
    const outcome = await inWriteTransaction(database, async (uow) => {
      await uow.scn();
      throw failure;
    }).catch((error: unknown) => error);
    expect(outcome).toBe(failure);
    expect(await currentScn(database.db)).toBe(before);
    expect(await inWriteTransaction(database, (uow) => uow.scn())).toBe(before + 1);
  });

  it('runs the work in the transaction: what it reads is its own uncommitted change', async () => {
    const before = await currentScn(database.db);
    await inWriteTransaction(database, async (uow) => {
      expect(await uow.scn()).toBe(before + 1);
      expect(await currentScn(uow.db)).toBe(before + 1);
      expect(await uow.stamp()).toBe(before + 1);
    });
  });

  it('stamps the rows with the real SCN before commit: a reader never sees another number', async () => {
    const before = await currentScn(database.db);
    const answer = await inWriteTransaction(database, async (uow) => {
      const scn = await uow.stamp();
      await uow.db
        .insertInto('size_table')
        .values({ code: 'UOW-1', description: '{}', deleted: 0, scn })
        .execute();
      await uow.db.updateTable('size_table').set({ scn }).where('code', '=', 'UOW-1').execute();
      return { scn, rows: [{ scn }], text: `scn ${scn}` };
    });
    const stored = await database.db
      .selectFrom('size_table')
      .select('scn')
      .where('code', '=', 'UOW-1')
      .executeTakeFirst();
    expect(Number(stored?.scn)).toBe(before + 1);
    // the number in the work's answer leaves the transaction as the real one
    expect(answer.scn).toBe(before + 1);
    expect(answer.rows).toEqual([{ scn: before + 1 }]);
    expect(await currentScn(database.db)).toBe(before + 1);
    const provisional = await database.db
      .selectFrom('size_table')
      .select('code')
      .where('scn', '<', 0)
      .execute();
    expect(provisional).toEqual([]);
  });
});

describe.runIf(ENGINE === 'postgres')('the SCN at the end (PostgreSQL)', () => {
  it('restamps rows stamped before the work took its SCN after all', async () => {
    const before = await currentScn(database.db);
    const scn = await inWriteTransaction(database, async (uow) => {
      const early = await uow.stamp();
      await uow.db
        .insertInto('size_table')
        .values({ code: 'MIX-1', description: '{}', deleted: 0, scn: early })
        .execute();
      const real = await uow.scn();
      expect(await uow.stamp()).toBe(real);
      return real;
    });
    expect(scn).toBe(before + 1);
    const row = await database.db
      .selectFrom('size_table')
      .select('scn')
      .where('code', '=', 'MIX-1')
      .executeTakeFirst();
    expect(Number(row?.scn)).toBe(scn);
  });

  it('lets a second writer commit while the first, which stamped rows, is still open', async () => {
    let secondDone = false;
    let releaseFirst: () => void = () => {};
    const firstMayEnd = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const first = inWriteTransaction(database, async (uow) => {
      const scn = await uow.stamp();
      await uow.db
        .insertInto('size_table')
        .values({ code: 'END-1', description: '{}', deleted: 0, scn })
        .execute();
      // Wait for the second writer, or give up after a while: with the counter locked from the first
      // scn() on (the SCN taken at the start), the second cannot commit before this one does.
      await Promise.race([firstMayEnd, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      return { scn, secondDoneFirst: secondDone };
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await inWriteTransaction(database, async (uow) => {
      const scn = await uow.stamp();
      await uow.db
        .insertInto('size_table')
        .values({ code: 'END-2', description: '{}', deleted: 0, scn })
        .execute();
      return scn;
    });
    secondDone = true;
    releaseFirst();
    const one = await first;
    expect(one.secondDoneFirst).toBe(true);
    // SCNs in commit order: the second committed first, so it has the lower number
    expect(second).toBeLessThan(one.scn);
    const rows = await database.db
      .selectFrom('size_table')
      .select(['code', 'scn'])
      .where('code', 'in', ['END-1', 'END-2'])
      .orderBy('code')
      .execute();
    expect(rows.map((r) => [r.code, Number(r.scn)])).toEqual([
      ['END-1', one.scn],
      ['END-2', second],
    ]);
  });

  it('orders a writer that took its SCN first before every writer that stamps later', async () => {
    const order: string[] = [];
    let releaseFirst: () => void = () => {};
    const firstMayEnd = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let firstHasLock: () => void = () => {};
    const locked = new Promise<void>((resolve) => {
      firstHasLock = resolve;
    });
    const first = inWriteTransaction(database, async (uow) => {
      const scn = await uow.scn();
      firstHasLock();
      await firstMayEnd;
      order.push('first');
      return scn;
    });
    await locked;
    const second = inWriteTransaction(database, async (uow) => {
      const scn = await uow.stamp();
      await uow.db
        .insertInto('size_table')
        .values({ code: 'SER-2', description: '{}', deleted: 0, scn })
        .execute();
      return scn;
    }).then((scn) => {
      order.push('second');
      return scn;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    releaseFirst();
    const [a, b] = await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    expect(b).toBe(a + 1);
  });
});

describe('joinedDatabase', () => {
  it('makes a save written as its own transaction join the open one: same SCN, one commit', async () => {
    const before = await currentScn(database.db);
    const scns = await inWriteTransaction(database, async (uow) => {
      const joined = joinedDatabase(database, uow);
      expect(joined.engine).toBe(database.engine);
      expect(joined.db).toBe(uow.db);
      const first = await inWriteTransaction(joined, (inner) => inner.scn());
      const second = await inWriteTransaction(joined, async (inner) => {
        expect(inner.db).toBe(uow.db);
        return inner.scn();
      });
      // closing the joined database leaves the transaction and its database open
      await joined.close();
      return [first, second, await uow.scn()];
    });
    expect(scns).toEqual([before + 1, before + 1, before + 1]);
    expect(await currentScn(database.db)).toBe(before + 1);
  });

  it('rolls the whole transaction back when a joined save fails', async () => {
    const before = await currentScn(database.db);
    const outcome = await inWriteTransaction(database, async (uow) => {
      await uow.scn();
      const joined = joinedDatabase(database, uow);
      await inWriteTransaction(joined, async () => {
        throw new Boom('a record of the batch is refused');
      });
    }).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(Boom);
    expect(await currentScn(database.db)).toBe(before);
  });

  it('leaves the database it was made from unjoined', async () => {
    const before = await currentScn(database.db);
    await inWriteTransaction(database, async (uow) => {
      joinedDatabase(database, uow);
      await uow.scn();
    });
    // a later transaction on the original database is a transaction of its own
    expect(await inWriteTransaction(database, (uow) => uow.scn())).toBe(before + 2);
  });
});

describe('nextScn and currentScn', () => {
  it('count the single counter row up by one and read it back', async () => {
    const before = await currentScn(database.db);
    expect(typeof before).toBe('number');
    const next = await database.db.transaction().execute((trx) => nextScn(trx));
    expect(next).toBe(before + 1);
    expect(typeof next).toBe('number');
    expect(await currentScn(database.db)).toBe(before + 1);
  });
});
