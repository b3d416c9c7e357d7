import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { article } from '../../../../test/helpers/fixtures.ts';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { stockContext } from './stock-context.ts';

// A receipt stamps and takes its SCN at the end (decision 27): its increment needs no order among
// writers, but an article or location deleted while it runs would be left holding stock. Both
// deletions take the SCN first and refuse while stock is there; the receipt looks again once it
// holds the counter. On PostgreSQL the two overlap on separate connections (on SQLite BEGIN
// IMMEDIATE serialises whole transactions, so they cannot).

const ctx = stockContext();

/** Holds a lock on one level row from another connection until `release` is called. */
async function holdLevel(articleNo: string, sizex: string, locationCode: string) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked: () => void = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const done = ctx.t.database.db.transaction().execute(async (trx) => {
    await sql`SELECT on_hand FROM stock_level WHERE article_no = ${articleNo} AND sizex = ${sizex} AND location_code = ${locationCode} FOR UPDATE`.execute(
      trx,
    );
    locked();
    await released;
  });
  await isLocked;
  return { release, done };
}

describe.runIf(ENGINE === 'postgres')(
  'a receipt against a deletion on other connections (PostgreSQL)',
  () => {
    it('refuses the receipt of an article deleted after the receipt checked it: no stock on a deleted article', async () => {
      const stock = ctx.t.services.stock;
      await ctx.t.services.catalog.saveArticles([article('RACE-1')]);
      // a level that exists and is empty: the deletion finds no stock
      const line = { articleNo: 'RACE-1', sizex: 'S', locationCode: 'WH', quantity: 2 };
      await stock.ledger.receive(line);
      await stock.ledger.reserve(line);
      await stock.ledger.ship(line);

      // the receipt checks the article, then waits on the level row held by another connection ...
      const held = await holdLevel('RACE-1', 'S', 'WH');
      const receipt = stock.ledger.receive({ ...line, quantity: 5 }).then(
        (level) => ({ ok: true as const, level }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      // wait until the receipt waits on that row (it has checked the article by then)
      for (let i = 0; i < 400; i++) {
        const { rows } = await sql<{
          n: string;
        }>`SELECT count(*) AS n FROM pg_locks WHERE NOT granted`.execute(ctx.t.database.db);
        if (Number(rows[0]?.n) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // ... while the article is deleted and committed: the receipt's stock is not visible yet
      await ctx.t.services.catalog.deleteArticle('RACE-1');
      held.release();
      await held.done;
      const outcome = await receipt;
      expect(outcome.ok).toBe(false);
      expect(outcome.ok ? undefined : outcome.error).toMatchObject({ code: 'ARTICLE_NOT_FOUND' });
      const level = await stock.ledger.level({ articleNo: 'RACE-1', sizex: 'S', locationCode: 'WH' });
      expect(level).toMatchObject({ onHand: 0, reserved: 0 });
    });
  },
);
