import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ENGINE, freshDatabaseUrl, withMigratedDatabase } from '../../../test/helpers/test-app.ts';
import { type Database, openDatabase } from './database.ts';
import { installScnHorizon } from './scn-horizon.ts';
import { changeToken, currentScn, inWriteTransaction, joinedDatabase, nextScn } from './unit-of-work.ts';

let database: Database;
withMigratedDatabase((d) => {
  database = d;
});

class Boom extends Error {}

const sqlite = ENGINE === 'sqlite';
const gate = () => {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
};
const sizeRow = (code: string, scn: number) => ({ code, description: '{}', deleted: 0, scn });
const scnOfRow = async (code: string) =>
  Number(
    (await database.db.selectFrom('size_table').select('scn').where('code', '=', code).executeTakeFirst())
      ?.scn,
  );

describe('inWriteTransaction', () => {
  it('hands a transaction one SCN, above every SCN a reader took before, the same on every call', async () => {
    const before = await currentScn(database.db);
    const seen = await inWriteTransaction(database, async (uow) => [
      await uow.scn(),
      await uow.stamp(),
      await uow.scn(),
    ]);
    const [scn] = seen as [number];
    expect(seen).toEqual([scn, scn, scn]);
    expect(scn).toBeGreaterThan(before);
    if (sqlite) expect(scn).toBe(before + 1); // the counter counts commits
    // once it committed, a reader's SCN covers it
    expect(await currentScn(database.db)).toBeGreaterThanOrEqual(scn);
    // the next transaction gets a higher number
    expect(await inWriteTransaction(database, (uow) => uow.stamp())).toBeGreaterThan(scn);
  });

  it('answers what the work answers, and takes no SCN for work that asks for none', async () => {
    const before = await currentScn(database.db);
    expect(await inWriteTransaction(database, async () => 'done')).toBe('done');
    if (sqlite) expect(await currentScn(database.db)).toBe(before);
  });

  it('rolls back on a failure: the error reaches the caller and nothing it wrote stays', async () => {
    const before = await currentScn(database.db);
    const failure = new Boom('refused');
    const outcome = await inWriteTransaction(database, async (uow) => {
      await uow.db
        .insertInto('size_table')
        .values(sizeRow('BOOM-1', await uow.scn()))
        .execute();
      throw failure;
    }).catch((error: unknown) => error);
    expect(outcome).toBe(failure);
    expect(Number.isNaN(await scnOfRow('BOOM-1'))).toBe(true);
    const next = await inWriteTransaction(database, (uow) => uow.scn());
    if (sqlite) expect(next).toBe(before + 1); // the SCN was not spent
    expect(next).toBeGreaterThan(before);
  });

  it('runs the work in the transaction: what it reads is its own uncommitted change', async () => {
    await inWriteTransaction(database, async (uow) => {
      const scn = await uow.stamp();
      await uow.db.insertInto('size_table').values(sizeRow('MIX-1', scn)).execute();
      const own = await uow.db
        .selectFrom('size_table')
        .select('scn')
        .where('code', '=', 'MIX-1')
        .executeTakeFirst();
      expect(Number(own?.scn)).toBe(scn);
    });
    expect(await scnOfRow('MIX-1')).toBeGreaterThan(0);
  });
});

describe.runIf(ENGINE === 'postgres')('the SCN of a transaction and the horizon (PostgreSQL)', () => {
  it('lets a second writer commit while the first is open, and keeps readers below the first', async () => {
    const release = gate();
    const stamped = gate();
    let firstScn = 0;
    const first = inWriteTransaction(database, async (uow) => {
      const scn = await uow.stamp();
      firstScn = scn;
      await uow.db.insertInto('size_table').values(sizeRow('END-1', scn)).execute();
      stamped.open();
      await release.opened;
      return scn;
    });
    await stamped.opened;
    // a later writer (a higher number) commits first: no lock orders it behind the open one
    const second = await inWriteTransaction(database, async (uow) => {
      const scn = await uow.stamp();
      await uow.db.insertInto('size_table').values(sizeRow('END-2', scn)).execute();
      return scn;
    });
    expect(second).toBeGreaterThan(firstScn);
    // the reader's SCN stays below the open transaction: a cursor taken now cannot pass its rows
    expect(await currentScn(database.db)).toBeLessThan(firstScn);
    release.open();
    const one = await first;
    expect(await currentScn(database.db)).toBeGreaterThanOrEqual(Math.max(one, second));
    expect(await scnOfRow('END-1')).toBe(one);
    expect(await scnOfRow('END-2')).toBe(second);
  });

  it('orders writers that take scn() one after the other; stamping writers do not wait for them', async () => {
    const order: string[] = [];
    const release = gate();
    const locked = gate();
    const first = inWriteTransaction(database, async (uow) => {
      const scn = await uow.scn();
      locked.open();
      await release.opened;
      order.push('first');
      return scn;
    });
    await locked.opened;
    const ordered = inWriteTransaction(database, (uow) => uow.scn()).then((scn) => {
      order.push('ordered');
      return scn;
    });
    // a stamping writer commits while the first still holds the order
    const stamping = await inWriteTransaction(database, async (uow) => {
      const scn = await uow.stamp();
      await uow.db.insertInto('size_table').values(sizeRow('SER-2', scn)).execute();
      return scn;
    });
    order.push('stamping');
    release.open();
    const [a, b] = await Promise.all([first, ordered]);
    expect(order).toEqual(['stamping', 'first', 'ordered']);
    expect(b).toBeGreaterThan(a);
    expect(stamping).toBeGreaterThan(a);
  });

  it('is not held back by a transaction running in another database of the same server', async () => {
    const other = await freshDatabaseUrl();
    const elsewhere = openDatabase(other.url);
    try {
      const release = gate();
      const started = gate();
      const foreign = elsewhere.db.transaction().execute(async (trx) => {
        await sql`SELECT pg_current_xact_id()`.execute(trx);
        started.open();
        await release.opened;
      });
      await started.opened;
      const scn = await inWriteTransaction(database, (uow) => uow.stamp());
      expect(await currentScn(database.db)).toBeGreaterThanOrEqual(scn);
      release.open();
      await foreign;
    } finally {
      await elsewhere.close();
      await other.drop();
    }
  });

  it('changes the change token when a write commits, even while the horizon stands still', async () => {
    const release = gate();
    const stamped = gate();
    const first = inWriteTransaction(database, async (uow) => {
      await uow.stamp();
      stamped.open();
      await release.opened;
    });
    await stamped.opened;
    const horizon = await currentScn(database.db);
    const token = await changeToken(database.db);
    await inWriteTransaction(database, (uow) => uow.stamp());
    expect(await currentScn(database.db)).toBe(horizon);
    expect(await changeToken(database.db)).not.toBe(token);
    release.open();
    await first;
  });

  it('keeps the base on the same server and raises it above every stored SCN on another', async () => {
    const before = await inWriteTransaction(database, (uow) => uow.stamp());
    const base = async () =>
      Number(
        (await database.db.selectFrom('scn_counter').select('value').where('id', '=', 1).executeTakeFirst())
          ?.value,
      );
    const kept = await base();
    await installScnHorizon(database.db);
    expect(await base()).toBe(kept);
    // a database restored on another server: its transaction ids may be far below the stored SCNs
    const far = before + 1_000_000_000;
    await database.db.insertInto('size_table').values(sizeRow('FAR-1', far)).execute();
    await database.db.updateTable('scn_counter').set({ value: 12345 }).where('id', '=', 2).execute();
    await installScnHorizon(database.db);
    expect(await base()).toBeGreaterThan(kept);
    const next = await inWriteTransaction(database, (uow) => uow.stamp());
    expect(next).toBeGreaterThan(far);
    expect(await currentScn(database.db)).toBeGreaterThanOrEqual(next);
  });
});

describe.runIf(ENGINE === 'sqlite')('the SCN counter (SQLite)', () => {
  it('orders a writer that took its SCN before every later writer, SCNs in commit order', async () => {
    const order: string[] = [];
    const release = gate();
    const locked = gate();
    const first = inWriteTransaction(database, async (uow) => {
      const scn = await uow.scn();
      locked.open();
      await release.opened;
      order.push('first');
      return scn;
    });
    await locked.opened;
    const second = inWriteTransaction(database, async (uow) => {
      const scn = await uow.stamp();
      await uow.db.insertInto('size_table').values(sizeRow('SER-3', scn)).execute();
      return scn;
    }).then((scn) => {
      order.push('second');
      return scn;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    release.open();
    const [a, b] = await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    expect(b).toBe(a + 1);
  });

  it('nextScn counts the single counter row up by one and currentScn reads it back', async () => {
    const before = await currentScn(database.db);
    const next = await database.db.transaction().execute((trx) => nextScn(trx));
    expect(next).toBe(before + 1);
    expect(await currentScn(database.db)).toBe(before + 1);
    expect(await changeToken(database.db)).toBe(String(before + 1));
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
    const [scn] = scns as [number];
    expect(scns).toEqual([scn, scn, scn]);
    expect(scn).toBeGreaterThan(before);
    expect(await currentScn(database.db)).toBeGreaterThanOrEqual(scn);
  });

  it('rolls the whole transaction back when a joined save fails', async () => {
    const outcome = await inWriteTransaction(database, async (uow) => {
      await uow.db
        .insertInto('size_table')
        .values(sizeRow('JOIN-1', await uow.scn()))
        .execute();
      const joined = joinedDatabase(database, uow);
      await inWriteTransaction(joined, async () => {
        throw new Boom('a record of the batch is refused');
      });
    }).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(Boom);
    expect(Number.isNaN(await scnOfRow('JOIN-1'))).toBe(true);
  });

  it('leaves the database it was made from unjoined', async () => {
    let inside = 0;
    await inWriteTransaction(database, async (uow) => {
      joinedDatabase(database, uow);
      inside = await uow.scn();
    });
    // a later transaction on the original database is a transaction of its own
    expect(await inWriteTransaction(database, (uow) => uow.scn())).toBeGreaterThan(inside);
  });
});
