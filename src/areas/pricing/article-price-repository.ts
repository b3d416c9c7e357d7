import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { compiledOnce } from '../../kernel/db/compiled-once.ts';
import type { DB } from '../../kernel/db/schema.ts';
import type { Reader } from '../../kernel/db/sqlite-reader.ts';
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
 * One row of the price read. `ARTICLE` (at most one; none when there is no such article): the
 * article's scopes and deleted flag, whether it has the size (`size_known` 1, else null) and
 * the SELLING and RECOMMENDED list prices of the price group, currency and size. In the customer
 * price read it also carries the customer's terms (`customer_no`, `customer_group`, `discount_bp`,
 * `price_group`, `active`, `customer_deleted`, and `currency`: the asked one, else the customer's),
 * and it is there (article columns null) whenever the customer is, and only then. `AGREEMENT`: a
 * live agreement of the customer or its group for the article, its model or its article group,
 * with its net price in the currency (null: none, or a discount agreement). `LINE_DISCOUNT`: a live
 * line discount of the customer for the article's model or article group.
 */
export interface PriceFactRow {
  kind: 'ARTICLE' | 'AGREEMENT' | 'LINE_DISCOUNT';
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
  customer_deleted: number | null;
}

/** The one row of the customer price read's `k`: the customer's terms and the article's scopes. */
interface KeyRow {
  article_no: string | null;
  model_no: string | null;
  article_group: string | null;
  deleted: number | null;
  customer_no: number;
  customer_group: string | null;
  price_group: number;
  currency: string;
  discount_bp: number;
  active: number;
  customer_deleted: number;
}

/** The article part's columns, null in a candidate's row. */
const candidateNulls = () => [
  none<string>().as('model_no'),
  none<string>().as('article_group'),
  none<number>().as('deleted'),
  none<number>().as('size_known'),
  none<number>().as('selling'),
  none<number>().as('recommended'),
];

const none = <T>() => sql<T | null>`null`;
/**
 * The customer's terms that only the customer price read's ARTICLE row has, null in the other rows.
 * Typed: where every part before it has a bare null, PostgreSQL takes a column for text and then
 * refuses a later part's integer.
 */
const absentTerms = () => [
  sql<number | null>`cast(null as integer)`.as('price_group'),
  none<string>().as('currency'),
  sql<number | null>`cast(null as integer)`.as('active'),
  sql<number | null>`cast(null as integer)`.as('customer_deleted'),
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
 * docs/pricing.md, "Resolution"): the customer's terms (customerPriceFacts; given as values to
 * priceFacts), the article with its size and list prices, the candidate agreements and the
 * candidate line discounts, as the rows of one UNION ALL. Every part is an
 * index read: the article and its size by key (the catalogue's fragments), the list prices by
 * primary key, agreements by (scope, value), line discounts by customer.
 */
export class ArticlePriceRepository {
  readonly db: Kysely<DB>;
  readonly #priceFacts: (q: PriceFactsQuery) => CompiledQuery<PriceFactRow>;
  readonly #customerPriceFacts: (q: CustomerPriceFactsQuery) => CompiledQuery<PriceFactRow>;

  constructor(db: Kysely<DB>) {
    this.db = db;
    this.#priceFacts = compiledOnce(PRICE_FACTS_KEYS, (q) => this.#priceFactsQuery(q));
    this.#customerPriceFacts = compiledOnce(CUSTOMER_PRICE_FACTS_KEYS, (q) =>
      this.#customerPriceFactsQuery(q),
    );
  }

  /** The article's price facts for terms given as values (a customer already read, or none). */
  async priceFacts(q: PriceFactsQuery): Promise<PriceFactRow[]> {
    return (await this.db.executeQuery(this.#priceFacts(q))).rows;
  }

  /**
   * The customer's terms (in the ARTICLE row) and the article's price facts under them, in one
   * statement: B2B_GetArticlePrice's whole read. A second statement for the terms cost as much again
   * as this one (a request's driver and Kysely work, and on PostgreSQL a round trip), and the terms
   * read in the same statement are never stale. With a `reader` (outside any transaction only) the
   * statement runs where it says: on SQLite, the reader thread (sqlite-reader.ts).
   */
  async customerPriceFacts(q: CustomerPriceFactsQuery, reader?: Reader): Promise<PriceFactRow[]> {
    const query = this.#customerPriceFacts(q);
    return reader ? reader.rows(query) : (await this.db.executeQuery(query)).rows;
  }

  /**
   * The customer and the article are each read once, as the one row of `k` (the customers area's
   * and the catalogue's fragments, the article left-joined by its key), which every part reads
   * from: the article part adds the size and the list prices in the terms' price group and
   * currency (the asked one, else the customer's), the candidates are joined to it by scope value
   * and customer or group. Scalar subqueries in each part instead read the customer six times and
   * the article five (PostgreSQL runs each as a plan of its own). No customer: no row at all.
   */
  #customerPriceFactsQuery(q: CustomerPriceFactsQuery) {
    const db = this.db.withTables<{ k: KeyRow }>();
    const k = this.db
      .selectFrom(customerTermsFragment(this.db).as('c'))
      .leftJoin(articleScopes(this.db).as('a'), (join) => join.on('a.article_no', '=', q.articleNo))
      .select([
        'a.article_no',
        'a.model_no',
        'a.article_group',
        'a.deleted',
        'c.customer_no',
        'c.customer_group',
        'c.price_group',
        sql<string>`coalesce(${q.currency}, ${sql.ref('c.currency')})`.as('currency'),
        'c.discount_bp',
        'c.active',
        'c.deleted as customer_deleted',
      ])
      .where('c.customer_no', '=', q.customerNo);
    const article = this.db
      .with('k', () => k)
      .selectFrom('k')
      .select((eb) => {
        const listPrice = (type: 'SELLING' | 'RECOMMENDED') =>
          eb
            .selectFrom('list_price as p')
            .select('p.price_minor')
            .whereRef('p.article_no', '=', 'k.article_no')
            .where('p.price_type', '=', type)
            .whereRef('p.price_group', '=', 'k.price_group')
            .whereRef('p.currency', '=', 'k.currency')
            .where('p.sizex', '=', q.sizex)
            .where('p.deleted', '=', 0);
        return [
          sql<PriceFactRow['kind']>`'ARTICLE'`.as('kind'),
          'k.model_no',
          'k.article_group',
          'k.deleted',
          eb
            .selectFrom(articleSizePositions(this.db).as('s'))
            .select(sql<number>`1`.as('known'))
            .whereRef('s.article_no', '=', 'k.article_no')
            .where('s.sizex', '=', q.sizex)
            .as('size_known'),
          listPrice('SELLING').as('selling'),
          listPrice('RECOMMENDED').as('recommended'),
          none<number>().as('id'),
          'k.customer_no',
          'k.customer_group',
          none<PriceScope>().as('scope'),
          none<string>().as('scope_value'),
          none<number>().as('min_quantity'),
          none<string>().as('valid_from'),
          none<string>().as('valid_to'),
          'k.discount_bp',
          none<number>().as('net_price'),
          'k.price_group',
          'k.currency',
          'k.active',
          'k.customer_deleted',
        ];
      })
      .$castTo<PriceFactRow>();
    // Candidates may be read for a value in another scope (an article number equal to a model
    // number): resolvePrice matches scope and value itself.
    const agreements = db
      .selectFrom(['k', 'price_agreement as g'])
      .select((eb) => [
        sql<PriceFactRow['kind']>`'AGREEMENT'`.as('kind'),
        ...candidateNulls(),
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
          .whereRef('gp.currency', '=', 'k.currency')
          .as('net_price'),
        ...absentTerms(),
      ])
      .where('g.scope', 'in', [scope('ARTICLE'), scope('MODEL'), scope('ARTICLEGROUP')])
      .where((eb) =>
        eb('g.scope_value', 'in', [eb.ref('k.article_no'), eb.ref('k.model_no'), eb.ref('k.article_group')]),
      )
      .where('g.deleted', '=', sql.lit(0))
      .where((eb) =>
        eb.or([
          eb('g.customer_no', '=', eb.ref('k.customer_no')),
          // a customer without a group: `= null` holds for no row
          eb('g.customer_group', '=', eb.ref('k.customer_group')),
        ]),
      )
      .$castTo<PriceFactRow>();
    const lineDiscounts = db
      .selectFrom(['k', 'customer_line_discount as d'])
      .select([
        sql<PriceFactRow['kind']>`'LINE_DISCOUNT'`.as('kind'),
        ...candidateNulls(),
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
      .whereRef('d.customer_no', '=', 'k.customer_no')
      .where('d.scope', 'in', [scope('MODEL'), scope('ARTICLEGROUP')])
      .where((eb) => eb('d.scope_value', 'in', [eb.ref('k.model_no'), eb.ref('k.article_group')]))
      .where('d.deleted', '=', sql.lit(0))
      .$castTo<PriceFactRow>();
    return article.unionAll(agreements).unionAll(lineDiscounts);
  }

  #priceFactsQuery(q: PriceFactsQuery) {
    const article = this.db
      .selectFrom(articleScopes(this.db).as('a'))
      .select((eb) => {
        const listPrice = (type: 'SELLING' | 'RECOMMENDED') =>
          eb
            .selectFrom('list_price as p')
            .select('p.price_minor')
            .whereRef('p.article_no', '=', 'a.article_no')
            .where('p.price_type', '=', type)
            .where('p.price_group', '=', q.priceGroup)
            .where('p.currency', '=', q.currency)
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
          .where('gp.currency', '=', q.currency)
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
          eb('g.customer_no', '=', q.customerNo),
          // a customer without a group: `= null` holds for no row
          eb('g.customer_group', '=', q.customerGroup),
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
      .where('d.customer_no', '=', q.customerNo)
      .where('d.scope', 'in', [scope('MODEL'), scope('ARTICLEGROUP')])
      .where((eb) => eb('d.scope_value', 'in', [scopeOf('model_no'), scopeOf('article_group')]))
      .where('d.deleted', '=', sql.lit(0))
      .$castTo<PriceFactRow>();
    return article.unionAll(agreements).unionAll(lineDiscounts);
  }
}
