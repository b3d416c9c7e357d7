import { type Kysely, sql } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';

/** One candidate of a retail price: a list price of the size, or an action price running on the day. */
export interface RetailPriceRow {
  kind: 'LIST' | 'ACTION';
  article_no: string;
  /** An action price for every size has none. */
  sizex: string | null;
  price_minor: number;
  /** The action price's id; null for a list price. */
  id: number | null;
}

/**
 * The retail prices of many article sizes in one statement (a web order's lines): the SELLING list
 * prices of the retail price group in the currency, and the action prices of the articles running
 * on the day in the currency (for the size or for every size). The service picks per size.
 */
export class RetailPriceRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  async candidates(
    keys: ReadonlyArray<{ articleNo: string; sizex: string }>,
    q: { priceGroup: number; currency: string; date: string },
  ): Promise<RetailPriceRow[]> {
    if (keys.length === 0) return [];
    const articles = [...new Set(keys.map((k) => k.articleNo))];
    const rows = await this.db
      .selectFrom('list_price')
      // Constants written into the SQL (not parameters), so both arms of the union have known types.
      .select([
        sql<string>`'LIST'`.as('kind'),
        'article_no',
        sql<string | null>`sizex`.as('sizex'),
        'price_minor',
        sql<number | null>`cast(null as bigint)`.as('id'),
      ])
      .where('price_type', '=', 'SELLING')
      .where('price_group', '=', q.priceGroup)
      .where('currency', '=', q.currency)
      .where('deleted', '=', 0)
      .where((eb) =>
        eb.or(keys.map((k) => eb.and([eb('article_no', '=', k.articleNo), eb('sizex', '=', k.sizex)]))),
      )
      .unionAll((db) =>
        db
          .selectFrom('action_price')
          .select([
            sql<string>`'ACTION'`.as('kind'),
            'article_no',
            'sizex',
            'price_minor',
            sql<number | null>`id`.as('id'),
          ])
          .where('article_no', 'in', articles)
          .where('currency', '=', q.currency)
          .where('deleted', '=', 0)
          .where('start_date', '<=', q.date)
          .where('end_date', '>=', q.date),
      )
      .execute();
    return rows.map((r) => ({
      kind: r.kind === 'ACTION' ? 'ACTION' : 'LIST',
      article_no: r.article_no,
      sizex: r.sizex,
      price_minor: Number(r.price_minor),
      id: r.id === null ? null : Number(r.id),
    }));
  }
}
