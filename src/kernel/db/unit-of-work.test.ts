import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../../test/helpers/test-app.ts';
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
      expect(await uow.scn()).toBe(before + 1);
      throw failure;
    }).catch((error: unknown) => error);
    expect(outcome).toBe(failure);
    expect(await currentScn(database.db)).toBe(before);
    expect(await inWriteTransaction(database, (uow) => uow.scn())).toBe(before + 1);
  });

  it('runs the work in the transaction: what it reads is its own uncommitted change', async () => {
    const before = await currentScn(database.db);
    await inWriteTransaction(database, async (uow) => {
      await uow.scn();
      expect(await currentScn(uow.db)).toBe(before + 1);
    });
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
