import type { Kysely } from 'kysely';
import type { DB, LanguageJson } from '../../kernel/db/schema.ts';

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

  async sizesByBarcode(barcodes: readonly string[]): Promise<Map<string, BarcodeSize>> {
    const out = new Map<string, BarcodeSize>();
    const wanted = [...new Set(barcodes)];
    if (wanted.length === 0) return out;
    const rows = await this.db
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
      .where('a.deleted', '=', 0)
      .execute();
    for (const r of rows) {
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
