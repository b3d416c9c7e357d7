import { MAX_PARTY_NO } from '../../kernel/access.ts';
import type { Database } from '../../kernel/db/database.ts';
import type { Reader } from '../../kernel/db/sqlite-reader.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { CATALOG_ERRORS } from '../catalog/index.ts';
import { liveTermsOf } from '../customers/index.ts';
import { ArticlePriceRepository, type PriceFactRow } from './article-price-repository.ts';
import { PRICING_ERRORS } from './errors.ts';
import {
  type AgreementCandidate,
  type LineDiscountCandidate,
  type ResolvedPrice,
  resolvePrice,
} from './price-resolution.ts';
import { todayOf } from './pricing-rules.ts';
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

/** What a customer pays for an article (docs/pricing.md, "Resolution"): reads the terms and facts, applies `resolvePrice`. */
export class ArticlePriceService {
  readonly #read: ArticlePriceRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new ArticlePriceRepository(database.db);
  }

  /**
   * What a customer pays for one piece of an article in a size, in one statement: the customer's
   * terms (through the customers area's fragment), the article, its size, its list prices and the
   * candidate agreements and line discounts (ArticlePriceRepository.customerPriceFacts);
   * `resolvePrice` (the pure rule) decides. The refusals keep their order: the customer's first.
   *
   * Errors: CUSTOMER_NOT_FOUND, ARTICLE_NOT_FOUND, SIZE_NOT_FOUND (404); CUSTOMER_INACTIVE (409);
   * PRICE_NOT_FOUND (404) when the customer's price group has no selling price in the currency.
   * The query's shape (quantity 1 to MAX_QUANTITY, a calendar date, a currency code) is the
   * operation's schema's; errors name its parameters (`strquantity`).
   */
  priceFor(query: PriceQuery): Promise<PricedArticle> {
    return this.#priceFor(query, undefined);
  }

  /**
   * `priceFor` as the B2B_GetArticlePrice wire object. Its read, outside any transaction, runs on
   * the database's reader (on SQLite the reader thread: decision 45).
   */
  async articlePrice(query: PriceQuery): Promise<ArticlePriceWire> {
    const priced = await this.#priceFor(query, this.database.reader);
    return articlePriceToWire(priced, priced.resolved, priced.recommended);
  }

  async #priceFor(query: PriceQuery, reader: Reader | undefined): Promise<PricedArticle> {
    const quantity = query.quantity ?? 1;
    const date = query.date ?? todayOf(this.now);
    // The column is a 32-bit integer: a larger number is no customer (PostgreSQL would refuse it).
    const facts =
      Number.isSafeInteger(query.customerNo) && query.customerNo >= 0 && query.customerNo <= MAX_PARTY_NO
        ? await this.#read.customerPriceFacts(
            {
              articleNo: query.articleNo,
              sizex: query.sizex,
              customerNo: query.customerNo,
              currency: query.currency ?? null,
            },
            reader,
          )
        : [];
    // One pass over the rows. The ARTICLE row carries the customer's terms too: it is there
    // whenever the customer is. The candidates go to resolvePrice in id order (its last tie-break).
    let article: PriceFactRow | undefined;
    const agreementRows: PriceFactRow[] = [];
    const lineDiscountRows: PriceFactRow[] = [];
    for (const f of facts) {
      if (f.kind === 'ARTICLE') article ??= f;
      else if (f.kind === 'AGREEMENT') agreementRows.push(f);
      else if (f.kind === 'LINE_DISCOUNT') lineDiscountRows.push(f);
    }
    liveTermsOf(article && { deleted: article.customer_deleted }, query.customerNo);
    const customer = article as PriceFactRow; // liveTermsOf refused a missing row
    if (customer.active === 0) {
      throw PRICING_ERRORS.CUSTOMER_INACTIVE(`Customer ${query.customerNo} is not active.`);
    }
    const currency = customer.currency ?? '';
    if (article?.deleted !== 0) {
      throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${query.articleNo}".`);
    }
    if (article.size_known === null) {
      throw PRICING_ERRORS.SIZE_NOT_FOUND(`Article "${query.articleNo}" has no size "${query.sizex}".`);
    }
    const agreements = agreementRows.sort(byId).map((f) => toAgreementCandidate(f, currency));
    const lineDiscounts = lineDiscountRows.sort(byId).map(toLineDiscountCandidate);
    const resolved = resolvePrice(
      {
        customer: {
          customerNo: query.customerNo,
          priceGroup: Number(customer.price_group),
          customerGroup: customer.customer_group,
          discountBp: Number(customer.discount_bp),
        },
        article: {
          articleNo: query.articleNo,
          modelNo: article.model_no ?? '',
          articleGroup: article.article_group ?? '',
        },
        sizex: query.sizex,
        quantity,
        date,
        currency,
      },
      { listPrice: minorOrUndefined(article.selling), agreements, lineDiscounts },
    );
    if (!Number.isSafeInteger(resolved.netPrice * quantity)) {
      throw new ValidationError([{ name: 'strquantity', message: 'the line amount is too large' }]);
    }
    return {
      customerNo: query.customerNo,
      articleNo: query.articleNo,
      sizex: query.sizex,
      quantity,
      date,
      resolved,
      recommended: minorOrUndefined(article.recommended),
    };
  }
}

const byId = (a: PriceFactRow, b: PriceFactRow) => Number(a.id) - Number(b.id);

function minorOrUndefined(value: number | null): number | undefined {
  return value === null ? undefined : Number(value);
}

/** An agreement row of the price read; its net price is the one in the asked currency, if any. */
function toAgreementCandidate(row: PriceFactRow, currency: string): AgreementCandidate {
  return {
    id: Number(row.id),
    customerNo: row.customer_no,
    customerGroup: row.customer_group,
    scope: row.scope ?? 'ARTICLE',
    scopeValue: row.scope_value ?? '',
    minQuantity: Number(row.min_quantity),
    validFrom: row.valid_from ?? '',
    validTo: row.valid_to,
    discountBp: row.discount_bp,
    netPrices: row.net_price === null ? {} : { [currency]: Number(row.net_price) },
  };
}

function toLineDiscountCandidate(row: PriceFactRow): LineDiscountCandidate {
  return {
    id: Number(row.id),
    customerNo: Number(row.customer_no),
    scope: row.scope === 'MODEL' ? 'MODEL' : 'ARTICLEGROUP',
    scopeValue: row.scope_value ?? '',
    discountBp: Number(row.discount_bp),
    validFrom: row.valid_from ?? '',
    validTo: row.valid_to,
  };
}
