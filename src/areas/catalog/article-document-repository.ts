import type { CompiledQuery, Kysely } from 'kysely';
import { compiledOnce } from '../../kernel/db/compiled-once.ts';
import { changedAfter } from '../../kernel/db/feed-sql.ts';
import type { DB } from '../../kernel/db/schema.ts';
import type { Reader } from '../../kernel/db/sqlite-reader.ts';
import { utf8Bytes } from '../../kernel/db/utf8-bytes.ts';
import type { Audience } from '../../kernel/paging.ts';

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

/** A row of a list page: the document as its UTF-8 bytes (see `page`). */
export interface ArticleDocumentPageRow extends Omit<ArticleDocumentRow, 'document'> {
  pos: number;
  /** The document's UTF-8 bytes; null when none is stored for the article's current SCN. */
  document: Uint8Array | null;
}

const FLAGS = ['a.article_no', 'a.scn', 'a.deleted', 'a.retail', 'a.active'] as const;
const COLUMNS = [...FLAGS, 'd.document'] as const;

/**
 * The first row of a one-row read: on `reader` when given (outside any transaction only), else on
 * `db`. On SQLite the reader thread: the row is one string, cheap to hand back, and the read the
 * costly part of the request (decision 49).
 */
async function firstOf<R>(query: CompiledQuery<R>, db: Kysely<DB>, reader: Reader | undefined) {
  const rows = reader ? await reader.rows(query) : (await db.executeQuery(query)).rows;
  return rows[0];
}

/** Keys per statement: well below both engines' bound-parameter limits (3 values a row). */
const WRITE_CHUNK = 500;

/**
 * The SQL of the article documents (tables.ts, `article_document`): the single-article read in one
 * statement, and the documents' writes, made in the transaction of the change they follow.
 */
export class ArticleDocumentRepository {
  private readonly db: Kysely<DB>;
  /** The single reads, built and compiled once (kernel/db/compiled-once.ts): a request fills in its key. */
  readonly #byArticleNo: (values: { articleNo: string }) => CompiledQuery<ArticleDocumentRow>;
  readonly #byBarcode: (values: { barcode: string }) => CompiledQuery<ArticleDocumentRow>;

  constructor(db: Kysely<DB>) {
    this.db = db;
    this.#byArticleNo = compiledOnce(['articleNo'], ({ articleNo }) =>
      this.db
        .selectFrom('article as a')
        .leftJoin('article_document as d', (j) =>
          j.onRef('d.article_no', '=', 'a.article_no').onRef('d.scn', '=', 'a.scn'),
        )
        .select(COLUMNS)
        .where('a.article_no', '=', articleNo),
    );
    this.#byBarcode = compiledOnce(['barcode'], ({ barcode }) =>
      this.db
        .selectFrom('article_size as s')
        .innerJoin('article as a', 'a.article_no', 's.article_no')
        .leftJoin('article_document as d', (j) =>
          j.onRef('d.article_no', '=', 'a.article_no').onRef('d.scn', '=', 'a.scn'),
        )
        .select(COLUMNS)
        .where('s.barcode', '=', barcode),
    );
  }

  /** The article with its current document, in one statement (primary key lookups). */
  byArticleNo(articleNo: string, reader?: Reader): Promise<ArticleDocumentRow | undefined> {
    return firstOf(this.#byArticleNo({ articleNo }), this.db, reader);
  }

  /** The article owning the barcode with its current document, in one statement (unique key lookups). */
  byBarcode(barcode: string, reader?: Reader): Promise<ArticleDocumentRow | undefined> {
    return firstOf(this.#byBarcode({ barcode }), this.db, reader);
  }

  /**
   * One page of articles with their current documents, by stable position: the rows of
   * CatalogRepository.articlesPage (a feed off the `scn` index, tombstones included; a list off the
   * `pos` index, only what `audience` sees), each document found by its key, as its UTF-8 bytes,
   * which the page's answer copies as they are (article-list-answer.ts): as text each would be
   * decoded into a string and encoded again to be sent (`utf8Bytes`): SQLite gives the stored bytes
   * (a BLOB); on PostgreSQL each text becomes its bytes as its row arrives, so no page's strings
   * (about 5 MB of them, UTF-16: most hold a non-ASCII letter) stay alive until its last row, which
   * kept V8's young generation at its largest, 100 MiB more at the peak of a pass
   * (docs/architecture.md, "Start-up and memory"; decision 25).
   */
  page(audience: Audience, sinceScn: number, from: number, limit: number): Promise<ArticleDocumentPageRow[]> {
    const document = utf8Bytes(this.db, 'd.document');
    let query = this.db
      .selectFrom('article as a')
      .leftJoin('article_document as d', (j) =>
        j.onRef('d.article_no', '=', 'a.article_no').onRef('d.scn', '=', 'a.scn'),
      )
      .select([...FLAGS, document.as('document'), 'a.pos'])
      .where('a.pos', '>=', from);
    if (sinceScn > 0) {
      query = query.where(changedAfter('a.scn', sinceScn));
      // Retail is told only of articles it once saw (tables.ts, `seen_retail`; issue 14).
      if (audience === 'B2C') query = query.where('a.seen_retail', '=', 1);
    } else {
      query = query.where('a.deleted', '=', 0);
      if (audience === 'B2C') query = query.where('a.retail', '=', 1).where('a.active', '=', 1);
    }
    return query.orderBy('a.pos').limit(limit).execute();
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
