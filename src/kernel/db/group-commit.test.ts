import Sqlite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENGINE, freshDatabaseUrl } from '../../../test/helpers/test-app.ts';
import { MIGRATIONS } from '../../areas.ts';
import { loadConfig, sqlitePathFrom } from '../../config.ts';
import { type Database, databaseOptions, migrate, openDatabase } from './database.ts';
import { GroupCommitter } from './group-commit.ts';
import { currentScn, inWriteTransaction, joinedDatabase, type UnitOfWork } from './unit-of-work.ts';

// Group commit is SQLite's (PostgreSQL runs its writers side by side): these tests open the file a
// second time, as another process would, to see what is committed and what is not.
describe.runIf(ENGINE === 'sqlite')('group commit (SQLite)', () => {
  let database: Database;
  let drop: () => Promise<void>;
  /** Another connection to the same file: it sees only what is committed. */
  let reader: Sqlite.Database;
  /** The committer under test and the number of COMMITs it made. */
  let committer: GroupCommitter;
  let commits = 0;

  beforeAll(async () => {
    const fresh = await freshDatabaseUrl();
    drop = fresh.drop;
    database = openDatabase(fresh.url);
    await migrate(database, MIGRATIONS);
    // a foreign key checked at COMMIT: a way to make a batch's COMMIT fail
    await sql`create table gc_parent (id integer primary key)`.execute(database.db);
    await sql`create table gc_child (id integer primary key, parent integer references gc_parent (id) deferrable initially deferred)`.execute(
      database.db,
    );
    reader = new Sqlite(sqlitePathFrom(fresh.url), { readonly: true });
    committer = new GroupCommitter(database.db, () => commits++);
  });
  afterAll(async () => {
    reader.close();
    await database.close();
    await drop();
  });
  // Each test starts on a turn of its own, so its first writer finds the turn free and runs alone at
  // once, and the writers it sends right after wait for the turn's end and run as one batch.
  beforeEach(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    commits = 0;
  });

  class Boom extends Error {}

  const insertSize = async (uow: UnitOfWork, code: string) => {
    const scn = await uow.stamp();
    await uow.db.insertInto('size_table').values({ code, description: '{}', deleted: 0, scn }).execute();
    return scn;
  };
  const committed = (code: string) =>
    reader.prepare('select count(*) as n from size_table where code = ?').get(code) as { n: number };
  const seen = (code: string) => committed(code).n === 1;
  const counter = () =>
    (reader.prepare('select value from scn_counter where id = 1').get() as { value: number }).value;
  const settle = (promises: Array<Promise<unknown>>) => Promise.allSettled(promises);

  it('rolls a member that throws back alone: the others are kept and answered, it gets its error', async () => {
    const failure = new Boom('this order is refused');
    const lone = committer.run((uow) => insertSize(uow, 'GC1-LONE'));
    const batch = [
      committer.run(async (uow) => {
        await insertSize(uow, 'GC1-A');
        return 'a';
      }),
      committer.run(async (uow) => {
        await insertSize(uow, 'GC1-B');
        throw failure;
      }),
      committer.run(async (uow) => {
        await insertSize(uow, 'GC1-C');
        // one transaction with A: its row is here, uncommitted, invisible to another connection
        const a = await uow.db.selectFrom('size_table').select('code').where('code', '=', 'GC1-A').execute();
        return { a: a.length, committed: seen('GC1-A') };
      }),
    ];
    const [a, b, c] = await settle(batch);
    await lone;
    expect(commits).toBe(2); // the lone writer's COMMIT, and one for the batch of three
    expect(a).toEqual({ status: 'fulfilled', value: 'a' });
    expect(b).toEqual({ status: 'rejected', reason: failure });
    expect(c).toEqual({ status: 'fulfilled', value: { a: 1, committed: false } });
    expect([seen('GC1-A'), seen('GC1-B'), seen('GC1-C')]).toEqual([true, false, true]);
  });

  it('answers a member only after the COMMIT: what it wrote is visible to another connection then', async () => {
    const visibleWhenAnswered: boolean[] = [];
    const codes = ['GC2-LONE', 'GC2-A', 'GC2-B', 'GC2-C'];
    await Promise.all(
      codes.map((code) =>
        committer
          .run((uow) => insertSize(uow, code))
          .then(() => {
            visibleWhenAnswered.push(seen(code));
          }),
      ),
    );
    expect(commits).toBe(2);
    expect(visibleWhenAnswered).toEqual([true, true, true, true]);
  });

  it('fails every member when the COMMIT fails, and keeps nothing of the batch', async () => {
    await committer.run(async () => 'lone');
    const batch = settle([
      committer.run((uow) => insertSize(uow, 'GC3-A')),
      committer.run(async (uow) => {
        // no parent 999: the deferred key fails the COMMIT, not this statement
        await sql`insert into gc_child (id, parent) values (1, 999)`.execute(uow.db);
        return 'child';
      }),
      committer.run((uow) => insertSize(uow, 'GC3-C')),
    ]);
    const outcomes = await batch;
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const reasons = outcomes.map((o) => (o as PromiseRejectedResult).reason as Error);
    expect(reasons[0]?.message).toMatch(/FOREIGN KEY/);
    expect(new Set(reasons).size).toBe(1); // the same error, the COMMIT's, to each
    expect([seen('GC3-A'), seen('GC3-C')]).toEqual([false, false]);
    expect(reader.prepare('select count(*) as n from gc_child').get()).toEqual({ n: 0 });
    // the connection is usable again: the failed batch was rolled back
    await committer.run((uow) => insertSize(uow, 'GC3-AFTER'));
    expect(seen('GC3-AFTER')).toBe(true);
  });

  it('fails the whole batch when a member’s failure cannot be undone by its savepoint', async () => {
    await committer.run(async () => 'lone');
    const outcomes = await settle([
      committer.run((uow) => insertSize(uow, 'GC5-A')),
      committer.run(async (uow) => {
        await insertSize(uow, 'GC5-B');
        await sql`rollback`.execute(uow.db); // as SQLite does after a full disk: the transaction is gone
        throw new Boom('after the transaction ended');
      }),
      committer.run((uow) => insertSize(uow, 'GC5-C')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect([seen('GC5-A'), seen('GC5-B'), seen('GC5-C')]).toEqual([false, false, false]);
    await committer.run((uow) => insertSize(uow, 'GC5-AFTER'));
    expect(seen('GC5-AFTER')).toBe(true);
  });

  it('hands out SCNs strictly increasing in commit order, with no gap any reader can see', async () => {
    const before = counter();
    const answered: number[] = [];
    const duringBatch: Array<{ counter: number; rows: number }> = [];
    const rowsAbove = (scn: number) =>
      (reader.prepare('select count(*) as n from size_table where scn > ?').get(scn) as { n: number }).n;
    const member = (i: number) =>
      committer
        .run(async (uow) => {
          const scn = await insertSize(uow, `GC4-${i}`);
          expect(await uow.scn()).toBe(scn); // one number per member, on every call
          duringBatch.push({ counter: counter(), rows: rowsAbove(before) });
          if (i === 1 || i === 4) throw new Boom(`member ${i} refused`);
          return scn;
        })
        .then((scn) => {
          answered.push(scn);
          // when a member is answered, every SCN up to the counter is committed: no gap
          const now = counter();
          expect(now).toBeGreaterThanOrEqual(scn);
          expect(rowsAbove(before)).toBe(now - before);
        });
    const outcomes = await settle([0, 1, 2, 3, 4, 5, 6, 7].map(member));
    expect(commits).toBe(2);
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(2); // members 1 and 4
    // consecutive and in commit order: the refused members' numbers went to the next ones
    expect(answered).toEqual([1, 2, 3, 4, 5, 6].map((k) => before + k));
    expect(counter()).toBe(before + 6);
    // inside the batch another connection saw only the lone writer's commit, never a part of the batch
    expect(duringBatch.slice(1)).toEqual(Array(7).fill({ counter: before + 1, rows: 1 }));
  });

  it('runs a lone writer at once, and batches the writers that come in the same turn after it', async () => {
    let turnEnded = false;
    setImmediate(() => {
      turnEnded = true;
    });
    await committer.run((uow) => insertSize(uow, 'GC8-LONE'));
    expect(turnEnded).toBe(false); // committed and answered without waiting for the turn's end
    await new Promise((resolve) => setImmediate(resolve));
    commits = 0;
    // three requests of one turn, each in a callback of its own (as the server's sockets are): the
    // first runs alone and ends before the next callback, the two after it wait and share a COMMIT
    const writers = await new Promise<Array<Promise<number>>>((resolve) => {
      const started: Array<Promise<number>> = [];
      for (const code of ['GC8-A', 'GC8-B', 'GC8-C']) {
        setImmediate(() => {
          started.push(committer.run((uow) => insertSize(uow, code)));
          if (started.length === 3) resolve(started);
        });
      }
    });
    await Promise.all(writers);
    expect(commits).toBe(2);
  });

  it('runs at most maxMembers writers in one batch; the rest make the next ones', async () => {
    let small = 0;
    const bounded = new GroupCommitter(database.db, () => small++, 2);
    const scns = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) => bounded.run((uow) => insertSize(uow, `GC6-${i}`))),
    );
    expect(small).toBe(4); // alone, then 2 + 2 + 1
    expect(scns).toEqual([...scns].sort((x, y) => x - y));
  });

  it('is what inWriteTransaction uses by default on SQLite; joinedDatabase joins a member', async () => {
    expect(database.sqliteGroupCommit).toBe(true);
    const before = counter();
    const [lone, member] = await Promise.all([
      inWriteTransaction(database, (uow) => insertSize(uow, 'GC7-LONE')),
      inWriteTransaction(database, async (uow) => {
        const scn = await insertSize(uow, 'GC7-A');
        const joined = joinedDatabase(database, uow);
        const inner = await inWriteTransaction(joined, (same) => insertSize(same, 'GC7-B'));
        expect(seen('GC7-LONE')).toBe(true); // the lone writer committed before this batch began
        return [scn, inner];
      }),
    ]);
    expect(lone).toBe(before + 1);
    expect(member).toEqual([before + 2, before + 2]);
    expect(await currentScn(database.db)).toBe(before + 2);
  });

  it('is off with TV2_SQLITE_GROUP_COMMIT=0: every writer commits on its own', async () => {
    expect(databaseOptions(loadConfig({})).sqliteGroupCommit).toBe(true);
    const options = databaseOptions(loadConfig({ TV2_SQLITE_GROUP_COMMIT: '0' }));
    expect(options.sqliteGroupCommit).toBe(false);
    const fresh = await freshDatabaseUrl();
    const off = openDatabase(fresh.url, options);
    try {
      await migrate(off, MIGRATIONS);
      expect(off.sqliteGroupCommit).toBe(false);
      const other = new Sqlite(sqlitePathFrom(fresh.url), { readonly: true });
      try {
        const visible = (code: string) =>
          (other.prepare('select count(*) as n from size_table where code = ?').get(code) as { n: number }).n;
        // the second writer runs after the first committed: it sees the first's row from outside
        const [, second] = await Promise.all([
          inWriteTransaction(off, (uow) => insertSize(uow, 'GC9-A')),
          inWriteTransaction(off, async (uow) => {
            await insertSize(uow, 'GC9-B');
            return visible('GC9-A');
          }),
        ]);
        expect(second).toBe(1);
      } finally {
        other.close();
      }
    } finally {
      await off.close();
      await fresh.drop();
    }
  });
});
