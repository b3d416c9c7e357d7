import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction, type UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import type { FieldError } from '../../kernel/errors.ts';
import { feedPage } from '../../kernel/feed-page.ts';
import type { Page, PageOf } from '../../kernel/paging.ts';
import { articleSizesIn } from '../catalog/index.ts';
import { PricingRepository } from './pricing-repository.ts';
import { checkMinor, fail } from './pricing-rules.ts';
import { liveArticleSizes, type WriteResult } from './pricing-shared.ts';
import {
  type ListPriceKeyWire,
  type ListPriceWire,
  listPriceKeyToWire,
  listPriceToWire,
  type PriceArticleWire,
  pricesToWire,
} from './pricing-wire.ts';
import type { PriceType } from './tables.ts';

export interface ListPriceKey {
  articleNo: string;
  priceType: PriceType;
  priceGroup: number;
  currency: string;
  sizex: string;
}
export interface ListPriceInput extends ListPriceKey {
  priceMinor: number;
}

const priceKey = (k: {
  article_no: string;
  price_type: string;
  price_group: number;
  currency: string;
  sizex: string;
}) => `${k.article_no}\u0000${k.price_type}\u0000${k.price_group}\u0000${k.currency}\u0000${k.sizex}`;

/**
 * List prices (docs/pricing.md): the price of an article size per price type, price group and
 * currency, with the two change feeds. Every write is one transaction; writes that change nothing
 * leave the SCN where it was.
 */
export class ListPriceService {
  readonly #read: PricingRepository;

  readonly database: Database;

  constructor(database: Database) {
    this.database = database;
    this.#read = new PricingRepository(database.db);
  }

  /**
   * B2B_GetAllPrices: one page of articles with their complete live price sets, in the catalogue's
   * article order: a range of the article positions, then the page's prices and sizes by article.
   */
  listPrices(page: Page): Promise<PageOf<PriceArticleWire, string>> {
    const db = this.database.db;
    return feedPage(db, page, {
      rows: (sinceScn, from, limit) => this.#read.priceArticlesPage(sinceScn, from, limit),
      position: (r) => r.pos,
      live: (r) => r.deleted === 0,
      items: async (rows) => {
        const live = rows.map((r) => r.article_no);
        const [prices, sizes] = await Promise.all([this.#read.livePricesOf(live), articleSizesIn(db, live)]);
        return pricesToWire(live, prices, sizes);
      },
      tombstone: (r) => r.deleted === 1,
      deletedKey: (r) => r.article_no,
    });
  }

  /** B2B_GetPriceChanges: list price rows changed after the page's SCN, deleted ones as keys. */
  listPriceChanges(page: Page): Promise<PageOf<ListPriceWire, ListPriceKeyWire>> {
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#read.listPricesPage(sinceScn, from, limit),
      position: (r) => r.pos,
      live: (r) => r.deleted === 0,
      items: (live) => live.map(listPriceToWire),
      tombstone: (r) => r.deleted === 1,
      deletedKey: (r) => listPriceKeyToWire(r),
    });
  }

  /**
   * Sets list prices, many rows per call, in one transaction (all or none). A row whose price is
   * already stored is skipped; a call that changes nothing does not move the SCN. Every article
   * must exist (not deleted) and have the size. Errors name the field by its pointer in the list
   * (`/3/PRICE`); the shape of each row is the request schema's (ListPriceBody).
   */
  async setListPrices(inputs: ListPriceInput[]): Promise<WriteResult> {
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    for (const [i, p] of inputs.entries()) {
      checkMinor(errors, `/${i}/PRICE`, p.priceMinor);
      const key = priceKey(toKeyRow(p));
      if (seen.has(key)) errors.push({ name: `/${i}`, message: 'the same price is given twice' });
      seen.add(key);
      if (errors.length > 20) break;
    }
    fail(errors);
    if (inputs.length === 0) return { scn: null, changed: 0 };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      const articleNos = [...new Set(inputs.map((p) => p.articleNo))];
      const sizes = await liveArticleSizes(uow.db, articleNos);
      const missing: FieldError[] = [];
      for (const [i, p] of inputs.entries()) {
        const ofArticle = sizes.get(p.articleNo);
        if (!ofArticle) missing.push({ name: `/${i}/ARTICLE`, message: `no article "${p.articleNo}"` });
        else if (!ofArticle.has(p.sizex))
          missing.push({ name: `/${i}/SIZEX`, message: `article "${p.articleNo}" has no size "${p.sizex}"` });
        if (missing.length > 20) break;
      }
      fail(missing);
      const changedOf = async () => {
        const stored = new Map((await repo.listPricesOf(articleNos)).map((r) => [priceKey(r), r]));
        return inputs.filter((p) => {
          const s = stored.get(priceKey(toKeyRow(p)));
          return !s || s.deleted === 1 || Number(s.price_minor) !== p.priceMinor;
        });
      };
      if ((await changedOf()).length === 0) return { scn: null, changed: 0 };
      const scn = await uow.scn();
      const changed = await changedOf();
      await repo.upsertListPrices(
        changed.map((p) => ({ ...toKeyRow(p), price_minor: p.priceMinor, deleted: 0, scn })),
      );
      await repo.refreshPriceArticles([...new Set(changed.map((p) => p.articleNo))], scn);
      return { scn, changed: changed.length };
    });
  }

  /** Deletes list prices (many per call, one transaction); keys without a live price are skipped. */
  async deleteListPrices(keys: ListPriceKey[]): Promise<WriteResult> {
    if (keys.length === 0) return { scn: null, changed: 0 };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      const articleNos = [...new Set(keys.map((k) => k.articleNo))];
      const wanted = new Set(keys.map((k) => priceKey(toKeyRow(k))));
      const liveOf = async () =>
        (await repo.listPricesOf(articleNos)).filter((r) => r.deleted === 0 && wanted.has(priceKey(r)));
      if ((await liveOf()).length === 0) return { scn: null, changed: 0 };
      const scn = await uow.scn();
      const live = await liveOf();
      await repo.upsertListPrices(
        live.map((r) => ({ ...r, price_minor: Number(r.price_minor), deleted: 1, scn })),
      );
      await repo.refreshPriceArticles([...new Set(live.map((r) => r.article_no))], scn);
      return { scn, changed: live.length };
    });
  }

  /**
   * Deletes every live list price of an article in the caller's transaction `uow`, stamped with its
   * SCN, so the price feeds report them deleted: the catalog deletes an article with its prices
   * (services.catalog asks).
   */
  async deleteArticlePricesIn(uow: UnitOfWork, articleNo: string): Promise<void> {
    const repo = new PricingRepository(uow.db);
    const live = (await repo.listPricesOf([articleNo])).filter((r) => r.deleted === 0);
    if (live.length === 0) return;
    const scn = await uow.scn();
    await repo.upsertListPrices(
      live.map((r) => ({ ...r, price_minor: Number(r.price_minor), deleted: 1, scn })),
    );
    await repo.refreshPriceArticles([articleNo], scn);
  }
}

function toKeyRow(k: ListPriceKey) {
  return {
    article_no: k.articleNo,
    price_type: k.priceType,
    price_group: k.priceGroup,
    currency: k.currency,
    sizex: k.sizex,
  };
}
