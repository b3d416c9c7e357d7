import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { article } from '../../../../test/helpers/fixtures.ts';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { inWriteTransaction } from '../../../kernel/db/unit-of-work.ts';
import { location, stockContext } from './stock-context.ts';

// A receipt only stamps (decision 27): its increment needs no order among writers, but an article or
// location deleted while it runs would be left holding stock. Both deletions refuse while stock is
// there, and mark their row before they look. On PostgreSQL the receipt is one statement (decision
// 46) that holds the article and location rows with a shared lock while it checks them and writes:
// a deletion that has marked its row and not committed makes the receipt wait and then refuse, and
// one that starts while the receipt is open waits for it and sees its stock. The two overlap on
// separate connections (on SQLite BEGIN IMMEDIATE serialises whole transactions, so they cannot).

const ctx = stockContext();

/**
 * Marks a row deleted in a transaction of another connection, as a deletion does before it looks
 * for stock, and keeps that transaction open until `commit` is called.
 */
async function markedNotCommitted(what: 'article' | 'location', key: string) {
  let commit: () => void = () => {};
  const committed = new Promise<void>((resolve) => {
    commit = resolve;
  });
  let marked: () => void = () => {};
  const isMarked = new Promise<void>((resolve) => {
    marked = resolve;
  });
  const done = ctx.t.database.db.transaction().execute(async (trx) => {
    if (what === 'article') await sql`UPDATE article SET deleted = 1 WHERE article_no = ${key}`.execute(trx);
    else await sql`UPDATE stock_location SET deleted = 1, active = 0 WHERE code = ${key}`.execute(trx);
    marked();
    await committed;
  });
  await isMarked;
  return { commit, done };
}

/** Waits until some connection waits for a lock (at most 10 s). */
async function someoneWaits() {
  for (let i = 0; i < 400; i++) {
    const { rows } = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM pg_locks WHERE NOT granted`.execute(ctx.t.database.db);
    if (Number(rows[0]?.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('nobody waited for a lock');
}

describe.runIf(ENGINE === 'postgres')(
  'a receipt against a deletion on other connections (PostgreSQL)',
  () => {
    it('makes a receipt wait for a deletion that has marked its row, then refuse: no stock on a deleted article or location', async () => {
      const stock = ctx.t.services.stock;
      await ctx.t.services.catalog.saveArticles([article('RACE-1')]);
      await stock.locations.createLocation(location('RACE-LOC1', { name: 'Race' }));
      for (const [what, target, code] of [
        ['article', { articleNo: 'RACE-1', sizex: 'S', locationCode: 'WH' }, 'ARTICLE_NOT_FOUND'],
        ['location', { articleNo: 'RACE-1', sizex: 'M', locationCode: 'RACE-LOC1' }, 'LOCATION_NOT_FOUND'],
      ] as const) {
        const marking = await markedNotCommitted(
          what,
          what === 'article' ? target.articleNo : target.locationCode,
        );
        const receipt = stock.ledger.receive({ ...target, quantity: 5 }).then(
          (level) => ({ ok: true as const, level }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        // the receipt waits for the marking's row lock; the deletion finds no stock and commits
        try {
          await someoneWaits();
        } finally {
          marking.commit();
        }
        await marking.done;
        const outcome = await receipt;
        expect(outcome.ok, what).toBe(false);
        expect(outcome.ok ? undefined : outcome.error, what).toMatchObject({ code });
        expect(await stock.ledger.level(target), what).toMatchObject({ onHand: 0, reserved: 0 });
      }
      expect(await stock.ledger.verifyLedger()).toEqual([]);
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
        // the deletion waits for the receipt's lock: let it get there, then commit the receipt
        try {
          await someoneWaits();
        } finally {
          release();
        }
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
