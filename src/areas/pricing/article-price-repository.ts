import { type CompiledQuery, type Expression, type Kysely, sql } from 'kysely';
import { compiledOnce } from '../../kernel/db/compiled-once.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { articleScopes, articleSizePositions } from '../catalog/index.ts';
import { customerTermsFragment } from '../customers/index.ts';
import type { PriceScope } from './tables.ts';

/** What the price of one article size for one customer is read for (the customer already read). */
export interface PriceFactsQuery {
  articleNo: string;
  sizex: string;
  customerNo: number;
  customerGroup: string | null;
  priceGroup: number;
  currency: string;
}

/** The price of one article size for a customer read with the customer's terms (one statement). */
export interface CustomerPriceFactsQuery {
  articleNo: string;
  sizex: string;
  customerNo: number;
  /** null: the customer's own currency. */
  currency: string | null;
}

/**
 * One row of the price read. `CUSTOMER` (the customer price read only; at most one, none when there
 * is no such customer): the customer's terms, with `currency` the asked one or else the customer's.
 * `ARTICLE` (at most one; none when there is no such article): the
 * article's scopes and deleted flag, whether it has the size (`size_known` 1, else null) and
 * the SELLING and RECOMMENDED list prices of the price group, currency and size. `AGREEMENT`: a
 * live agreement of the customer or its group for the article, its model or its article group,
 * with its net price in the currency (null: none, or a discount agreement). `LINE_DISCOUNT`: a live
 * line discount of the customer for the article's model or article group.
 */
export interface PriceFactRow {
  kind: 'CUSTOMER' | 'ARTICLE' | 'AGREEMENT' | 'LINE_DISCOUNT';
  model_no: string | null;
  article_group: string | null;
  deleted: number | null;
  size_known: number | null;
  selling: number | null;
  recommended: number | null;
  id: number | null;
  customer_no: number | null;
  customer_group: string | null;
  scope: PriceScope | null;
  scope_value: string | null;
  min_quantity: number | null;
  valid_from: string | null;
  valid_to: string | null;
  discount_bp: number | null;
  net_price: number | null;
  price_group: number | null;
  currency: string | null;
  active: number | null;
}

/** The customer's side of the read: values, or (customer price read) the customer's own terms in SQL. */
interface Terms {
  customerNo: Expression<number>;
  customerGroup: Expression<string | null>;
  priceGroup: Expression<number>;
  currency: Expression<string>;
}

const none = <T>() => sql<T | null>`null`;
/**
 * The CUSTOMER row's own columns, null in the other parts. Typed: PostgreSQL gives a column that is
 * null in all the parts before the last one the type text, and then refuses the last part's integer.
 */
const absentTerms = () => [
  sql<number | null>`cast(null as integer)`.as('price_group'),
  none<string>().as('currency'),
  sql<number | null>`cast(null as integer)`.as('active'),
];
/** A scope written into the SQL: constants stay out of the bound values. */
const scope = (value: PriceScope) => sql.lit<PriceScope>(value);

const PRICE_FACTS_KEYS = [
  'articleNo',
  'sizex',
  'customerNo',
  'customerGroup',
  'priceGroup',
  'currency',
] as const satisfies ReadonlyArray<keyof PriceFactsQuery>;

const CUSTOMER_PRICE_FACTS_KEYS = [
  'articleNo',
  'sizex',
  'customerNo',
  'currency',
] as const satisfies ReadonlyArray<keyof CustomerPriceFactsQuery>;

/**
 * The price of an article for a customer read in one statement (B2B_GetArticlePrice and orders;
 * docs/pricing.md, "Resolution"): the article with its size and list prices, the candidate
 * agreements and the candidate line discounts, as the rows of one UNION ALL. Every part is an
 * index read: the article and its size by key (the catalogue's fragments), the list prices by
 * primary key, agreements by (scope, value), line discounts by customer.
 */
export class ArticlePriceRepository {
  readonly db: Kysely<DB>;
  readonly #priceFacts: (q: PriceFactsQuery) => CompiledQuery<PriceFactRow>;
  readonly #customerPriceFacts: (q: CustomerPriceFactsQuery) => CompiledQuery<PriceFactRow>;

  constructor(db: Kysely<DB>) {
    this.db = db;
    this.#priceFacts = compiledOnce(PRICE_FACTS_KEYS, (q) =>
      this.#priceFactsQuery(q, {
        customerNo: sql.val(q.customerNo),
        customerGroup: sql.val(q.customerGroup),
        priceGroup: sql.val(q.priceGroup),
        currency: sql.val(q.currency),
      }),
    );
    this.#customerPriceFacts = compiledOnce(CUSTOMER_PRICE_FACTS_KEYS, (q) =>
      this.#customerPriceFactsQuery(q),
    );
  }

  /** The article's price facts for terms given as values (a customer already read, or none). */
  async priceFacts(q: PriceFactsQuery): Promise<PriceFactRow[]> {
    return (await this.db.executeQuery(this.#priceFacts(q))).rows;
  }

  /**
   * The customer's terms (the `CUSTOMER` row) and the article's price facts under them, in one
   * statement: B2B_GetArticlePrice's whole read. A second statement for the terms cost as much again
   * as this one (a request's driver and Kysely work, and on PostgreSQL a round trip), and the terms
   * read in the same statement are never stale.
   */
  async customerPriceFacts(q: CustomerPriceFactsQuery): Promise<PriceFactRow[]> {
    return (await this.db.executeQuery(this.#customerPriceFacts(q))).rows;
  }

  /**
   * The customer's terms enter the candidates' parts as scalar subqueries of the customers area's
   * fragment (each run once per statement, a read by primary key), so the price parts are those of
   * `priceFacts`; the currency is the asked one, else the customer's.
   */
  #customerPriceFactsQuery(q: CustomerPriceFactsQuery) {
    const term = <C extends 'customer_group' | 'price_group' | 'currency'>(column: C) =>
      this.db
        .selectFrom(customerTermsFragment(this.db).as('t'))
        .select(`t.${column}` as `t.${C}`)
        .where('t.customer_no', '=', q.customerNo)
        .$asScalar();
    const currency = sql<string>`coalesce(${q.currency}, ${term('currency')})`;
    const customer = this.db
      .selectFrom(customerTermsFragment(this.db).as('c'))
      .select([
        sql<PriceFactRow['kind']>`'CUSTOMER'`.as('kind'),
        none<string>().as('model_no'),
        none<string>().as('article_group'),
        'c.deleted',
        none<number>().as('size_known'),
        none<number>().as('selling'),
        none<number>().as('recommended'),
        none<number>().as('id'),
        'c.customer_no',
        'c.customer_group',
        none<PriceScope>().as('scope'),
        none<string>().as('scope_value'),
        none<number>().as('min_quantity'),
        none<string>().as('valid_from'),
        none<string>().as('valid_to'),
        'c.discount_bp',
        none<number>().as('net_price'),
        'c.price_group',
        sql<string>`coalesce(${q.currency}, ${sql.ref('c.currency')})`.as('currency'),
        'c.active',
      ])
      .where('c.customer_no', '=', q.customerNo)
      .$castTo<PriceFactRow>();
    // the customer's row last: its nulls take the types of the parts before it
    return this.#priceFactsQuery(q, {
      customerNo: sql.val(q.customerNo),
      customerGroup: term('customer_group'),
      priceGroup: term('price_group'),
      currency,
    }).unionAll(customer);
  }

  #priceFactsQuery(q: { articleNo: string; sizex: string }, terms: Terms) {
    const article = this.db
      .selectFrom(articleScopes(this.db).as('a'))
      .select((eb) => {
        const listPrice = (type: 'SELLING' | 'RECOMMENDED') =>
          eb
            .selectFrom('list_price as p')
            .select('p.price_minor')
            .whereRef('p.article_no', '=', 'a.article_no')
            .where('p.price_type', '=', type)
            .where('p.price_group', '=', terms.priceGroup)
            .where('p.currency', '=', terms.currency)
            .where('p.sizex', '=', q.sizex)
            .where('p.deleted', '=', 0);
        return [
          sql<PriceFactRow['kind']>`'ARTICLE'`.as('kind'),
          'a.model_no',
          'a.article_group',
          'a.deleted',
          // 1 when the article has the size: its key only, which the key's index holds
          eb
            .selectFrom(articleSizePositions(this.db).as('s'))
            .select(sql<number>`1`.as('known'))
            .whereRef('s.article_no', '=', 'a.article_no')
            .where('s.sizex', '=', q.sizex)
            .as('size_known'),
          listPrice('SELLING').as('selling'),
          listPrice('RECOMMENDED').as('recommended'),
          none<number>().as('id'),
          none<number>().as('customer_no'),
          none<string>().as('customer_group'),
          none<PriceScope>().as('scope'),
          none<string>().as('scope_value'),
          none<number>().as('min_quantity'),
          none<string>().as('valid_from'),
          none<string>().as('valid_to'),
          none<number>().as('discount_bp'),
          none<number>().as('net_price'),
          ...absentTerms(),
        ];
      })
      .where('a.article_no', '=', q.articleNo)
      .$castTo<PriceFactRow>();
    // The article's model and article group, for the candidates' scopes: scalar subqueries, so
    // each part reads one table (fewer relations to plan on PostgreSQL, and no join whose bound
    // values make SQLite prepare the statement again at every run).
    const scopeOf = (column: 'model_no' | 'article_group') =>
      this.db
        .selectFrom(articleScopes(this.db).as('o'))
        .select(`o.${column}`)
        .where('o.article_no', '=', q.articleNo);
    // Candidates may be read for a value in another scope (an article number equal to a model
    // number): resolvePrice matches scope and value itself.
    const agreements = this.db
      .selectFrom('price_agreement as g')
      .select((eb) => [
        sql<PriceFactRow['kind']>`'AGREEMENT'`.as('kind'),
        none<string>().as('model_no'),
        none<string>().as('article_group'),
        none<number>().as('deleted'),
        none<number>().as('size_known'),
        none<number>().as('selling'),
        none<number>().as('recommended'),
        'g.id',
        'g.customer_no',
        'g.customer_group',
        'g.scope',
        'g.scope_value',
        'g.min_quantity',
        'g.valid_from',
        'g.valid_to',
        'g.discount_bp',
        eb
          .selectFrom('price_agreement_price as gp')
          .select('gp.price_minor')
          .whereRef('gp.agreement_id', '=', 'g.id')
          .where('gp.currency', '=', terms.currency)
          .as('net_price'),
        ...absentTerms(),
      ])
      .where('g.scope', 'in', [scope('ARTICLE'), scope('MODEL'), scope('ARTICLEGROUP')])
      .where((eb) =>
        eb('g.scope_value', 'in', [eb.val(q.articleNo), scopeOf('model_no'), scopeOf('article_group')]),
      )
      .where('g.deleted', '=', sql.lit(0))
      .where((eb) =>
        eb.or([
          eb('g.customer_no', '=', terms.customerNo),
          // a customer without a group: `= null` holds for no row
          eb('g.customer_group', '=', terms.customerGroup),
        ]),
      )
      .$castTo<PriceFactRow>();
    const lineDiscounts = this.db
      .selectFrom('customer_line_discount as d')
      .select([
        sql<PriceFactRow['kind']>`'LINE_DISCOUNT'`.as('kind'),
        none<string>().as('model_no'),
        none<string>().as('article_group'),
        none<number>().as('deleted'),
        none<number>().as('size_known'),
        none<number>().as('selling'),
        none<number>().as('recommended'),
        'd.id',
        'd.customer_no',
        none<string>().as('customer_group'),
        'd.scope',
        'd.scope_value',
        none<number>().as('min_quantity'),
        'd.valid_from',
        'd.valid_to',
        'd.discount_bp',
        none<number>().as('net_price'),
        ...absentTerms(),
      ])
      .where('d.customer_no', '=', terms.customerNo)
      .where('d.scope', 'in', [scope('MODEL'), scope('ARTICLEGROUP')])
      .where((eb) => eb('d.scope_value', 'in', [scopeOf('model_no'), scopeOf('article_group')]))
      .where('d.deleted', '=', sql.lit(0))
      .$castTo<PriceFactRow>();
    return article.unionAll(agreements).unionAll(lineDiscounts);
  }
}
