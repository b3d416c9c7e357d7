import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../areas.ts';
import { type Database, migrate, openDatabase } from './db/database.ts';
import { inWriteTransaction } from './db/unit-of-work.ts';
import { FeedSchema, feedAnswer, feedOf, feedPage, splitPage } from './feed-page.ts';

let database: Database;

beforeAll(async () => {
  database = openDatabase('sqlite::memory:');
  await migrate(database, MIGRATIONS);
});
afterAll(() => database.close());

interface Row {
  key: string;
  deleted: number;
  pos: number;
}
// positions are not counts: they have gaps
const rows: Row[] = [
  { key: 'A', deleted: 0, pos: 4 },
  { key: 'B', deleted: 1, pos: 7 },
  { key: 'C', deleted: 0, pos: 12 },
];
const spec = {
  position: (r: Row) => r.pos,
  live: (r: Row) => r.deleted === 0,
  items: (live: Row[]) => live.map((r) => ({ KEY: r.key })),
  deletedKey: (r: Row) => r.key,
};

describe('splitPage', () => {
  it('keeps the page and names the next offset when the extra row came back', () => {
    expect(splitPage([1, 2, 3], { offset: 1, limit: 2 })).toEqual({ rows: [1, 2], nextOffset: 3 });
    expect(splitPage([1, 2], { offset: 5, limit: 2 })).toEqual({ rows: [1, 2], nextOffset: null });
  });

  it('names the position of the first record not shown when rows have positions', () => {
    expect(splitPage(rows, { offset: 1, limit: 2 }, (r) => r.pos)).toEqual({
      rows: rows.slice(0, 2),
      nextOffset: 12,
    });
  });
});

describe('feedOf', () => {
  it('splits live rows from tombstones, reported only in a feed', async () => {
    expect(await feedOf(7, { sinceScn: 3, offset: 1, limit: 5 }, rows, spec)).toEqual({
      scn: 7,
      nextOffset: null,
      items: [{ KEY: 'A' }, { KEY: 'C' }],
      deleted: ['B'],
    });
    expect((await feedOf(7, { sinceScn: 0, offset: 1, limit: 5 }, rows, spec)).deleted).toEqual([]);
  });

  it('reports under DELETED only the tombstones it is told of, when told', async () => {
    const hidden = { ...spec, live: (r: Row) => r.key === 'A', tombstone: (r: Row) => r.deleted === 1 };
    const page = await feedOf(7, { sinceScn: 3, offset: 1, limit: 5 }, rows, hidden);
    expect(page).toEqual({ scn: 7, nextOffset: null, items: [{ KEY: 'A' }], deleted: ['B'] });
  });

  it('counts tombstones in the page size: the extra row only tells that more follow, by its position', async () => {
    const page = await feedOf(7, { sinceScn: 3, offset: 4, limit: 2 }, rows, spec);
    expect(page).toEqual({ scn: 7, nextOffset: 12, items: [{ KEY: 'A' }], deleted: ['B'] });
  });
});

describe('feedPage', () => {
  it('reads the SCN before the rows and asks for one row more from the position stroffset names', async () => {
    await inWriteTransaction(database, (uow) => uow.scn());
    const calls: unknown[] = [];
    const page = await feedPage(
      database.db,
      { sinceScn: 0, offset: 3, limit: 2 },
      {
        ...spec,
        async rows(sinceScn, offset, limit) {
          calls.push([sinceScn, offset, limit]);
          // a write committed after the SCN was read is not in this page's SCN
          await inWriteTransaction(database, (uow) => uow.scn());
          return rows;
        },
      },
    );
    expect(calls).toEqual([[0, 3, 3]]);
    expect(page.scn).toBe(1);
    expect(page.nextOffset).toBe(12);
  });
});

describe('feedAnswer and FeedSchema', () => {
  it('answer in the order head, SCN, NEXTOFFSET, list, DELETED', () => {
    const answer = feedAnswer(
      'ROOT',
      'ITEMS',
      { scn: 4, nextOffset: null, items: [1], deleted: [2] },
      { X: 9 },
    );
    expect(JSON.stringify(answer)).toBe(
      '{"ROOT":{"X":9,"SCN":4,"NEXTOFFSET":null,"ITEMS":[1],"DELETED":[2]}}',
    );
    const schema = FeedSchema('ITEMS', Type.Integer(), Type.String(), {
      head: { X: Type.Integer() },
      deleted: { description: 'Gone.' },
    });
    expect(Object.keys(schema.properties)).toEqual(['X', 'SCN', 'NEXTOFFSET', 'ITEMS', 'DELETED']);
    expect(schema.properties.DELETED).toEqual(Type.Array(Type.String(), { description: 'Gone.' }));
    expect(FeedSchema('ITEMS', Type.Integer(), Type.String()).properties.DELETED).toEqual(
      Type.Array(Type.String()),
    );
  });
});
