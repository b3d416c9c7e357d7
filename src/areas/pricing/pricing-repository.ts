import { type Kysely, sql } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';
import { articleFlags, articleSizePositions } from '../catalog/index.ts';
import type {
  ActionPriceTable,
  CustomerLineDiscountTable,
  ListPriceTable,
  PriceAgreementTable,
  PriceArticleTable,
} from './tables.ts';

export type ListPriceRow = ListPriceTable;
export type PriceArticleRow = PriceArticleTable;
export type AgreementRow = Omit<PriceAgreementTable, 'id'> & { id: number };
export type LineDiscountRow = Omit<CustomerLineDiscountTable, 'id'> & { id: number };
export type ActionPriceRow = Omit<ActionPriceTable, 'id'> & { id: number };
export type AgreementPriceRow = { agreement_id: number; currency: string; price_minor: number };

/** An action price with the retail visibility of its article. */
export type ActionPriceListRow = ActionPriceRow & {
  article_scn: number;
  article_deleted: number;
  retail: number;
  active: number;
};

/** Rows per multi-row INSERT and keys per IN list: well below both engines' parameter limits. */
const INSERT_CHUNK = 500;
const IN_CHUNK = 1000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Every SQL statement of the pricing area. */
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
        ...(await this.db.selectFrom('list_price').selectAll().where('article_no', 'in', part).execute()),
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
   * changed: stamped with `scn`, flagged deleted when no live price is left.
   */
  async refreshPriceArticles(articleNos: readonly string[], scn: number): Promise<void> {
    for (const part of chunks(articleNos, INSERT_CHUNK)) {
      const live = await this.db
        .selectFrom('list_price')
        .select('article_no')
        .distinct()
        .where('article_no', 'in', part)
        .where('deleted', '=', 0)
        .execute();
      const withPrices = new Set(live.map((r) => r.article_no));
      await this.db
        .insertInto('price_article')
        .values(part.map((article_no) => ({ article_no, deleted: withPrices.has(article_no) ? 0 : 1, scn })))
        .onConflict((oc) =>
          oc.column('article_no').doUpdateSet((eb) => ({
            deleted: eb.ref('excluded.deleted'),
            scn: eb.ref('excluded.scn'),
          })),
        )
        .execute();
    }
  }

  /** One page of articles with prices changed after `sinceScn`, in article order, tombstones included. */
  priceArticlesPage(sinceScn: number, offset: number, limit: number): Promise<PriceArticleRow[]> {
    return this.db
      .selectFrom('price_article')
      .select(['article_no', 'deleted', 'scn'])
      .where('scn', '>', sinceScn)
      .orderBy('article_no')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** Live list prices of the given articles, sizes in size-table order. */
  livePricesOf(articleNos: readonly string[]) {
    if (articleNos.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('list_price as p')
      .leftJoin(articleSizePositions(this.db).as('s'), (j) =>
        j.onRef('s.article_no', '=', 'p.article_no').onRef('s.sizex', '=', 'p.sizex'),
      )
      .select(['p.article_no', 'p.price_type', 'p.price_group', 'p.currency', 'p.sizex', 'p.price_minor'])
      .where('p.article_no', 'in', articleNos)
      .where('p.deleted', '=', 0)
      .orderBy('p.article_no')
      .orderBy('p.price_type')
      .orderBy('p.price_group')
      .orderBy('p.currency')
      .orderBy(sql`coalesce(s.position, 1000000)`)
      .orderBy('p.sizex')
      .execute();
  }

  /** One page of list price rows changed after `sinceScn`, in key order, tombstones included. */
  listPricesPage(sinceScn: number, offset: number, limit: number): Promise<ListPriceRow[]> {
    return this.db
      .selectFrom('list_price')
      .selectAll()
      .where('scn', '>', sinceScn)
      .orderBy('article_no')
      .orderBy('price_type')
      .orderBy('price_group')
      .orderBy('currency')
      .orderBy('sizex')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async listPrice(key: {
    articleNo: string;
    priceType: 'RECOMMENDED' | 'SELLING';
    priceGroup: number;
    currency: string;
    sizex: string;
  }): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('list_price')
      .select('price_minor')
      .where('article_no', '=', key.articleNo)
      .where('price_type', '=', key.priceType)
      .where('price_group', '=', key.priceGroup)
      .where('currency', '=', key.currency)
      .where('sizex', '=', key.sizex)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.price_minor);
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
   * Agreements changed after `sinceScn` in id order, tombstones included; with a party, only those
   * of that customer or its customer group.
   */
  agreementsPage(
    sinceScn: number,
    offset: number,
    limit: number,
    party?: { customerNo: number; customerGroup: string | null },
  ): Promise<AgreementRow[]> {
    let query = this.db.selectFrom('price_agreement').selectAll().where('scn', '>', sinceScn);
    if (party) {
      query = query.where((eb) =>
        party.customerGroup === null
          ? eb('customer_no', '=', party.customerNo)
          : eb.or([eb('customer_no', '=', party.customerNo), eb('customer_group', '=', party.customerGroup)]),
      );
    }
    return query.orderBy('id').limit(limit).offset(offset).execute();
  }

  /** Live agreements of a customer or its group for an article, its model or its article group. */
  agreementCandidates(
    party: { customerNo: number; customerGroup: string | null },
    article: { article_no: string; model_no: string; article_group: string },
  ): Promise<AgreementRow[]> {
    return this.db
      .selectFrom('price_agreement')
      .selectAll()
      .where('deleted', '=', 0)
      .where((eb) =>
        eb.or([
          eb('customer_no', '=', party.customerNo),
          ...(party.customerGroup === null ? [] : [eb('customer_group', '=', party.customerGroup)]),
        ]),
      )
      .where((eb) =>
        eb.or([
          eb.and([eb('scope', '=', 'ARTICLE'), eb('scope_value', '=', article.article_no)]),
          eb.and([eb('scope', '=', 'MODEL'), eb('scope_value', '=', article.model_no)]),
          eb.and([eb('scope', '=', 'ARTICLEGROUP'), eb('scope_value', '=', article.article_group)]),
        ]),
      )
      .orderBy('id')
      .execute();
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

  lineDiscountsPage(
    sinceScn: number,
    offset: number,
    limit: number,
    customerNo?: number,
  ): Promise<LineDiscountRow[]> {
    let query = this.db.selectFrom('customer_line_discount').selectAll().where('scn', '>', sinceScn);
    if (customerNo !== undefined) query = query.where('customer_no', '=', customerNo);
    return query.orderBy('id').limit(limit).offset(offset).execute();
  }

  lineDiscountCandidates(
    customerNo: number,
    article: { model_no: string; article_group: string },
  ): Promise<LineDiscountRow[]> {
    return this.db
      .selectFrom('customer_line_discount')
      .selectAll()
      .where('deleted', '=', 0)
      .where('customer_no', '=', customerNo)
      .where((eb) =>
        eb.or([
          eb.and([eb('scope', '=', 'MODEL'), eb('scope_value', '=', article.model_no)]),
          eb.and([eb('scope', '=', 'ARTICLEGROUP'), eb('scope_value', '=', article.article_group)]),
        ]),
      )
      .orderBy('id')
      .execute();
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
   * Action prices whose row or whose article changed after `sinceScn` (an article leaving retail
   * hides its action prices), in id order, tombstones included.
   */
  actionPricesPage(sinceScn: number, offset: number, limit: number): Promise<ActionPriceListRow[]> {
    return this.#actionPrices()
      .where((eb) => eb.or([eb('ap.scn', '>', sinceScn), eb('a.scn', '>', sinceScn)]))
      .orderBy('ap.id')
      .limit(limit)
      .offset(offset)
      .execute();
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
