import type { Database } from '../../db/database.ts';
import type { PriceScope, PriceType } from '../../db/schema-pricing.ts';
import { currentScn, inWriteTransaction, type UnitOfWork } from '../../db/unit-of-work.ts';
import { ConflictError, type FieldError, NotFoundError, ValidationError } from '../errors.ts';
import { CURRENCY } from '../shared/money.ts';
import type { Page, PageOf } from '../shared/paging.ts';
import {
  type AgreementCandidate,
  type LineDiscountCandidate,
  type ResolvedPrice,
  resolvePrice,
} from './price-resolution.ts';
import {
  type ActionPriceListRow,
  type ActionPriceRow,
  type AgreementPriceRow,
  type AgreementRow,
  type CustomerRow,
  type LineDiscountRow,
  PricingRepository,
} from './pricing-repository.ts';
import {
  type ActionPriceWire,
  type AgreementWire,
  type ArticlePriceWire,
  actionPriceToWire,
  agreementToWire,
  articlePriceToWire,
  type LineDiscountWire,
  type ListPriceKeyWire,
  type ListPriceWire,
  lineDiscountToWire,
  listPriceKeyToWire,
  listPriceToWire,
  type PriceArticleWire,
  pricesToWire,
} from './pricing-wire.ts';

// --- inputs of the back-office write API (money in minor units, percentages in basis points) ----

export interface CustomerInput {
  customerNo: number;
  name: string;
  priceGroup: number;
  customerGroup?: string | null;
  currency: string;
  /** Basis points (250 = 2.5 %); default 0. */
  discountBp?: number;
  /** Default true. */
  active?: boolean;
}

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

export interface AgreementInput {
  /** Exactly one of customerNo and customerGroup. */
  customerNo?: number | null;
  customerGroup?: string | null;
  scope: PriceScope;
  /** The article number, model number or article group the agreement is for. */
  scopeValue: string;
  /** Quantity break: applies from this quantity on (default 1). */
  minQuantity?: number;
  /** YYYY-MM-DD, inclusive. */
  validFrom: string;
  /** YYYY-MM-DD, inclusive; null or absent: open-ended. */
  validTo?: string | null;
  /** Exactly one of discountBp (a percentage off the list price) and netPrices (currency -> minor units). */
  discountBp?: number | null;
  netPrices?: Record<string, number> | null;
}

export interface LineDiscountInput {
  customerNo: number;
  scope: 'MODEL' | 'ARTICLEGROUP';
  scopeValue: string;
  discountBp: number;
  validFrom: string;
  validTo?: string | null;
}

export interface ActionPriceInput {
  articleNo: string;
  /** Null or absent: every size of the article. */
  sizex?: string | null;
  currency: string;
  priceMinor: number;
  startDate: string;
  endDate: string;
}

/** What a write did: the SCN it stamped, null when nothing changed (and the SCN did not move). */
export interface WriteResult {
  scn: number | null;
  changed: number;
}

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

export interface ActionPriceFilter {
  /** YYYY-MM-DD: only action prices running on this date (default today)... */
  date?: string;
  /** ...unless `all`: every action price that is not deleted, whatever its dates. */
  all?: boolean;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CODE = /^[A-Za-z0-9][A-Za-z0-9._/ -]{0,39}$/;
const MAX_MINOR = 99_999_999_999_99; // 99 999 999 999.99: 13 digits as toMinor takes, well inside 2^53
const MAX_QUANTITY = 1_000_000;

export function isValidDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

function checkDate(errors: FieldError[], name: string, value: string | null | undefined, optional = false) {
  if (value === null || value === undefined) {
    if (!optional) errors.push({ name, message: 'a date YYYY-MM-DD is required' });
  } else if (!isValidDate(value)) {
    errors.push({ name, message: 'must be a date YYYY-MM-DD' });
  }
}

function checkMinor(errors: FieldError[], name: string, value: unknown) {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > MAX_MINOR) {
    errors.push({ name, message: 'must be a whole number of minor units (cents), 0 or more' });
  }
}

function checkBp(errors: FieldError[], name: string, value: unknown, min = 0) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 10_000) {
    errors.push({ name, message: `must be ${min} to 10000 basis points` });
  }
}

function checkCurrency(errors: FieldError[], name: string, value: unknown) {
  if (typeof value !== 'string' || !CURRENCY.test(value)) {
    errors.push({ name, message: 'must be an ISO 4217 code such as EUR' });
  }
}

function checkPositiveInt(errors: FieldError[], name: string, value: unknown, max = 2_147_483_647) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    errors.push({ name, message: `must be a whole number from 1 to ${max}` });
  }
}

function checkCode(errors: FieldError[], name: string, value: unknown) {
  if (typeof value !== 'string' || !CODE.test(value)) {
    errors.push({ name, message: 'use 1 to 40 letters, digits, spaces or . _ / -' });
  }
}

function fail(errors: FieldError[]): void {
  if (errors.length > 0) throw new ValidationError(errors);
}

const priceKey = (k: {
  article_no: string;
  price_type: string;
  price_group: number;
  currency: string;
  sizex: string;
}) => `${k.article_no}\u0000${k.price_type}\u0000${k.price_group}\u0000${k.currency}\u0000${k.sizex}`;

function sameRow<T extends object>(a: T, b: T, ignore: ReadonlyArray<keyof T>): boolean {
  for (const key of Object.keys(a) as Array<keyof T>) {
    if (ignore.includes(key)) continue;
    if (a[key] !== b[key]) return false;
  }
  return true;
}

/**
 * The pricing area: list prices, customers (minimal), price agreements, line discounts, action
 * prices and the resolution of what a customer pays (docs/pricing.md). Every write is one
 * transaction; writes that change nothing leave the SCN where it was.
 */
export class PricingService {
  readonly #read: PricingRepository;

  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {
    this.#read = new PricingRepository(database.db);
  }

  /** Today as YYYY-MM-DD (UTC): the date validity and action prices are judged on by default. */
  today(): string {
    return this.now().toISOString().slice(0, 10);
  }

  // --- reads -----------------------------------------------------------------------------------

  /** B2B_GetAllPrices: one page of articles with their complete live price sets. */
  async listPrices(page: Page): Promise<PageOf<PriceArticleWire, string>> {
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.priceArticlesPage(page.sinceScn, page.offset - 1, page.limit + 1);
    const more = rows.length > page.limit;
    const slice = more ? rows.slice(0, page.limit) : rows;
    const live = slice.filter((r) => r.deleted === 0).map((r) => r.article_no);
    const prices = await this.#read.livePricesOf(live);
    return {
      scn,
      nextOffset: more ? page.offset + page.limit : null,
      items: pricesToWire(live, prices),
      deleted: page.sinceScn > 0 ? slice.filter((r) => r.deleted === 1).map((r) => r.article_no) : [],
    };
  }

  /** B2B_GetPriceChanges: list price rows changed after the page's SCN, deleted ones as keys. */
  async listPriceChanges(page: Page): Promise<PageOf<ListPriceWire, ListPriceKeyWire>> {
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.listPricesPage(page.sinceScn, page.offset - 1, page.limit + 1);
    const more = rows.length > page.limit;
    const slice = more ? rows.slice(0, page.limit) : rows;
    return {
      scn,
      nextOffset: more ? page.offset + page.limit : null,
      items: slice.filter((r) => r.deleted === 0).map(listPriceToWire),
      deleted: page.sinceScn > 0 ? slice.filter((r) => r.deleted === 1).map(listPriceKeyToWire) : [],
    };
  }

  async customer(customerNo: number): Promise<CustomerRow> {
    const row = await this.#read.findCustomer(customerNo);
    if (!row || row.deleted === 1)
      throw new NotFoundError('CUSTOMER_NOT_FOUND', `No customer ${customerNo}.`);
    return row;
  }

  /**
   * B2B_GetAllPriceAgreements: agreements changed after the page's SCN in id order; with a customer
   * number, only those of that customer and of its customer group (as it is now).
   */
  async listAgreements(page: Page, customerNo?: number): Promise<PageOf<AgreementWire, number>> {
    const party = customerNo === undefined ? undefined : await this.#party(customerNo);
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.agreementsPage(page.sinceScn, page.offset - 1, page.limit + 1, party);
    const more = rows.length > page.limit;
    const slice = more ? rows.slice(0, page.limit) : rows;
    const live = slice.filter((r) => r.deleted === 0);
    const prices = await this.#read.agreementPrices(live.map((r) => Number(r.id)));
    return {
      scn,
      nextOffset: more ? page.offset + page.limit : null,
      items: live.map((r) => agreementToWire(r, prices)),
      deleted: page.sinceScn > 0 ? slice.filter((r) => r.deleted === 1).map((r) => Number(r.id)) : [],
    };
  }

  /** One agreement; with a customer number, only if it is that customer's or its group's. */
  async agreement(id: number, customerNo?: number): Promise<AgreementWire> {
    const row = await this.#read.findAgreement(id);
    const party = customerNo === undefined ? undefined : await this.#party(customerNo);
    const visible =
      row !== undefined &&
      row.deleted === 0 &&
      (party === undefined ||
        row.customer_no === party.customerNo ||
        (row.customer_group !== null && row.customer_group === party.customerGroup));
    if (!row || !visible) throw new NotFoundError('AGREEMENT_NOT_FOUND', `No price agreement ${id}.`);
    return agreementToWire(row, await this.#read.agreementPrices([id]));
  }

  /** B2B_GetCustomerLineDiscounts: line discounts changed after the page's SCN, of one customer or all. */
  async listLineDiscounts(page: Page, customerNo?: number): Promise<PageOf<LineDiscountWire, number>> {
    if (customerNo !== undefined) await this.customer(customerNo);
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.lineDiscountsPage(
      page.sinceScn,
      page.offset - 1,
      page.limit + 1,
      customerNo,
    );
    const more = rows.length > page.limit;
    const slice = more ? rows.slice(0, page.limit) : rows;
    return {
      scn,
      nextOffset: more ? page.offset + page.limit : null,
      items: slice.filter((r) => r.deleted === 0).map(lineDiscountToWire),
      deleted: page.sinceScn > 0 ? slice.filter((r) => r.deleted === 1).map((r) => Number(r.id)) : [],
    };
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
    const shown = this.#actionFilter(filter);
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.actionPricesPage(page.sinceScn, page.offset - 1, page.limit + 1);
    const more = rows.length > page.limit;
    const slice = more ? rows.slice(0, page.limit) : rows;
    return {
      scn,
      nextOffset: more ? page.offset + page.limit : null,
      items: slice.filter(shown).map(actionPriceToWire),
      deleted: page.sinceScn > 0 ? slice.filter((r) => !shown(r)).map((r) => Number(r.id)) : [],
    };
  }

  /**
   * B2C_GetArticleACTIONPrice: the action prices of one article published for retail. With a size,
   * those for that size, where a size-specific action price hides an every-size one of its currency.
   */
  async articleActionPrices(
    articleNo: string,
    options: ActionPriceFilter & { sizex?: string; currency?: string } = {},
  ): Promise<ActionPriceWire[]> {
    const article = await this.#read.findArticle(articleNo);
    if (!article || article.deleted === 1 || article.retail === 0 || article.active === 0) {
      throw new NotFoundError('ARTICLE_NOT_FOUND', `No article "${articleNo}" published for retail.`);
    }
    const shown = this.#actionFilter(options);
    let rows = (await this.#read.actionPricesOfArticle(articleNo)).filter(shown);
    if (options.currency !== undefined) rows = rows.filter((r) => r.currency === options.currency);
    if (options.sizex !== undefined) {
      const { sizex } = options;
      const specific = new Set(rows.filter((r) => r.sizex === sizex).map((r) => r.currency));
      rows = rows.filter((r) => r.sizex === sizex || (r.sizex === null && !specific.has(r.currency)));
    }
    return rows.map(actionPriceToWire);
  }

  #actionFilter(filter: ActionPriceFilter): (r: ActionPriceListRow) => boolean {
    const date = filter.date ?? this.today();
    if (!isValidDate(date))
      throw new ValidationError([{ name: 'strdate', message: 'must be a date YYYY-MM-DD' }]);
    return (r) =>
      r.deleted === 0 &&
      r.article_deleted === 0 &&
      r.retail === 1 &&
      r.active === 1 &&
      (filter.all === true || (r.start_date <= date && date <= r.end_date));
  }

  async #party(customerNo: number) {
    const c = await this.customer(customerNo);
    return { customerNo: c.customer_no, customerGroup: c.customer_group };
  }

  /**
   * What a customer pays for one piece of an article in a size: loads the customer, the article,
   * the list prices, agreements and line discounts and applies `resolvePrice` (the pure rule).
   *
   * Errors: CUSTOMER_NOT_FOUND, ARTICLE_NOT_FOUND, SIZE_NOT_FOUND (404); CUSTOMER_INACTIVE (409);
   * PRICE_NOT_FOUND (404) when the customer's price group has no selling price in the currency.
   */
  async priceFor(query: PriceQuery): Promise<PricedArticle> {
    const quantity = query.quantity ?? 1;
    const date = query.date ?? this.today();
    const errors: FieldError[] = [];
    checkPositiveInt(errors, 'quantity', quantity, MAX_QUANTITY);
    checkDate(errors, 'date', date);
    if (query.currency !== undefined) checkCurrency(errors, 'currency', query.currency);
    fail(errors);

    const customer = await this.customer(query.customerNo);
    if (customer.active === 0) {
      throw new ConflictError('CUSTOMER_INACTIVE', `Customer ${query.customerNo} is not active.`);
    }
    const article = await this.#read.findArticle(query.articleNo);
    if (!article || article.deleted === 1) {
      throw new NotFoundError('ARTICLE_NOT_FOUND', `No article "${query.articleNo}".`);
    }
    const sizes = (await this.#read.sizesOfArticles([article.article_no])).get(article.article_no);
    if (!sizes?.has(query.sizex)) {
      throw new NotFoundError('SIZE_NOT_FOUND', `Article "${query.articleNo}" has no size "${query.sizex}".`);
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
      throw new ValidationError([{ name: 'quantity', message: 'the line amount is too large' }]);
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

  // --- writes: each call is one transaction -------------------------------------------------------
  //
  // Pattern: compare the request with what is stored; when nothing differs, end without taking an
  // SCN. Otherwise take the SCN (on PostgreSQL this holds the counter's row lock, so no other
  // synchronised writer is between its SCN and its commit), read again under it and write what
  // still differs. The first read may be stale on PostgreSQL; the second cannot be.

  saveCustomer(input: CustomerInput): Promise<WriteResult> {
    return this.saveCustomers([input]);
  }

  /** Creates or replaces customers (all in one transaction); unchanged ones are skipped. */
  async saveCustomers(inputs: CustomerInput[]): Promise<WriteResult> {
    const errors: FieldError[] = [];
    const seen = new Set<number>();
    for (const [i, c] of inputs.entries()) {
      const at = `${i}/`;
      checkPositiveInt(errors, `${at}customerNo`, c.customerNo);
      if (seen.has(c.customerNo)) errors.push({ name: `${at}customerNo`, message: 'repeats' });
      seen.add(c.customerNo);
      if (typeof c.name !== 'string' || c.name.trim() === '' || c.name.length > 100) {
        errors.push({ name: `${at}name`, message: 'a name is 1 to 100 characters' });
      }
      checkPositiveInt(errors, `${at}priceGroup`, c.priceGroup, 9999);
      if (c.customerGroup != null) checkCode(errors, `${at}customerGroup`, c.customerGroup);
      checkCurrency(errors, `${at}currency`, c.currency);
      checkBp(errors, `${at}discountBp`, c.discountBp ?? 0);
    }
    fail(errors);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      const at = this.now().toISOString();
      const wanted = (scn: number): CustomerRow[] =>
        inputs.map((c) => ({
          customer_no: c.customerNo,
          name: c.name.trim(),
          price_group: c.priceGroup,
          customer_group: c.customerGroup ?? null,
          currency: c.currency,
          discount_bp: c.discountBp ?? 0,
          active: c.active === false ? 0 : 1,
          deleted: 0,
          scn,
          created_at: at,
          updated_at: at,
        }));
      const changedOf = async () => {
        const stored = new Map(
          (await repo.findCustomers(inputs.map((c) => c.customerNo))).map((r) => [r.customer_no, r]),
        );
        return wanted(0).filter((w) => {
          const s = stored.get(w.customer_no);
          return !s || !sameRow(w, s, ['scn', 'created_at', 'updated_at']);
        });
      };
      if ((await changedOf()).length === 0) return { scn: null, changed: 0 };
      const scn = await uow.scn();
      const changed = new Set((await changedOf()).map((c) => c.customer_no));
      for (const row of wanted(scn)) if (changed.has(row.customer_no)) await repo.upsertCustomer(row);
      return { scn, changed: changed.size };
    });
  }

  /** Deletes a customer (the row stays as the tombstone); its agreements and line discounts stay. */
  async deleteCustomer(customerNo: number): Promise<WriteResult> {
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      const row = await repo.findCustomer(customerNo);
      if (!row || row.deleted === 1)
        throw new NotFoundError('CUSTOMER_NOT_FOUND', `No customer ${customerNo}.`);
      const scn = await uow.scn();
      if (!(await repo.softDeleteCustomer(customerNo, scn, this.now().toISOString()))) {
        throw new NotFoundError('CUSTOMER_NOT_FOUND', `No customer ${customerNo}.`);
      }
      return { scn, changed: 1 };
    });
  }

  /**
   * Sets list prices, many rows per call, in one transaction (all or none). A row whose price is
   * already stored is skipped; a call that changes nothing does not move the SCN. Every article
   * must exist (not deleted) and have the size.
   */
  async setListPrices(inputs: ListPriceInput[]): Promise<WriteResult> {
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    for (const [i, p] of inputs.entries()) {
      checkListPriceKey(errors, `${i}/`, p);
      checkMinor(errors, `${i}/priceMinor`, p.priceMinor);
      const key = priceKey(toKeyRow(p));
      if (seen.has(key)) errors.push({ name: `${i}`, message: 'the same price is given twice' });
      seen.add(key);
      if (errors.length > 20) break;
    }
    fail(errors);
    if (inputs.length === 0) return { scn: null, changed: 0 };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      const articleNos = [...new Set(inputs.map((p) => p.articleNo))];
      const sizes = await repo.sizesOfArticles(articleNos);
      const missing: FieldError[] = [];
      for (const [i, p] of inputs.entries()) {
        const ofArticle = sizes.get(p.articleNo);
        if (!ofArticle) missing.push({ name: `${i}/articleNo`, message: `no article "${p.articleNo}"` });
        else if (!ofArticle.has(p.sizex))
          missing.push({ name: `${i}/sizex`, message: `article "${p.articleNo}" has no size "${p.sizex}"` });
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
    const errors: FieldError[] = [];
    for (const [i, k] of keys.entries()) checkListPriceKey(errors, `${i}/`, k);
    fail(errors);
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
   * Creates an agreement, or updates the live one with the same key (customer or group, scope,
   * value, quantity break, start date): what an import of agreements needs to be repeatable.
   */
  async saveAgreement(input: AgreementInput): Promise<WriteResult & { id: number }> {
    const { row } = this.#agreementRow(input);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      const found = await repo.agreementIdByKey(row);
      if (found !== undefined && !(await this.#agreementDiffers(repo, found, input))) {
        return { id: found, scn: null, changed: 0 };
      }
      // Under the SCN lock writers are serialised: look again, so two imports of the same new
      // agreement cannot both create it.
      await uow.scn();
      const id = await repo.agreementIdByKey(row);
      if (id === undefined) return this.#createAgreementIn(uow, input);
      return { id, ...(await this.#updateAgreementIn(uow, id, input)) };
    });
  }

  /** Creates a price agreement; returns its id. */
  createAgreement(input: AgreementInput): Promise<WriteResult & { id: number }> {
    return inWriteTransaction(this.database, (uow) => this.#createAgreementIn(uow, input));
  }

  /** Replaces an agreement's terms; unchanged terms leave it (and the SCN) alone. */
  async updateAgreement(id: number, input: AgreementInput): Promise<WriteResult> {
    return inWriteTransaction(this.database, async (uow) => {
      if (!(await this.#agreementDiffers(new PricingRepository(uow.db), id, input))) {
        return { scn: null, changed: 0 };
      }
      return this.#updateAgreementIn(uow, id, input);
    });
  }

  async #createAgreementIn(uow: UnitOfWork, input: AgreementInput): Promise<WriteResult & { id: number }> {
    const { row, prices } = this.#agreementRow(input);
    const repo = new PricingRepository(uow.db);
    await this.#checkAgreementRefs(repo, input);
    const scn = await uow.scn();
    const id = await repo.insertAgreement({ ...row, scn });
    await repo.replaceAgreementPrices(id, prices);
    return { id, scn, changed: 1 };
  }

  async #agreementDiffers(repo: PricingRepository, id: number, input: AgreementInput): Promise<boolean> {
    const { row, prices } = this.#agreementRow(input);
    const stored = await repo.findAgreement(id);
    if (!stored || stored.deleted === 1)
      throw new NotFoundError('AGREEMENT_NOT_FOUND', `No price agreement ${id}.`);
    const storedPrices = await repo.agreementPrices([id]);
    return (
      !sameRow({ ...row, id, scn: 0 }, stored, ['scn', 'created_at', 'updated_at']) ||
      !samePrices(storedPrices, prices)
    );
  }

  async #updateAgreementIn(uow: UnitOfWork, id: number, input: AgreementInput): Promise<WriteResult> {
    const { row, prices } = this.#agreementRow(input);
    const repo = new PricingRepository(uow.db);
    await this.#checkAgreementRefs(repo, input);
    const scn = await uow.scn();
    // Checked again under the SCN lock: another writer may have made the same change meanwhile.
    if (!(await this.#agreementDiffers(repo, id, input))) return { scn, changed: 0 };
    const { created_at, ...changes } = row;
    await repo.updateAgreement(id, { ...changes, scn });
    await repo.replaceAgreementPrices(id, prices);
    return { scn, changed: 1 };
  }

  deleteAgreement(id: number): Promise<WriteResult> {
    return this.#softDelete('AGREEMENT_NOT_FOUND', `No price agreement ${id}.`, (repo) => ({
      find: () => repo.findAgreement(id),
      update: (scn, at) => repo.updateAgreementFlags(id, scn, at),
    }));
  }

  async createLineDiscount(input: LineDiscountInput): Promise<WriteResult & { id: number }> {
    const row = this.#lineDiscountRow(input);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      await this.#checkCustomerRef(repo, input.customerNo);
      const scn = await uow.scn();
      const id = await repo.insertLineDiscount({ ...row, scn });
      return { id, scn, changed: 1 };
    });
  }

  async updateLineDiscount(id: number, input: LineDiscountInput): Promise<WriteResult> {
    const row = this.#lineDiscountRow(input);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      const differs = async () => {
        const stored = await repo.findLineDiscount(id);
        if (!stored || stored.deleted === 1)
          throw new NotFoundError('LINE_DISCOUNT_NOT_FOUND', `No line discount ${id}.`);
        return !sameRow({ ...row, id, scn: 0 }, stored, ['scn', 'created_at', 'updated_at']);
      };
      if (!(await differs())) return { scn: null, changed: 0 };
      await this.#checkCustomerRef(repo, input.customerNo);
      const scn = await uow.scn();
      if (!(await differs())) return { scn, changed: 0 };
      const { created_at, ...changes } = row;
      await repo.updateLineDiscount(id, { ...changes, scn });
      return { scn, changed: 1 };
    });
  }

  deleteLineDiscount(id: number): Promise<WriteResult> {
    return this.#softDelete('LINE_DISCOUNT_NOT_FOUND', `No line discount ${id}.`, (repo) => ({
      find: () => repo.findLineDiscount(id),
      update: (scn, at) => repo.updateLineDiscountFlags(id, scn, at),
    }));
  }

  /** Creates an action price; one running at the same time for the same article, size and currency is a conflict. */
  async createActionPrice(input: ActionPriceInput): Promise<WriteResult & { id: number }> {
    const row = this.#actionPriceRow(input);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      await this.#checkActionArticle(repo, input);
      const scn = await uow.scn();
      await this.#checkNoOverlap(repo, row, null);
      const id = await repo.insertActionPrice({ ...row, scn });
      return { id, scn, changed: 1 };
    });
  }

  async updateActionPrice(id: number, input: ActionPriceInput): Promise<WriteResult> {
    const row = this.#actionPriceRow(input);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      const differs = async () => {
        const stored = await repo.findActionPrice(id);
        if (!stored || stored.deleted === 1)
          throw new NotFoundError('ACTION_PRICE_NOT_FOUND', `No action price ${id}.`);
        return !sameRow({ ...row, id, scn: 0 }, stored, ['scn', 'created_at', 'updated_at']);
      };
      if (!(await differs())) return { scn: null, changed: 0 };
      await this.#checkActionArticle(repo, input);
      const scn = await uow.scn();
      if (!(await differs())) return { scn, changed: 0 };
      await this.#checkNoOverlap(repo, row, id);
      const { created_at, ...changes } = row;
      await repo.updateActionPrice(id, { ...changes, scn });
      return { scn, changed: 1 };
    });
  }

  deleteActionPrice(id: number): Promise<WriteResult> {
    return this.#softDelete('ACTION_PRICE_NOT_FOUND', `No action price ${id}.`, (repo) => ({
      find: () => repo.findActionPrice(id),
      update: (scn, at) => repo.updateActionPriceFlags(id, scn, at),
    }));
  }

  // --- validation and row building ---------------------------------------------------------------

  #agreementRow(input: AgreementInput) {
    const errors: FieldError[] = [];
    const hasCustomer = input.customerNo !== undefined && input.customerNo !== null;
    const hasGroup = input.customerGroup !== undefined && input.customerGroup !== null;
    if (hasCustomer === hasGroup) {
      errors.push({ name: 'customerNo', message: 'give either a customer number or a customer group' });
    }
    if (hasCustomer) checkPositiveInt(errors, 'customerNo', input.customerNo);
    if (hasGroup) checkCode(errors, 'customerGroup', input.customerGroup);
    if (!['ARTICLE', 'MODEL', 'ARTICLEGROUP'].includes(input.scope)) {
      errors.push({ name: 'scope', message: 'is ARTICLE, MODEL or ARTICLEGROUP' });
    }
    checkCode(errors, 'scopeValue', input.scopeValue);
    checkPositiveInt(errors, 'minQuantity', input.minQuantity ?? 1, MAX_QUANTITY);
    checkPeriod(errors, input.validFrom, input.validTo ?? null);
    const hasDiscount = input.discountBp !== undefined && input.discountBp !== null;
    const netPrices = Object.entries(input.netPrices ?? {});
    if (hasDiscount === netPrices.length > 0) {
      errors.push({ name: 'discountBp', message: 'give either a discount or net prices per currency' });
    }
    if (hasDiscount) checkBp(errors, 'discountBp', input.discountBp, 1);
    for (const [currency, price] of netPrices) {
      checkCurrency(errors, `netPrices/${currency}`, currency);
      checkMinor(errors, `netPrices/${currency}`, price);
    }
    fail(errors);
    const at = this.now().toISOString();
    return {
      row: {
        customer_no: hasCustomer ? (input.customerNo as number) : null,
        customer_group: hasGroup ? (input.customerGroup as string) : null,
        scope: input.scope,
        scope_value: input.scopeValue,
        min_quantity: input.minQuantity ?? 1,
        valid_from: input.validFrom,
        valid_to: input.validTo ?? null,
        kind: hasDiscount ? ('DISCOUNT' as const) : ('NETPRICE' as const),
        discount_bp: hasDiscount ? (input.discountBp as number) : null,
        deleted: 0,
        created_at: at,
        updated_at: at,
      },
      prices: netPrices
        .map(([currency, price_minor]) => ({ currency, price_minor }))
        .sort((a, b) => (a.currency < b.currency ? -1 : 1)),
    };
  }

  #lineDiscountRow(input: LineDiscountInput) {
    const errors: FieldError[] = [];
    checkPositiveInt(errors, 'customerNo', input.customerNo);
    if (!['MODEL', 'ARTICLEGROUP'].includes(input.scope)) {
      errors.push({ name: 'scope', message: 'is MODEL or ARTICLEGROUP' });
    }
    checkCode(errors, 'scopeValue', input.scopeValue);
    checkBp(errors, 'discountBp', input.discountBp, 1);
    checkPeriod(errors, input.validFrom, input.validTo ?? null);
    fail(errors);
    const at = this.now().toISOString();
    return {
      customer_no: input.customerNo,
      scope: input.scope,
      scope_value: input.scopeValue,
      discount_bp: input.discountBp,
      valid_from: input.validFrom,
      valid_to: input.validTo ?? null,
      deleted: 0,
      created_at: at,
      updated_at: at,
    };
  }

  #actionPriceRow(input: ActionPriceInput) {
    const errors: FieldError[] = [];
    if (typeof input.articleNo !== 'string' || input.articleNo === '') {
      errors.push({ name: 'articleNo', message: 'is required' });
    }
    checkCurrency(errors, 'currency', input.currency);
    checkMinor(errors, 'priceMinor', input.priceMinor);
    checkDate(errors, 'startDate', input.startDate);
    checkDate(errors, 'endDate', input.endDate);
    if (errors.length === 0 && input.endDate < input.startDate) {
      errors.push({ name: 'endDate', message: 'is before the start date' });
    }
    fail(errors);
    const at = this.now().toISOString();
    return {
      article_no: input.articleNo,
      sizex: input.sizex ?? null,
      currency: input.currency,
      price_minor: input.priceMinor,
      start_date: input.startDate,
      end_date: input.endDate,
      deleted: 0,
      created_at: at,
      updated_at: at,
    };
  }

  async #checkCustomerRef(repo: PricingRepository, customerNo: number): Promise<void> {
    const c = await repo.findCustomer(customerNo);
    if (!c || c.deleted === 1) throw new NotFoundError('CUSTOMER_NOT_FOUND', `No customer ${customerNo}.`);
  }

  async #checkAgreementRefs(repo: PricingRepository, input: AgreementInput): Promise<void> {
    if (input.customerNo !== undefined && input.customerNo !== null) {
      await this.#checkCustomerRef(repo, input.customerNo);
    }
    if (input.scope === 'ARTICLE') {
      const a = await repo.findArticle(input.scopeValue);
      if (!a || a.deleted === 1)
        throw new NotFoundError('ARTICLE_NOT_FOUND', `No article "${input.scopeValue}".`);
    }
  }

  async #checkActionArticle(repo: PricingRepository, input: ActionPriceInput): Promise<void> {
    const sizes = (await repo.sizesOfArticles([input.articleNo])).get(input.articleNo);
    if (!sizes) throw new NotFoundError('ARTICLE_NOT_FOUND', `No article "${input.articleNo}".`);
    if (input.sizex != null && !sizes.has(input.sizex)) {
      throw new NotFoundError('SIZE_NOT_FOUND', `Article "${input.articleNo}" has no size "${input.sizex}".`);
    }
  }

  async #checkNoOverlap(
    repo: PricingRepository,
    row: Pick<ActionPriceRow, 'article_no' | 'sizex' | 'currency' | 'start_date' | 'end_date'>,
    exceptId: number | null,
  ): Promise<void> {
    const clash = await repo.overlappingActionPrices(row, exceptId);
    if (clash.length > 0) {
      throw new ConflictError(
        'ACTION_PRICE_OVERLAP',
        `Action price ${clash[0]?.id} already runs in that period for article ${row.article_no}` +
          `${row.sizex === null ? '' : ` size ${row.sizex}`} in ${row.currency}.`,
      );
    }
  }

  async #softDelete(
    code: string,
    message: string,
    of: (repo: PricingRepository) => {
      find: () => Promise<{ deleted: number } | undefined>;
      update: (scn: number, at: string) => Promise<void>;
    },
  ): Promise<WriteResult> {
    return inWriteTransaction(this.database, async (uow) => {
      const ops = of(new PricingRepository(uow.db));
      const live = async () => {
        const row = await ops.find();
        return row !== undefined && row.deleted === 0;
      };
      if (!(await live())) throw new NotFoundError(code, message);
      const scn = await uow.scn();
      if (!(await live())) throw new NotFoundError(code, message);
      await ops.update(scn, this.now().toISOString());
      return { scn, changed: 1 };
    });
  }
}

function checkListPriceKey(errors: FieldError[], at: string, k: ListPriceKey): void {
  if (typeof k.articleNo !== 'string' || k.articleNo === '')
    errors.push({ name: `${at}articleNo`, message: 'is required' });
  if (k.priceType !== 'RECOMMENDED' && k.priceType !== 'SELLING') {
    errors.push({ name: `${at}priceType`, message: 'is RECOMMENDED or SELLING' });
  }
  checkPositiveInt(errors, `${at}priceGroup`, k.priceGroup, 9999);
  checkCurrency(errors, `${at}currency`, k.currency);
  if (typeof k.sizex !== 'string' || k.sizex === '')
    errors.push({ name: `${at}sizex`, message: 'is required' });
}

function checkPeriod(errors: FieldError[], from: string, to: string | null): void {
  checkDate(errors, 'validFrom', from);
  checkDate(errors, 'validTo', to, true);
  if (to !== null && isValidDate(from) && isValidDate(to) && to < from) {
    errors.push({ name: 'validTo', message: 'is before validFrom' });
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

function samePrices(
  stored: readonly AgreementPriceRow[],
  wanted: ReadonlyArray<{ currency: string; price_minor: number }>,
): boolean {
  if (stored.length !== wanted.length) return false;
  const map = new Map(stored.map((p) => [p.currency, p.price_minor]));
  return wanted.every((p) => map.get(p.currency) === p.price_minor);
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
