import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { compiledOnce } from '../../kernel/db/compiled-once.ts';
import type { DB } from '../../kernel/db/schema.ts';

type Values = Record<string, string | number>;
/** At most this many shapes (count of sizes, count of articles) are kept compiled. */
const KEPT_SHAPES = 64;

interface CandidateRow {
  kind: string;
  article_no: string;
  sizex: string | null;
  price_minor: number | string;
  id: number | string | null;
}

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

  /** The statement per shape (count of sizes, count of articles), compiled once each. */
  readonly #compiled = new Map<string, (values: Values) => CompiledQuery<CandidateRow>>();

  async candidates(
    keys: ReadonlyArray<{ articleNo: string; sizex: string }>,
    q: { priceGroup: number; currency: string; date: string },
  ): Promise<RetailPriceRow[]> {
    if (keys.length === 0) return [];
    const articles = [...new Set(keys.map((k) => k.articleNo))];
    // Built and compiled by Kysely once per shape, then run with each call's values (building it
    // anew was about 3 % of a web order's CPU; docs/benchmarks.md, "Fifth round").
    const shape = `${keys.length}|${articles.length}`;
    let compiled = this.#compiled.get(shape);
    if (compiled === undefined) {
      const names = [
        'group',
        'currency',
        'date',
        ...keys.flatMap((_, i) => [`a${i}`, `s${i}`]),
        ...articles.map((_, i) => `x${i}`),
      ];
      compiled = compiledOnce<Values, CandidateRow>(names, (v) =>
        this.#build(
          keys.map((_, i) => ({ articleNo: v[`a${i}`] as string, sizex: v[`s${i}`] as string })),
          articles.map((_, i) => v[`x${i}`] as string),
          { priceGroup: v.group as number, currency: v.currency as string, date: v.date as string },
        ),
      );
      if (this.#compiled.size < KEPT_SHAPES) this.#compiled.set(shape, compiled);
    }
    const values: Values = { group: q.priceGroup, currency: q.currency, date: q.date };
    for (const [i, k] of keys.entries()) {
      values[`a${i}`] = k.articleNo;
      values[`s${i}`] = k.sizex;
    }
    for (const [i, a] of articles.entries()) values[`x${i}`] = a;
    const { rows } = await this.db.executeQuery(compiled(values));
    return rows.map((r) => ({
      kind: r.kind === 'ACTION' ? 'ACTION' : 'LIST',
      article_no: r.article_no,
      sizex: r.sizex,
      price_minor: Number(r.price_minor),
      id: r.id === null ? null : Number(r.id),
    }));
  }

  #build(
    keys: ReadonlyArray<{ articleNo: string; sizex: string }>,
    articles: readonly string[],
    q: { priceGroup: number; currency: string; date: string },
  ) {
    return (
      this.db
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
    );
  }
}
