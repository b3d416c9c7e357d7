import type { CompiledQuery, Kysely } from 'kysely';
import { keptPerCount } from '../../kernel/db/compiled-once.ts';
import type { DB, LanguageJson } from '../../kernel/db/schema.ts';

const kept = keptPerCount<BarcodeRow>();

interface BarcodeRow {
  barcode: string;
  article_no: string;
  sizex: string;
  position: number;
  vat_rate_bp: number;
  active: number;
  retail: number;
  deleted: number;
  description: LanguageJson;
}

/** One size of an article found by its barcode, with what an order line needs of the article. */
export interface BarcodeSize {
  barcode: string;
  articleNo: string;
  sizex: string;
  /** The size's place in the article's size table (orders list their lines' sizes in that order). */
  position: number;
  vatRateBp: number;
  active: boolean;
  retail: boolean;
  deleted: boolean;
  description: LanguageJson;
}

/**
 * The sizes behind barcodes, in one statement (barcodes are unique across articles; a deleted
 * article frees its barcodes, so a barcode finds at most one live size).
 */
export class BarcodeRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  /**
   * The statement for `wanted` barcodes: built and compiled by Kysely once per count of barcodes
   * and engine (an order's lines look up the same few shapes again and again; building it anew was
   * about 3 % of a web order's CPU), then run with each call's barcodes.
   */
  #query(wanted: readonly string[]): CompiledQuery<BarcodeRow> {
    // the barcodes in order, then the deleted flag
    return kept(this.db, wanted.length, [...wanted, 0], () => this.#build(wanted));
  }

  #build(wanted: readonly string[]) {
    return this.db
      .selectFrom('article_size as s')
      .innerJoin('article as a', 'a.article_no', 's.article_no')
      .select([
        's.barcode',
        's.article_no',
        's.sizex',
        's.position',
        'a.vat_rate_bp',
        'a.active',
        'a.retail',
        'a.deleted',
        'a.description',
      ])
      .where('s.barcode', 'in', wanted)
      .where('a.deleted', '=', 0);
  }

  async sizesByBarcode(barcodes: readonly string[]): Promise<Map<string, BarcodeSize>> {
    const out = new Map<string, BarcodeSize>();
    const wanted = [...new Set(barcodes)];
    if (wanted.length === 0) return out;
    const rows = await this.db.executeQuery(this.#query(wanted));
    for (const r of rows.rows) {
      out.set(r.barcode, {
        barcode: r.barcode,
        articleNo: r.article_no,
        sizex: r.sizex,
        position: Number(r.position),
        vatRateBp: Number(r.vat_rate_bp),
        active: Number(r.active) === 1,
        retail: Number(r.retail) === 1,
        deleted: Number(r.deleted) === 1,
        description: r.description,
      });
    }
    return out;
  }
}
