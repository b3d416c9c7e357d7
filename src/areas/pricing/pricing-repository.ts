import type { Kysely } from 'kysely';
import { changedAfter } from '../../kernel/db/feed-sql.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { articleFlags, articleScopes } from '../catalog/index.ts';
import type {
  ActionPriceTable,
  CustomerLineDiscountTable,
  ListPriceTable,
  PriceAgreementTable,
  PriceArticleTable,
} from './tables.ts';

/** A list price as written and compared (its paging position is the database's: tables.ts). */
export type ListPriceRow = Omit<ListPriceTable, 'pos'>;
/** A row of a page: with its stable paging position (docs/architecture.md, "Paging"). */
export type Positioned<R> = R & { pos: number };
export type PriceArticleRow = PriceArticleTable;
/** A live list price as B2B_GetAllPrices shows it. */
export type LivePriceRow = Pick<
  ListPriceRow,
  'article_no' | 'price_type' | 'price_group' | 'currency' | 'sizex' | 'price_minor'
>;
export type AgreementRow = Omit<PriceAgreementTable, 'id' | 'pos'> & { id: number };
export type LineDiscountRow = Omit<CustomerLineDiscountTable, 'id' | 'pos'> & { id: number };
export type ActionPriceRow = Omit<ActionPriceTable, 'id' | 'pos'> & { id: number };
export type AgreementPriceRow = { agreement_id: number; currency: string; price_minor: number };

/** An action price with the retail visibility of its article. */
export type ActionPriceListRow = Positioned<ActionPriceRow> & {
  article_scn: number;
  article_deleted: number;
  retail: number;
  active: number;
};

/** The columns of a list price row (not its paging position). */
const LIST_PRICE_COLUMNS = [
  'article_no',
  'price_type',
  'price_group',
  'currency',
  'sizex',
  'price_minor',
  'deleted',
  'scn',
] as const;

/** Rows per multi-row INSERT and keys per IN list: well below both engines' parameter limits. */
const INSERT_CHUNK = 500;
const IN_CHUNK = 1000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Every SQL statement of the pricing area but the price read (article-price-repository.ts). */
export class PricingRepository {
  /** `db`: the connection or transaction it runs on (the catalogue's reads join it: pricing-shared.ts). */
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  // --- list prices ------------------------------------------------------------------------------

  /** Every list price row (deleted ones included) of the given articles. */
  async listPricesOf(articleNos: readonly string[]): Promise<ListPriceRow[]> {
    const out: ListPriceRow[] = [];
    for (const part of chunks(articleNos, IN_CHUNK)) {
      out.push(
        ...(await this.db
          .selectFrom('list_price')
          .select(LIST_PRICE_COLUMNS)
          .where('article_no', 'in', part)
          .execute()),
      );
    }
    return out;
  }

  /** Inserts or replaces list price rows (a row with deleted = 1 is a tombstone). */
  async upsertListPrices(rows: readonly ListPriceRow[]): Promise<void> {
    for (const part of chunks(rows, INSERT_CHUNK)) {
      await this.db
        .insertInto('list_price')
        .values(part)
        .onConflict((oc) =>
          oc.columns(['article_no', 'price_type', 'price_group', 'currency', 'sizex']).doUpdateSet((eb) => ({
            price_minor: eb.ref('excluded.price_minor'),
            deleted: eb.ref('excluded.deleted'),
            scn: eb.ref('excluded.scn'),
          })),
        )
        .execute();
    }
  }

  /**
   * Brings the per-article rows B2B_GetAllPrices pages by up to date for articles whose prices
   * changed, one statement per chunk: stamped with `scn`, flagged deleted when no live price is
   * left; a new row takes the article's own paging position (the catalogue's), an existing one
   * keeps it.
   */
  async refreshPriceArticles(articleNos: readonly string[], scn: number): Promise<void> {
    for (const part of chunks(articleNos, INSERT_CHUNK)) {
      await this.db
        .insertInto('price_article')
        .columns(['article_no', 'deleted', 'scn', 'pos'])
        .expression((eb) =>
          eb
            .selectFrom(articleScopes(this.db).as('a'))
            .select((s) => [
              'a.article_no',
              s
                .case()
                .when(
                  s.exists(
                    s
                      .selectFrom('list_price as p')
                      .select('p.article_no')
                      .whereRef('p.article_no', '=', 'a.article_no')
                      .where('p.deleted', '=', 0),
                  ),
                )
                .then(0)
                .else(1)
                .end()
                .as('deleted'),
              s.val(scn).as('scn'),
              'a.pos',
            ])
            .where('a.article_no', 'in', part),
        )
        .onConflict((oc) =>
          oc.column('article_no').doUpdateSet((eb) => ({
            deleted: eb.ref('excluded.deleted'),
            scn: eb.ref('excluded.scn'),
          })),
        )
        .execute();
    }
  }

  /**
   * One page of the articles with prices from position `from` on, in position order: with
   * `sinceScn` > 0 those whose prices changed after it, tombstones included (the `scn` index);
   * with 0 only those with live prices (the `pos` index), so a page is full while enough remain.
   */
  priceArticlesPage(sinceScn: number, from: number, limit: number): Promise<Positioned<PriceArticleRow>[]> {
    let query = this.db
      .selectFrom('price_article')
      .select(['article_no', 'deleted', 'scn', 'pos'])
      .where('pos', '>=', from);
    query = sinceScn > 0 ? query.where(changedAfter('scn', sinceScn)) : query.where('deleted', '=', 0);
    return query.orderBy('pos').limit(limit).execute();
  }

  /**
   * Live list prices of the given articles, read by the primary key's article prefix; unordered
   * (the caller orders them: sizes in size-table order, pricing-wire.ts).
   */
  async livePricesOf(articleNos: readonly string[]): Promise<LivePriceRow[]> {
    const out: LivePriceRow[] = [];
    for (const part of chunks(articleNos, IN_CHUNK)) {
      out.push(
        ...(await this.db
          .selectFrom('list_price')
          .select(['article_no', 'price_type', 'price_group', 'currency', 'sizex', 'price_minor'])
          .where('article_no', 'in', part)
          .where('deleted', '=', 0)
          .execute()),
      );
    }
    return out;
  }

  /**
   * One page of list price rows from position `from` on, in position order: with `sinceScn` > 0
   * those changed after it, tombstones included; with 0 only live ones.
   */
  listPricesPage(sinceScn: number, from: number, limit: number): Promise<Positioned<ListPriceRow>[]> {
    let query = this.db.selectFrom('list_price').selectAll().where('pos', '>=', from);
    query = sinceScn > 0 ? query.where(changedAfter('scn', sinceScn)) : query.where('deleted', '=', 0);
    return query.orderBy('pos').limit(limit).execute();
  }

  // --- price agreements -------------------------------------------------------------------------

  async insertAgreement(row: Omit<AgreementRow, 'id'>): Promise<number> {
    const { id } = await this.db
      .insertInto('price_agreement')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(id);
  }

  async updateAgreement(id: number, row: Omit<AgreementRow, 'id' | 'created_at'>): Promise<void> {
    await this.db.updateTable('price_agreement').set(row).where('id', '=', id).execute();
  }

  async replaceAgreementPrices(id: number, prices: ReadonlyArray<{ currency: string; price_minor: number }>) {
    await this.db.deleteFrom('price_agreement_price').where('agreement_id', '=', id).execute();
    if (prices.length > 0) {
      await this.db
        .insertInto('price_agreement_price')
        .values(prices.map((p) => ({ agreement_id: id, currency: p.currency, price_minor: p.price_minor })))
        .execute();
    }
  }

  async updateAgreementFlags(id: number, scn: number, at: string): Promise<void> {
    await this.db
      .updateTable('price_agreement')
      .set({ deleted: 1, scn, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** The live agreement with the same terms key (who, what, from which quantity, from when), if any. */
  async agreementIdByKey(key: {
    customer_no: number | null;
    customer_group: string | null;
    scope: string;
    scope_value: string;
    min_quantity: number;
    valid_from: string;
  }): Promise<number | undefined> {
    let query = this.db
      .selectFrom('price_agreement')
      .select('id')
      .where('deleted', '=', 0)
      .where('scope', '=', key.scope as AgreementRow['scope'])
      .where('scope_value', '=', key.scope_value)
      .where('min_quantity', '=', key.min_quantity)
      .where('valid_from', '=', key.valid_from);
    query =
      key.customer_no !== null
        ? query.where('customer_no', '=', key.customer_no)
        : query.where('customer_group', '=', key.customer_group ?? '');
    const row = await query.orderBy('id').executeTakeFirst();
    return row?.id;
  }

  findAgreement(id: number): Promise<AgreementRow | undefined> {
    return this.db.selectFrom('price_agreement').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async agreementPrices(ids: readonly number[]): Promise<AgreementPriceRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('price_agreement_price')
      .select(['agreement_id', 'currency', 'price_minor'])
      .where('agreement_id', 'in', ids)
      .orderBy('agreement_id')
      .orderBy('currency')
      .execute();
    return rows.map((r) => ({
      ...r,
      agreement_id: Number(r.agreement_id),
      price_minor: Number(r.price_minor),
    }));
  }

  /**
   * A page of agreements from position `from` on, in position order (id order): with `sinceScn`
   * > 0 those changed after it, tombstones included; with 0 only live ones. With a party, only
   * those of that customer or its customer group.
   */
  agreementsPage(
    sinceScn: number,
    from: number,
    limit: number,
    party?: { customerNo: number; customerGroup: string | null },
  ): Promise<Positioned<AgreementRow>[]> {
    let query = this.db.selectFrom('price_agreement').selectAll().where('pos', '>=', from);
    query = sinceScn > 0 ? query.where(changedAfter('scn', sinceScn)) : query.where('deleted', '=', 0);
    if (party) {
      query = query.where((eb) =>
        party.customerGroup === null
          ? eb('customer_no', '=', party.customerNo)
          : eb.or([eb('customer_no', '=', party.customerNo), eb('customer_group', '=', party.customerGroup)]),
      );
    }
    return query.orderBy('pos').limit(limit).execute();
  }

  // --- customer line discounts -------------------------------------------------------------------

  async insertLineDiscount(row: Omit<LineDiscountRow, 'id'>): Promise<number> {
    const { id } = await this.db
      .insertInto('customer_line_discount')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(id);
  }

  async updateLineDiscount(id: number, row: Omit<LineDiscountRow, 'id' | 'created_at'>): Promise<void> {
    await this.db.updateTable('customer_line_discount').set(row).where('id', '=', id).execute();
  }

  async updateLineDiscountFlags(id: number, scn: number, at: string): Promise<void> {
    await this.db
      .updateTable('customer_line_discount')
      .set({ deleted: 1, scn, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  findLineDiscount(id: number): Promise<LineDiscountRow | undefined> {
    return this.db.selectFrom('customer_line_discount').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Like `agreementsPage`: line discounts from position `from` on, of one customer or all. */
  lineDiscountsPage(
    sinceScn: number,
    from: number,
    limit: number,
    customerNo?: number,
  ): Promise<Positioned<LineDiscountRow>[]> {
    let query = this.db.selectFrom('customer_line_discount').selectAll().where('pos', '>=', from);
    query = sinceScn > 0 ? query.where(changedAfter('scn', sinceScn)) : query.where('deleted', '=', 0);
    if (customerNo !== undefined) query = query.where('customer_no', '=', customerNo);
    return query.orderBy('pos').limit(limit).execute();
  }

  // --- action prices ----------------------------------------------------------------------------

  async insertActionPrice(row: Omit<ActionPriceRow, 'id'>): Promise<number> {
    const { id } = await this.db
      .insertInto('action_price')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(id);
  }

  async updateActionPrice(id: number, row: Omit<ActionPriceRow, 'id' | 'created_at'>): Promise<void> {
    await this.db.updateTable('action_price').set(row).where('id', '=', id).execute();
  }

  async updateActionPriceFlags(id: number, scn: number, at: string): Promise<void> {
    await this.db
      .updateTable('action_price')
      .set({ deleted: 1, scn, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  findActionPrice(id: number): Promise<ActionPriceRow | undefined> {
    return this.db.selectFrom('action_price').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Live action prices of the same article, size (null: every size) and currency overlapping the period. */
  overlappingActionPrices(
    row: Pick<ActionPriceRow, 'article_no' | 'sizex' | 'currency' | 'start_date' | 'end_date'>,
    exceptId: number | null,
  ): Promise<Array<{ id: number }>> {
    let query = this.db
      .selectFrom('action_price')
      .select('id')
      .where('deleted', '=', 0)
      .where('article_no', '=', row.article_no)
      .where('currency', '=', row.currency)
      .where('start_date', '<=', row.end_date)
      .where('end_date', '>=', row.start_date)
      .where(row.sizex === null ? (eb) => eb('sizex', 'is', null) : (eb) => eb('sizex', '=', row.sizex));
    if (exceptId !== null) query = query.where('id', '<>', exceptId);
    return query.execute();
  }

  #actionPrices() {
    return this.db
      .selectFrom('action_price as ap')
      .innerJoin(articleFlags(this.db).as('a'), 'a.article_no', 'ap.article_no')
      .selectAll('ap')
      .select(['a.scn as article_scn', 'a.deleted as article_deleted', 'a.retail', 'a.active']);
  }

  /**
   * A page of action prices from position `from` on, in position order (id order), with the retail
   * visibility of their article. With `sinceScn` > 0: those whose row or whose article changed
   * after it (an article leaving retail hides its action prices), tombstones included, the union
   * of two index reads (action prices by their `scn`; articles by theirs, then their action
   * prices). With 0: only those shown (live, the article published for retail and, with a date
   * `runningOn`, running on it), so a page is full while enough remain.
   */
  actionPricesPage(
    sinceScn: number,
    from: number,
    limit: number,
    runningOn: string | null,
  ): Promise<ActionPriceListRow[]> {
    if (sinceScn > 0) {
      // Only prices of articles retail once saw (`seen_retail`): the others are no news to it (issue 14).
      return (
        this.#actionPrices()
          .where(changedAfter('ap.scn', sinceScn))
          .where('ap.pos', '>=', from)
          // Asked per price (a scalar subquery), so PostgreSQL does not plan the join from the articles.
          .where(
            (eb) =>
              eb
                .selectFrom(articleFlags(this.db).as('seen'))
                .whereRef('seen.article_no', '=', 'ap.article_no')
                .select('seen.seen_retail'),
            '=',
            1,
          )
          .union(
            this.#actionPrices()
              .where(changedAfter('a.scn', sinceScn))
              .where('ap.pos', '>=', from)
              .where('a.seen_retail', '=', 1),
          )
          .orderBy('pos')
          .limit(limit)
          .execute()
      );
    }
    let query = this.#actionPrices()
      .where('ap.pos', '>=', from)
      .where('ap.deleted', '=', 0)
      .where('a.deleted', '=', 0)
      .where('a.retail', '=', 1)
      .where('a.active', '=', 1);
    if (runningOn !== null) {
      query = query.where('ap.start_date', '<=', runningOn).where('ap.end_date', '>=', runningOn);
    }
    return query.orderBy('ap.pos').limit(limit).execute();
  }

  actionPricesOfArticle(articleNo: string): Promise<ActionPriceListRow[]> {
    return this.#actionPrices()
      .where('ap.article_no', '=', articleNo)
      .where('ap.deleted', '=', 0)
      .orderBy('ap.currency')
      .orderBy('ap.start_date')
      .orderBy('ap.id')
      .execute();
  }
}
