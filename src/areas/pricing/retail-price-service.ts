import type { Database } from '../../kernel/db/database.ts';
import { ArticlePriceRepository } from './article-price-repository.ts';
import { PRICING_ERRORS } from './errors.ts';
import { PricingRepository } from './pricing-repository.ts';
import { todayOf } from './pricing-rules.ts';

/** What a retail client pays for one piece: a running action price, else the list price. */
export interface RetailPrice {
  /** Minor units, VAT included (shelf prices). */
  unitPrice: number;
  /** The list price of the retail price group (minor units); the action price's reference. */
  listPrice: number;
  rule: 'ACTION_PRICE' | 'LIST_PRICE';
  /** The action price's id when the rule is ACTION_PRICE. */
  actionPriceId: number | null;
}

/**
 * Retail prices (docs/pricing.md, "Retail"): the SELLING price of the retail price group, unless
 * an action price runs on the day for the article (the size's own one first, else the one for
 * every size) in the currency; then the action price. A size without a list price in the currency
 * and no running action price has no price (PRICE_NOT_FOUND). Articles not published for retail
 * are the caller's to refuse (it holds the article's flags).
 */
export class RetailPriceService {
  readonly #facts: ArticlePriceRepository;
  readonly #read: PricingRepository;
  readonly now: () => Date;
  readonly priceGroup: number;

  constructor(database: Database, priceGroup: number, now: () => Date = () => new Date()) {
    this.now = now;
    this.priceGroup = priceGroup;
    this.#facts = new ArticlePriceRepository(database.db);
    this.#read = new PricingRepository(database.db);
  }

  async retailPrice(q: {
    articleNo: string;
    sizex: string;
    currency: string;
    date?: string;
  }): Promise<RetailPrice> {
    const date = q.date ?? todayOf(this.now);
    // Customer 0 is no customer: the read brings the article and its list price, no agreement.
    const facts = await this.#facts.priceFacts({
      articleNo: q.articleNo,
      sizex: q.sizex,
      customerNo: 0,
      customerGroup: null,
      priceGroup: this.priceGroup,
      currency: q.currency,
    });
    const article = facts.find((f) => f.kind === 'ARTICLE');
    const listPrice =
      article?.selling === null || article?.selling === undefined ? null : Number(article.selling);
    const running = (await this.#read.actionPricesOfArticle(q.articleNo)).filter(
      (r) =>
        r.currency === q.currency && r.start_date <= date && date <= r.end_date && Number(r.deleted) === 0,
    );
    const action = running.find((r) => r.sizex === q.sizex) ?? running.find((r) => r.sizex === null);
    if (action) {
      const unitPrice = Number(action.price_minor);
      return {
        unitPrice,
        listPrice: listPrice ?? unitPrice,
        rule: 'ACTION_PRICE',
        actionPriceId: Number(action.id),
      };
    }
    if (listPrice === null) {
      throw PRICING_ERRORS.PRICE_NOT_FOUND(
        `Article "${q.articleNo}" size "${q.sizex}" has no retail price in ${q.currency}.`,
      );
    }
    return { unitPrice: listPrice, listPrice, rule: 'LIST_PRICE', actionPriceId: null };
  }
}
