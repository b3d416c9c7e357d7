import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { article } from '../../../../test/helpers/fixtures.ts';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { inWriteTransaction } from '../../../kernel/db/unit-of-work.ts';
import { location, stockContext } from './stock-context.ts';

// A receipt only stamps (decision 27): its increment needs no order among writers, but an article or
// location deleted while it runs would be left holding stock. Both deletions refuse while stock is
// there, and mark their row before they look; the receipt looks again once its rows are written,
// holding the article and location rows with a shared lock. On PostgreSQL the two overlap on
// separate connections (on SQLite BEGIN IMMEDIATE serialises whole transactions, so they cannot).

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

    it('makes a deletion that starts while a receipt is open wait for it and see its stock', async () => {
      const stock = ctx.t.services.stock;
      await ctx.t.services.catalog.saveArticles([article('RACE-2')]);
      await stock.locations.createLocation(location('RACE-LOC', { name: 'Race' }));
      for (const [what, target] of [
        ['article', { articleNo: 'RACE-2', sizex: 'S', locationCode: 'WH' }],
        ['location', { articleNo: 'RACE-2', sizex: 'M', locationCode: 'RACE-LOC' }],
      ] as const) {
        // a receipt that has written its rows and not committed yet, on its own connection
        let release: () => void = () => {};
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        let written: () => void = () => {};
        const isWritten = new Promise<void>((resolve) => {
          written = resolve;
        });
        const receipt = inWriteTransaction(ctx.t.database, async (uow) => {
          await stock.ledger.receiveIn(uow, { ...target, quantity: 5 });
          written();
          await released;
        });
        await isWritten;
        const deletion = (
          what === 'article'
            ? ctx.t.services.catalog.deleteArticle(target.articleNo)
            : stock.locations.deleteLocation(target.locationCode)
        ).then(
          () => ({ ok: true as const }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        // the deletion waits for the receipt's lock: give it time to get there, then commit the receipt
        for (let i = 0; i < 400; i++) {
          const { rows } = await sql<{
            n: string;
          }>`SELECT count(*) AS n FROM pg_locks WHERE NOT granted`.execute(ctx.t.database.db);
          if (Number(rows[0]?.n) > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        release();
        await receipt;
        const outcome = await deletion;
        expect(outcome.ok, what).toBe(false);
        expect(outcome.ok ? undefined : outcome.error).toMatchObject({
          code: what === 'article' ? 'ARTICLE_HAS_STOCK' : 'LOCATION_HAS_STOCK',
        });
        expect(await stock.ledger.level(target)).toMatchObject({ onHand: 5 });
      }
      // both are still there, holding their stock
      const kept = JSON.parse(await ctx.t.services.catalog.articleJson('B2B', { articleNo: 'RACE-2' }));
      expect(kept.ARTICLE).toBe('RACE-2');
      expect(await stock.ledger.verifyLedger()).toEqual([]);
    });
  },
);
