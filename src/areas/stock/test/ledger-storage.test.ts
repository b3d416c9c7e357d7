import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { stockContext } from './stock-context.ts';

/**
 * The ledger is written at its end only (docs/stock.md, "Storage"; decision 44): a movement adds an
 * entry to the table and to the SCN index, both at their end, and none in the middle of an index by
 * level, whose pages a web order of five sizes would change five of. A level's newest movements
 * are still read newest first, by a scan from the newest movement back.
 */
const ctx = stockContext();

/** The columns of each index of stock_movement besides its key, as the engine lists them. */
async function ledgerIndexes(): Promise<string[][]> {
  const db = ctx.t.database.db;
  const { rows } =
    ENGINE === 'sqlite'
      ? await sql<{ name: string; col: string }>`
          SELECT il.name AS name, ii.name AS col
            FROM pragma_index_list('stock_movement') il, pragma_index_info(il.name) ii
           WHERE il.origin = 'c'
           ORDER BY il.name, ii.seqno`.execute(db)
      : await sql<{ name: string; col: string }>`
          SELECT i.relname AS name, a.attname AS col
            FROM pg_index x
            JOIN pg_class i ON i.oid = x.indexrelid
            JOIN pg_class t ON t.oid = x.indrelid
            JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, n) ON true
            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
           WHERE t.relname = 'stock_movement' AND NOT x.indisprimary
           ORDER BY i.relname, k.n`.execute(db);
  const byIndex = new Map<string, string[]>();
  for (const r of rows) byIndex.set(r.name, [...(byIndex.get(r.name) ?? []), r.col]);
  return [...byIndex.values()];
}

describe('the ledger’s storage', () => {
  it('indexes the movements by their SCN only: nothing by level, written in the middle', async () => {
    expect(await ledgerIndexes()).toEqual([['scn']]);
  });

  it('reads a level’s newest movements first, among other levels’ movements, up to the limit', async () => {
    const ledger = ctx.t.services.stock.ledger;
    const key = { articleNo: 'A300-010', sizex: 'M', locationCode: 'AMS' };
    const other = { ...key, sizex: 'L' };
    for (let i = 1; i <= 6; i++) {
      await ledger.receive({ ...key, quantity: i, reference: `R${i}` });
      await ledger.receive({ ...other, quantity: 10 + i, reference: `O${i}` });
    }
    const newest = await ledger.movements(key, 4);
    expect(newest.map((m) => [m.reference, m.on_hand_delta])).toEqual([
      ['R6', 6],
      ['R5', 5],
      ['R4', 4],
      ['R3', 3],
    ]);
    expect(newest.every((m, i) => i === 0 || m.id < (newest[i - 1]?.id ?? 0))).toBe(true);
    expect((await ledger.movements(other, 100)).map((m) => m.reference)).toEqual([
      'O6',
      'O5',
      'O4',
      'O3',
      'O2',
      'O1',
    ]);
  });
});
