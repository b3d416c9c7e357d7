import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { compiledOnce } from '../../kernel/db/compiled-once.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { articleScopes, articleSizePositions } from '../catalog/index.ts';
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

/**
 * One row of the price read. `ARTICLE` (at most one; none when there is no such article): the
 * article's scopes and deleted flag, the size's position (null: the article has no such size) and
 * the SELLING and RECOMMENDED list prices of the price group, currency and size. `AGREEMENT`: a
 * live agreement of the customer or its group for the article, its model or its article group,
 * with its net price in the currency (null: none, or a discount agreement). `LINE_DISCOUNT`: a live
 * line discount of the customer for the article's model or article group.
 */
export interface PriceFactRow {
  kind: 'ARTICLE' | 'AGREEMENT' | 'LINE_DISCOUNT';
  model_no: string | null;
  article_group: string | null;
  deleted: number | null;
  size_position: number | null;
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
}

const none = <T>() => sql<T | null>`null`;
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

  constructor(db: Kysely<DB>) {
    this.db = db;
    this.#priceFacts = compiledOnce(PRICE_FACTS_KEYS, (q) => this.#priceFactsQuery(q));
  }

  async priceFacts(q: PriceFactsQuery): Promise<PriceFactRow[]> {
    return (await this.db.executeQuery(this.#priceFacts(q))).rows;
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
          eb
            .selectFrom(articleSizePositions(this.db).as('s'))
            .select('s.position')
            .whereRef('s.article_no', '=', 'a.article_no')
            .where('s.sizex', '=', q.sizex)
            .as('size_position'),
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
        none<number>().as('size_position'),
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
        none<number>().as('size_position'),
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
      ])
      .where('d.customer_no', '=', q.customerNo)
      .where('d.scope', 'in', [scope('MODEL'), scope('ARTICLEGROUP')])
      .where((eb) => eb('d.scope_value', 'in', [scopeOf('model_no'), scopeOf('article_group')]))
      .where('d.deleted', '=', sql.lit(0))
      .$castTo<PriceFactRow>();
    return article.unionAll(agreements).unionAll(lineDiscounts);
  }
}
