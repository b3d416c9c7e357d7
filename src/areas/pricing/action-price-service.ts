import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { feedPage } from '../../kernel/feed-page.ts';
import type { Page, PageOf } from '../../kernel/paging.ts';
import { CATALOG_ERRORS } from '../catalog/index.ts';
import { PRICING_ERRORS } from './errors.ts';
import { type ActionPriceListRow, type ActionPriceRow, PricingRepository } from './pricing-repository.ts';
import { type ActionPriceInput, actionPriceRow, sameRow, todayOf } from './pricing-rules.ts';
import { findArticle, liveArticleSizes, softDelete, type WriteResult } from './pricing-shared.ts';
import { type ActionPriceWire, actionPriceToWire } from './pricing-wire.ts';

export interface ActionPriceFilter {
  /** A calendar day YYYY-MM-DD (the operations check `strdate`): only action prices running on it (default today)... */
  date?: string;
  /** ...unless `all`: every action price that is not deleted, whatever its dates. */
  all?: boolean;
}

/**
 * Action prices (docs/pricing.md): retail prices of an article, or of one of its sizes, for a
 * period, shown only while the article is published for retail. Every write is one transaction.
 */
export class ActionPriceService {
  readonly #read: PricingRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new PricingRepository(database.db);
  }

  /**
   * B2C_GetAllActionPrice: action prices of articles published for retail. Without `all`, only
   * those running on the date; the others changed since the page's SCN come under DELETED like
   * deleted ones and those of articles no longer published for retail.
   */
  async listActionPrices(
    page: Page,
    filter: ActionPriceFilter = {},
  ): Promise<PageOf<ActionPriceWire, number>> {
    const runningOn = this.#runningOn(filter);
    const shown = shownOn(runningOn);
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#read.actionPricesPage(sinceScn, from, limit, runningOn),
      position: (r) => r.pos,
      live: shown,
      items: (live) => live.map(actionPriceToWire),
      deletedKey: (r) => Number(r.id),
    });
  }

  /**
   * B2C_GetArticleACTIONPrice: the action prices of one article published for retail. With a size,
   * those for that size, where a size-specific action price hides an every-size one of its currency.
   */
  async articleActionPrices(
    articleNo: string,
    options: ActionPriceFilter & { sizex?: string; currency?: string } = {},
  ): Promise<ActionPriceWire[]> {
    const article = await findArticle(this.database.db, articleNo);
    if (!article || article.deleted === 1 || article.retail === 0 || article.active === 0) {
      throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${articleNo}" published for retail.`);
    }
    const shown = shownOn(this.#runningOn(options));
    let rows = (await this.#read.actionPricesOfArticle(articleNo)).filter(shown);
    if (options.currency !== undefined) rows = rows.filter((r) => r.currency === options.currency);
    if (options.sizex !== undefined) {
      const { sizex } = options;
      const specific = new Set(rows.filter((r) => r.sizex === sizex).map((r) => r.currency));
      rows = rows.filter((r) => r.sizex === sizex || (r.sizex === null && !specific.has(r.currency)));
    }
    return rows.map(actionPriceToWire);
  }

  /** The day an answer shows the action prices running on, or null (`all`) for every one. */
  #runningOn(filter: ActionPriceFilter): string | null {
    return filter.all === true ? null : (filter.date ?? todayOf(this.now));
  }

  /** Creates an action price; one running at the same time for the same article, size and currency is a conflict. */
  async createActionPrice(input: ActionPriceInput): Promise<WriteResult & { id: number }> {
    const row = actionPriceRow(input, this.now().toISOString());
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      await checkActionArticle(repo, input);
      const scn = await uow.scn();
      await checkNoOverlap(repo, row, null);
      const id = await repo.insertActionPrice({ ...row, scn });
      return { id, scn, changed: 1 };
    });
  }

  async updateActionPrice(id: number, input: ActionPriceInput): Promise<WriteResult> {
    const row = actionPriceRow(input, this.now().toISOString());
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      const differs = async () => {
        const stored = await repo.findActionPrice(id);
        if (!stored || stored.deleted === 1)
          throw PRICING_ERRORS.ACTION_PRICE_NOT_FOUND(`No action price ${id}.`);
        return !sameRow({ ...row, id, scn: 0 }, stored, ['scn', 'created_at', 'updated_at']);
      };
      if (!(await differs())) return { scn: null, changed: 0 };
      await checkActionArticle(repo, input);
      const scn = await uow.scn();
      if (!(await differs())) return { scn, changed: 0 };
      await checkNoOverlap(repo, row, id);
      const { created_at, ...changes } = row;
      await repo.updateActionPrice(id, { ...changes, scn });
      return { scn, changed: 1 };
    });
  }

  deleteActionPrice(id: number): Promise<WriteResult> {
    return softDelete(
      this.database,
      this.now,
      () => PRICING_ERRORS.ACTION_PRICE_NOT_FOUND(`No action price ${id}.`),
      (repo) => ({
        find: () => repo.findActionPrice(id),
        update: (scn, at) => repo.updateActionPriceFlags(id, scn, at),
      }),
    );
  }
}

/**
 * Whether an action price is shown: live, its article published for retail and, with a day, running
 * on it (what the list reads in SQL: PricingRepository.actionPricesPage).
 */
function shownOn(runningOn: string | null): (r: ActionPriceListRow) => boolean {
  return (r) =>
    r.deleted === 0 &&
    r.article_deleted === 0 &&
    r.retail === 1 &&
    r.active === 1 &&
    (runningOn === null || (r.start_date <= runningOn && runningOn <= r.end_date));
}

async function checkActionArticle(repo: PricingRepository, input: ActionPriceInput): Promise<void> {
  const sizes = (await liveArticleSizes(repo.db, [input.articleNo])).get(input.articleNo);
  if (!sizes) throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${input.articleNo}".`);
  if (input.sizex != null && !sizes.has(input.sizex)) {
    throw PRICING_ERRORS.SIZE_NOT_FOUND(`Article "${input.articleNo}" has no size "${input.sizex}".`);
  }
}

async function checkNoOverlap(
  repo: PricingRepository,
  row: Pick<ActionPriceRow, 'article_no' | 'sizex' | 'currency' | 'start_date' | 'end_date'>,
  exceptId: number | null,
): Promise<void> {
  const clash = await repo.overlappingActionPrices(row, exceptId);
  if (clash.length > 0) {
    throw PRICING_ERRORS.ACTION_PRICE_OVERLAP(
      `Action price ${clash[0]?.id} already runs in that period for article ${row.article_no}` +
        `${row.sizex === null ? '' : ` size ${row.sizex}`} in ${row.currency}.`,
    );
  }
}
