import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ENGINE, freshDatabaseUrl } from '../../../test/helpers/test-app.ts';
import { MIGRATIONS } from '../../areas.ts';
import { sqlitePathFrom } from '../../config.ts';
import { type Database, migrate, openDatabase } from './database.ts';
import { afterWrite } from './statistics.ts';
import { inWriteTransaction, type UnitOfWork } from './unit-of-work.ts';

/**
 * How inWriteTransaction runs SQLite's writers, with group commit on and off (TV2_SQLITE_GROUP_COMMIT),
 * seen from a second connection to the file as another process would: which writers share a
 * COMMIT, and that every committed write tells the planner statistics (statistics.ts). Each test
 * opens its own database, so the unit of work's committer for it is made inside the test.
 */
describe.runIf(ENGINE === 'sqlite')('inWriteTransaction on SQLite', () => {
  async function withDatabase(
    groupCommit: boolean,
    test: (db: Database, seen: (code: string) => boolean) => Promise<void>,
  ) {
    const fresh = await freshDatabaseUrl();
    const database = openDatabase(fresh.url, { sqliteGroupCommit: groupCommit });
    const reader = { db: undefined as Sqlite.Database | undefined };
    try {
      await migrate(database, MIGRATIONS);
      reader.db = new Sqlite(sqlitePathFrom(fresh.url), { readonly: true });
      const other = reader.db;
      const seen = (code: string) =>
        (other.prepare('select count(*) as n from size_table where code = ?').get(code) as { n: number })
          .n === 1;
      await test(database, seen);
    } finally {
      reader.db?.close();
      await database.close();
      await fresh.drop();
    }
  }

  const insertSize = async (uow: UnitOfWork, code: string) => {
    const scn = await uow.stamp();
    await uow.db.insertInto('size_table').values({ code, description: '{}', deleted: 0, scn }).execute();
  };

  /** Three writers of one turn: the first runs alone; the third reports whether the second was committed when it ran. */
  async function threeWriters(database: Database, seen: (code: string) => boolean): Promise<boolean> {
    await new Promise((resolve) => setImmediate(resolve));
    const [, , secondCommitted] = await Promise.all([
      inWriteTransaction(database, (uow) => insertSize(uow, 'D-1')),
      inWriteTransaction(database, (uow) => insertSize(uow, 'D-2')),
      inWriteTransaction(database, async (uow) => {
        await insertSize(uow, 'D-3');
        return seen('D-2');
      }),
    ]);
    expect(['D-1', 'D-2', 'D-3'].map(seen)).toEqual([true, true, true]);
    return secondCommitted;
  }

  it('with group commit, writers that wait share one COMMIT: a member does not see the member before it committed', async () => {
    await withDatabase(true, async (database, seen) => {
      expect(await threeWriters(database, seen)).toBe(false);
    });
  });

  it('without group commit, every writer commits on its own before the next runs', async () => {
    await withDatabase(false, async (database, seen) => {
      expect(await threeWriters(database, seen)).toBe(true);
    });
  });

  for (const groupCommit of [true, false]) {
    it(`tells the planner statistics after a write commits (group commit ${groupCommit ? 'on' : 'off'})`, async () => {
      await withDatabase(groupCommit, async (database) => {
        const analysed = async () =>
          Number(
            (
              await database.db
                .selectFrom('sqlite_stat1' as never)
                .select((eb) => eb.fn.countAll().as('n'))
                .where('tbl' as never, '=', 'size_table' as never)
                .executeTakeFirst()
            )?.n ?? 0,
          );
        await inWriteTransaction(database, (uow) => insertSize(uow, 'S-1'));
        await new Promise((resolve) => setImmediate(resolve));
        // The write noted the time of the first check; eleven minutes later a check analyses the
        // table that got rows (a first call would only note the time).
        afterWrite(database, Date.now() + 11 * 60_000);
        for (let i = 0; i < 300 && (await analysed()) === 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(await analysed()).toBeGreaterThan(0);
      });
    });
  }
});
