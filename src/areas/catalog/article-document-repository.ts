import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/schema.ts';

/** An article's flags and SCN, with its stored answer when that is current (docs/catalog.md). */
export interface ArticleDocumentRow {
  article_no: string;
  scn: number;
  deleted: number;
  retail: number;
  active: number;
  /** The answer up to its SCN value; null when none is stored for the article's current SCN. */
  document: string | null;
}

const COLUMNS = ['a.article_no', 'a.scn', 'a.deleted', 'a.retail', 'a.active', 'd.document'] as const;

/** Keys per statement: well below both engines' bound-parameter limits (3 values a row). */
const WRITE_CHUNK = 500;

/**
 * The SQL of the article documents (tables.ts, `article_document`): the single-article read in one
 * statement, and the documents' writes, made in the transaction of the change they follow.
 */
export class ArticleDocumentRepository {
  private readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  /** The article with its current document, in one statement (primary key lookups). */
  byArticleNo(articleNo: string): Promise<ArticleDocumentRow | undefined> {
    return this.db
      .selectFrom('article as a')
      .leftJoin('article_document as d', (j) =>
        j.onRef('d.article_no', '=', 'a.article_no').onRef('d.scn', '=', 'a.scn'),
      )
      .select(COLUMNS)
      .where('a.article_no', '=', articleNo)
      .executeTakeFirst();
  }

  /** The article owning the barcode with its current document, in one statement (unique key lookups). */
  byBarcode(barcode: string): Promise<ArticleDocumentRow | undefined> {
    return this.db
      .selectFrom('article_size as s')
      .innerJoin('article as a', 'a.article_no', 's.article_no')
      .leftJoin('article_document as d', (j) =>
        j.onRef('d.article_no', '=', 'a.article_no').onRef('d.scn', '=', 'a.scn'),
      )
      .select(COLUMNS)
      .where('s.barcode', '=', barcode)
      .executeTakeFirst();
  }

  /** Creates or replaces documents. */
  async write(rows: Array<{ article_no: string; scn: number; document: string }>): Promise<void> {
    for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
      await this.db
        .insertInto('article_document')
        .values(rows.slice(i, i + WRITE_CHUNK))
        .onConflict((oc) =>
          oc.column('article_no').doUpdateSet((eb) => ({
            scn: eb.ref('excluded.scn'),
            document: eb.ref('excluded.document'),
          })),
        )
        .execute();
    }
  }
}
