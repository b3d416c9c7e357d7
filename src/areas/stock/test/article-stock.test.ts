import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectScnStep } from '../../../../test/helpers/scn.ts';
import { StatementCounter } from '../../../../test/helpers/statement-counter.ts';
import { ENGINE, startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import type { Database } from '../../../kernel/db/database.ts';
import { directReader } from '../../../kernel/db/sqlite-reader.ts';
import { currentScn } from '../../../kernel/db/unit-of-work.ts';
import type { Audience } from '../../../kernel/paging.ts';
import { articleSizesIn, articleStatesIn, CATALOG_ERRORS, seedCatalog } from '../../catalog/index.ts';
import { seedStock } from '../demo.ts';
import { StockLedgerService } from '../stock-ledger-service.ts';
import { StockRepository } from '../stock-repository.ts';
import { locationNotFound } from '../stock-rules.ts';
import {
  type ArticleStockWire,
  articleStockToWire,
  articleVisibleTo,
  locationVisibleTo,
} from '../stock-wire.ts';

/**
 * B2B_GetArticleStock and B2C_GetArticleStock read in one statement on SQLite (the article, its
 * sizes, the locations, its levels and the SCN) and two on PostgreSQL (the SCN, then the rest): the
 * same answers as the separate reads they replace, on the demo world, and the statements counted.
 */

let t: TestApp;
let articleNos: string[];
const LOCATIONS = ['WH', 'AMS', 'UTR', 'ANT', 'GNT', 'NOPE'];

beforeAll(async () => {
  t = await startTestApp();
  await seedCatalog(t.services, { images: false });
  await seedStock(t.services, {});
  const page = await t.services.catalog.listArticles('B2B', { sinceScn: 0, offset: 1, limit: 1000 });
  articleNos = page.items.map((a) => a.ARTICLE);
  const stock = t.services.stock;
  // Beyond the demo world: reserved stock, an inactive shop, a shop that stops serving retail, and
  // stock of a size the article no longer has (written straight to the table: no service makes it).
  const [first, second] = articleNos;
  if (!first || !second) throw new Error('the demo world has articles');
  const level = (await stock.ledger.articleStock('B2B', first)).LOCATIONS[0]?.SIZES.find(
    (s) => 'ONHAND' in s && s.ONHAND > 1,
  );
  if (!level) throw new Error(`article ${first} has stock at WH`);
  await stock.ledger.reserve({ articleNo: first, sizex: level.SIZEX, locationCode: 'WH', quantity: 1 });
  await stock.locations.changeLocation('GNT', { active: false });
  await stock.locations.changeLocation('ANT', { servesRetail: false, servesWholesale: true });
  await t.database.db
    .insertInto('stock_level')
    .values({ article_no: second, sizex: 'ZZ', location_code: 'WH', on_hand: 3, reserved: 1, scn: 1 })
    .execute();
}, 120_000);
afterAll(() => t.close());

/** The answer as it was read before: the article, the locations, its sizes and its levels apart. */
async function formerArticleStock(
  database: Database,
  audience: Audience,
  articleNo: string,
  locationCode?: string,
): Promise<ArticleStockWire> {
  const repo = new StockRepository(database.db);
  const scn = await currentScn(database.db);
  const article = (await articleStatesIn(database.db, [articleNo])).get(articleNo);
  if (!article || !articleVisibleTo(audience, article)) {
    throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(
      `No article "${articleNo}"${audience === 'B2C' ? ' published for retail' : ''}.`,
    );
  }
  const locations = (await repo.locations()).filter(
    (l) => locationVisibleTo(audience, l) && (locationCode === undefined || l.code === locationCode),
  );
  if (locationCode !== undefined && locations.length === 0) throw locationNotFound(locationCode);
  const sizes = await articleSizesIn(database.db, [articleNo]);
  const levels = await repo.levelsOfArticle(articleNo, locationCode);
  return articleStockToWire(audience, scn, articleNo, sizes.get(articleNo) ?? [], locations, levels);
}

const outcome = (read: Promise<ArticleStockWire>) =>
  read.then(
    (answer) => ({ answer }),
    (error: { code?: string; message?: string }) => ({ error: `${error.code}: ${error.message}` }),
  );

describe(`one article's stock (${ENGINE})`, () => {
  it('answers as the separate reads did, for every demo article, both audiences and each location', async () => {
    const ledger = t.services.stock.ledger;
    const kinds = new Set<string>();
    for (const [i, articleNo] of [...articleNos, 'NO-SUCH-ARTICLE'].entries()) {
      for (const audience of ['B2B', 'B2C'] as const) {
        // every article at every location it is seen at, and one in ten at each location alone
        for (const location of i % 10 === 0 ? [undefined, ...LOCATIONS] : [undefined]) {
          const said = `${audience} ${articleNo} ${location ?? ''}`;
          const now = await outcome(ledger.articleStock(audience, articleNo, location));
          const former = await outcome(formerArticleStock(t.database, audience, articleNo, location));
          if ('answer' in now && 'answer' in former) {
            // the reader's SCN of two reads in turn: equal on SQLite, on PostgreSQL never back
            expectScnStep(now.answer.SCN, former.answer.SCN, 0);
            former.answer = { ...former.answer, SCN: now.answer.SCN };
          }
          expect(now, said).toEqual(former);
          kinds.add('error' in now ? (now.error.split(':')[0] ?? '') : 'answer');
        }
      }
    }
    // the comparison met answers and each refusal
    expect([...kinds].sort()).toEqual(['ARTICLE_NOT_FOUND', 'LOCATION_NOT_FOUND', 'answer']);
    // and the cases added to the demo world: the dropped size with stock comes after the article's sizes
    const second = articleNos[1] ?? '';
    const stock = await ledger.articleStock('B2B', second);
    expect(stock.TOTALS.at(-1)).toEqual({ SIZEX: 'ZZ', ONHAND: 3, RESERVED: 1, AVAILABLE: 2 });
    expect(stock.LOCATIONS.map((l) => l.LOCATION)).toEqual(['ANT', 'WH']);
  });

  it('reads in one statement on SQLite, two on PostgreSQL, whatever the article, audience or location', async () => {
    const statements = ENGINE === 'sqlite' ? 1 : 2;
    const counter = new StatementCounter();
    const db = t.database.db.withPlugin(counter);
    // the article's statement goes to the database's reader: here one over the counted database
    const counted = new StockLedgerService({ ...t.database, db, reader: directReader(db) });
    const articleNo = articleNos[0] ?? '';
    for (const [audience, location] of [
      ['B2B', undefined],
      ['B2C', undefined],
      ['B2C', 'AMS'],
      ['B2B', 'NOPE'],
    ] as const) {
      counter.count = 0;
      await outcome(counted.articleStock(audience, articleNo, location));
      expect(counter.count, `${audience} ${location}`).toBe(statements);
    }
    counter.count = 0;
    await outcome(counted.articleStock('B2C', 'NO-SUCH-ARTICLE'));
    expect(counter.count).toBe(statements);
    // the former reads, counted the same way, took five
    counter.count = 0;
    await formerArticleStock({ ...t.database, db: t.database.db.withPlugin(counter) }, 'B2B', articleNo);
    expect(counter.count).toBe(5);
  });
});
