import type { Database } from '../../kernel/db/database.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { CATALOG_ERRORS } from '../catalog/index.ts';
import { liveCustomerTerms } from '../customers/index.ts';
import { PRICING_ERRORS } from './errors.ts';
import {
  type AgreementCandidate,
  type LineDiscountCandidate,
  type ResolvedPrice,
  resolvePrice,
} from './price-resolution.ts';
import {
  type AgreementPriceRow,
  type AgreementRow,
  type LineDiscountRow,
  PricingRepository,
} from './pricing-repository.ts';
import { todayOf } from './pricing-rules.ts';
import { findArticle, liveArticleSizes } from './pricing-shared.ts';
import { type ArticlePriceWire, articlePriceToWire } from './pricing-wire.ts';

export interface PriceQuery {
  customerNo: number;
  articleNo: string;
  sizex: string;
  /** Default 1. */
  quantity?: number;
  /** YYYY-MM-DD; default today (UTC). */
  date?: string;
  /** Default the customer's currency. */
  currency?: string;
}

export interface PricedArticle {
  customerNo: number;
  articleNo: string;
  sizex: string;
  quantity: number;
  date: string;
  resolved: ResolvedPrice;
  /** The RECOMMENDED price of the customer's price group, for information. */
  recommended: number | undefined;
}

/** What a customer pays for an article (docs/pricing.md, "Resolution"): loads the terms, applies `resolvePrice`. */
export class ArticlePriceService {
  readonly #read: PricingRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new PricingRepository(database.db);
  }

  /**
   * What a customer pays for one piece of an article in a size: loads the customer, the article,
   * the list prices, agreements and line discounts and applies `resolvePrice` (the pure rule).
   *
   * Errors: CUSTOMER_NOT_FOUND, ARTICLE_NOT_FOUND, SIZE_NOT_FOUND (404); CUSTOMER_INACTIVE (409);
   * PRICE_NOT_FOUND (404) when the customer's price group has no selling price in the currency.
   * The query's shape (quantity 1 to MAX_QUANTITY, a calendar date, a currency code) is the
   * operation's schema's; errors name its parameters (`strquantity`).
   */
  async priceFor(query: PriceQuery): Promise<PricedArticle> {
    const quantity = query.quantity ?? 1;
    const date = query.date ?? todayOf(this.now);
    const customer = await liveCustomerTerms(this.database.db, query.customerNo);
    if (customer.active === 0) {
      throw PRICING_ERRORS.CUSTOMER_INACTIVE(`Customer ${query.customerNo} is not active.`);
    }
    const article = await findArticle(this.database.db, query.articleNo);
    if (!article || article.deleted === 1) {
      throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${query.articleNo}".`);
    }
    const sizes = (await liveArticleSizes(this.database.db, [article.article_no])).get(article.article_no);
    if (!sizes?.has(query.sizex)) {
      throw PRICING_ERRORS.SIZE_NOT_FOUND(`Article "${query.articleNo}" has no size "${query.sizex}".`);
    }
    const currency = query.currency ?? customer.currency;
    const key = {
      articleNo: article.article_no,
      priceGroup: customer.price_group,
      currency,
      sizex: query.sizex,
    };
    const party = { customerNo: customer.customer_no, customerGroup: customer.customer_group };
    const [listPrice, recommended, agreementRows, lineRows] = await Promise.all([
      this.#read.listPrice({ ...key, priceType: 'SELLING' }),
      this.#read.listPrice({ ...key, priceType: 'RECOMMENDED' }),
      this.#read.agreementCandidates(party, article),
      this.#read.lineDiscountCandidates(customer.customer_no, article),
    ]);
    const agreementPrices = await this.#read.agreementPrices(agreementRows.map((a) => Number(a.id)));
    const resolved = resolvePrice(
      {
        customer: {
          customerNo: customer.customer_no,
          priceGroup: customer.price_group,
          customerGroup: customer.customer_group,
          discountBp: customer.discount_bp,
        },
        article: {
          articleNo: article.article_no,
          modelNo: article.model_no,
          articleGroup: article.article_group,
        },
        sizex: query.sizex,
        quantity,
        date,
        currency,
      },
      {
        listPrice,
        agreements: agreementRows.map((a) => toAgreementCandidate(a, agreementPrices)),
        lineDiscounts: lineRows.map(toLineDiscountCandidate),
      },
    );
    if (!Number.isSafeInteger(resolved.netPrice * quantity)) {
      throw new ValidationError([{ name: 'strquantity', message: 'the line amount is too large' }]);
    }
    return {
      customerNo: customer.customer_no,
      articleNo: article.article_no,
      sizex: query.sizex,
      quantity,
      date,
      resolved,
      recommended,
    };
  }

  /** `priceFor` as the B2B_GetArticlePrice wire object. */
  async articlePrice(query: PriceQuery): Promise<ArticlePriceWire> {
    const priced = await this.priceFor(query);
    return articlePriceToWire(priced, priced.resolved, priced.recommended);
  }
}

function toAgreementCandidate(row: AgreementRow, prices: readonly AgreementPriceRow[]): AgreementCandidate {
  const id = Number(row.id);
  return {
    id,
    customerNo: row.customer_no,
    customerGroup: row.customer_group,
    scope: row.scope,
    scopeValue: row.scope_value,
    minQuantity: row.min_quantity,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    discountBp: row.discount_bp,
    netPrices: Object.fromEntries(
      prices.filter((p) => p.agreement_id === id).map((p) => [p.currency, p.price_minor]),
    ),
  };
}

function toLineDiscountCandidate(row: LineDiscountRow): LineDiscountCandidate {
  return {
    id: Number(row.id),
    customerNo: row.customer_no,
    scope: row.scope === 'MODEL' ? 'MODEL' : 'ARTICLEGROUP',
    scopeValue: row.scope_value,
    discountBp: row.discount_bp,
    validFrom: row.valid_from,
    validTo: row.valid_to,
  };
}
