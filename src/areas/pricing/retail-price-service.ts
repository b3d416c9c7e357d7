import type { Database } from '../../kernel/db/database.ts';
import { PRICING_ERRORS } from './errors.ts';
import { todayOf } from './pricing-rules.ts';
import { RetailPriceRepository, type RetailPriceRow } from './retail-price-repository.ts';

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
  readonly #read: RetailPriceRepository;
  readonly now: () => Date;
  readonly priceGroup: number;

  constructor(database: Database, priceGroup: number, now: () => Date = () => new Date()) {
    this.now = now;
    this.priceGroup = priceGroup;
    this.#read = new RetailPriceRepository(database.db);
  }

  /** The prices of many sizes (a web order's lines), in their order, in one statement. */
  async retailPrices(
    keys: ReadonlyArray<{ articleNo: string; sizex: string }>,
    currency: string,
    date: string = todayOf(this.now),
  ): Promise<RetailPrice[]> {
    const rows = await this.#read.candidates(keys, { priceGroup: this.priceGroup, currency, date });
    return keys.map((k) => {
      const mine = rows.filter((r) => r.article_no === k.articleNo);
      const list = mine.find((r) => r.kind === 'LIST' && r.sizex === k.sizex);
      const actions = mine.filter((r) => r.kind === 'ACTION');
      // At most one action price runs per article, size (or every size) and currency (ACTION_PRICE_OVERLAP).
      const action = actions.find((r) => r.sizex === k.sizex) ?? actions.find((r) => r.sizex === null);
      return priceOf(k, currency, list, action);
    });
  }
}

function priceOf(
  k: { articleNo: string; sizex: string },
  currency: string,
  list: RetailPriceRow | undefined,
  action: RetailPriceRow | undefined,
): RetailPrice {
  if (action) {
    const unitPrice = action.price_minor;
    return {
      unitPrice,
      listPrice: list?.price_minor ?? unitPrice,
      rule: 'ACTION_PRICE',
      actionPriceId: action.id,
    };
  }
  if (!list) {
    throw PRICING_ERRORS.PRICE_NOT_FOUND(
      `Article "${k.articleNo}" size "${k.sizex}" has no retail price in ${currency}.`,
    );
  }
  return {
    unitPrice: list.price_minor,
    listPrice: list.price_minor,
    rule: 'LIST_PRICE',
    actionPriceId: null,
  };
}
