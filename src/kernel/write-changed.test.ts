import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectScnStep } from '../../test/helpers/scn.ts';
import { freshDatabaseUrl } from '../../test/helpers/test-app.ts';
import { MIGRATIONS } from '../areas.ts';
import { type Database, migrate, openDatabase } from './db/database.ts';
import { currentScn, inWriteTransaction } from './db/unit-of-work.ts';
import { changedRows, sameRow, type WantedRow, writeChanged } from './write-changed.ts';

interface Row {
  k: string;
  v: string | null;
  scn: number;
}

/** A unit of work that counts how often the number to stamp with is asked for. */
function countingUow(scn = 7) {
  const uow = {
    asked: 0,
    stamp: async () => {
      uow.asked++;
      return scn;
    },
  };
  return uow;
}

describe('sameRow', () => {
  it('compares the columns of the wanted row, not the bookkeeping ones', () => {
    const stored = { k: 'A', v: 'x', scn: 5, created_at: 'c', updated_at: 'u', extra: 1 };
    expect(sameRow({ k: 'A', v: 'x', scn: 0, created_at: '', updated_at: '' }, stored)).toBe(true);
    expect(sameRow({ k: 'A', v: 'y', scn: 5 }, stored)).toBe(false);
    expect(sameRow({ k: 'A', v: 'x', scn: 0 }, stored, [])).toBe(false);
    expect(sameRow({ k: 'A', v: 'y' }, stored, ['v'])).toBe(true);
  });

  it('takes undefined and null for the same, and nothing else', () => {
    expect(sameRow({ v: undefined }, { v: null })).toBe(true);
    expect(sameRow({ v: null }, {})).toBe(true);
    expect(sameRow({ v: 0 }, { v: null })).toBe(false);
    expect(sameRow({ v: '' }, { v: null })).toBe(false);
    expect(sameRow({ v: 1 }, { v: '1' })).toBe(false);
  });
});

describe('changedRows', () => {
  const rows: WantedRow<{ k: string; v: string; scn: number }>[] = [
    { wanted: { k: 'A', v: 'x', scn: 0 }, stored: { k: 'A', v: 'x', scn: 3 } },
    { wanted: { k: 'B', v: 'y', scn: 0 }, stored: undefined },
    { wanted: { k: 'C', v: 'new', scn: 0 }, stored: { k: 'C', v: 'old', scn: 3 } },
  ];

  it('keeps the rows that are new or differ, in their order', () => {
    expect(changedRows(rows).map((r) => r.wanted.k)).toEqual(['B', 'C']);
  });

  it('takes a comparison of its own, also asked when nothing is stored', () => {
    const same = (w: { v: string }, s: { v: string } | undefined) => (s?.v ?? 'y') === w.v;
    expect(changedRows(rows, { same }).map((r) => r.wanted.k)).toEqual(['C']);
  });
});

describe('writeChanged', () => {
  it('writes nothing and takes no SCN when every row is as stored', async () => {
    const uow = countingUow();
    const writes: unknown[] = [];
    const rows = [{ wanted: { k: 'A', v: 'x' }, stored: { k: 'A', v: 'x' } }];
    const result = await writeChanged(uow, rows, { write: async (changed) => void writes.push(changed) });
    expect(result).toEqual({ written: 0, unchanged: 1 });
    expect(uow.asked).toBe(0);
    expect(writes).toEqual([]);
    expect(await writeChanged(uow, [], { write: async () => void writes.push('x') })).toEqual({
      written: 0,
      unchanged: 0,
    });
    expect(writes).toEqual([]);
  });

  it('writes the changed rows once, with the SCN', async () => {
    const uow = countingUow(42);
    const writes: Array<[string[], number]> = [];
    const rows = [
      { wanted: { k: 'A', v: 'x' }, stored: { k: 'A', v: 'x' } },
      { wanted: { k: 'B', v: 'y' }, stored: undefined },
      { wanted: { k: 'C', v: 'z' }, stored: { k: 'C', v: 'old' } },
    ];
    const result = await writeChanged(uow, rows, {
      write: async (changed, scn) => void writes.push([changed.map((c) => c.wanted.k), scn]),
    });
    expect(result).toEqual({ written: 2, unchanged: 1 });
    expect(writes).toEqual([[['B', 'C'], 42]]);
  });
});

describe('writeChanged in a write transaction', () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await freshDatabaseUrl();
    drop = fresh.drop;
    database = openDatabase(fresh.url);
    await sql`create table write_changed_probe (k varchar(10) primary key, v varchar(10), scn bigint not null)`.execute(
      database.db,
    );
    // After the table, as for every table with an scn column: the migration step knows it then.
    await migrate(database, MIGRATIONS);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  async function stored(): Promise<Row[]> {
    const { rows } = await sql<Row>`select k, v, scn from write_changed_probe order by k`.execute(
      database.db,
    );
    return rows.map((r) => ({ ...r, scn: Number(r.scn) }));
  }

  /** The probe's save: reads the stored rows of the given keys, writes what changed. */
  function save(wanted: Array<{ k: string; v: string | null }>) {
    return inWriteTransaction(database, async (uow) => {
      const keys = wanted.map((w) => w.k);
      const { rows } =
        await sql<Row>`select k, v, scn from write_changed_probe where k in (${sql.join(keys)})`.execute(
          uow.db,
        );
      const byKey = new Map(rows.map((r) => [r.k, r]));
      return writeChanged(
        uow,
        wanted.map((w) => ({ wanted: { ...w, scn: 0 }, stored: byKey.get(w.k) })),
        {
          write: async (changed, scn) => {
            for (const { wanted: w } of changed) {
              await sql`delete from write_changed_probe where k = ${w.k}`.execute(uow.db);
              await sql`insert into write_changed_probe (k, v, scn) values (${w.k}, ${w.v}, ${scn})`.execute(
                uow.db,
              );
            }
          },
        },
      );
    });
  }

  it('moves the SCN once for a changed save and not at all for an unchanged one', async () => {
    const s0 = await currentScn(database.db);
    expect(
      await save([
        { k: 'A', v: 'x' },
        { k: 'B', v: null },
      ]),
    ).toEqual({ written: 2, unchanged: 0 });
    const s1 = await currentScn(database.db);
    expectScnStep(s0, s1, 1);
    expect(await stored()).toEqual([
      { k: 'A', v: 'x', scn: s1 },
      { k: 'B', v: null, scn: s1 },
    ]);

    expect(
      await save([
        { k: 'A', v: 'x' },
        { k: 'B', v: null },
      ]),
    ).toEqual({ written: 0, unchanged: 2 });
    expectScnStep(s1, await currentScn(database.db), 0);

    expect(
      await save([
        { k: 'A', v: 'x' },
        { k: 'B', v: 'y' },
      ]),
    ).toEqual({ written: 1, unchanged: 1 });
    const s2 = await currentScn(database.db);
    expectScnStep(s1, s2, 1);
    expect(await stored()).toEqual([
      { k: 'A', v: 'x', scn: s1 },
      { k: 'B', v: 'y', scn: s2 },
    ]);
  });
});
