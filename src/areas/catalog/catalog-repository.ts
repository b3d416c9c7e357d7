import { type Kysely, type Selectable, sql } from 'kysely';
import { changedAfter } from '../../kernel/db/feed-sql.ts';
import type { DB } from '../../kernel/db/schema.ts';
import type { Audience } from '../../kernel/paging.ts';
import { seenByRetail } from './article-visibility.ts';
import type {
  ArticleParameterCodeTable,
  ArticleParameterNumberTable,
  ArticleSizeTable,
  ArticleTable,
  SizeTableTable,
} from './tables.ts';

/** An article row as written and compared (its paging position is the database's, see tables.ts). */
export type ArticleRow = Omit<ArticleTable, 'pos' | 'seen_retail'>;
/** An article row as read for a page: with its paging position. */
export type PagedArticleRow = ArticleRow & { pos: number };
export type SizeRow = ArticleSizeTable;
export type ParameterCodeRow = ArticleParameterCodeTable;
export type ParameterNumberRow = ArticleParameterNumberTable;
export interface ImageMetaRow {
  article_no: string;
  image_no: number;
  content_type: string;
  byte_size: number;
  sha256: string;
  deleted: number;
  scn: number;
}
export interface ImageRow extends ImageMetaRow {
  data: Buffer;
}
export interface ArticleVersion {
  scn: number;
  deleted: number;
  retail: number;
  active: number;
}

/** What other areas decide on about an article: whether it is live, active, retail; its pricing scopes. */
export interface ArticleState {
  article_no: string;
  model_no: string;
  article_group: string;
  deleted: number;
  active: number;
  retail: number;
}

export interface ArticleChildren {
  sizes: SizeRow[];
  parameterCodes: ParameterCodeRow[];
  parameterNumbers: ParameterNumberRow[];
  images: ImageMetaRow[];
}

/** The columns of an article row (not its paging position). */
const ARTICLE_COLUMNS = [
  'article_no',
  'model_no',
  'colour_code',
  'colour_description',
  'description',
  'model_description',
  'search_name1',
  'search_name2',
  'search_name3',
  'brand',
  'season',
  'article_group',
  'vat_rate_bp',
  'size_table_code',
  'active',
  'retail',
  'deleted',
  'scn',
  'created_at',
  'updated_at',
] as const;

const IMAGE_META = [
  'article_no',
  'image_no',
  'content_type',
  'byte_size',
  'sha256',
  'deleted',
  'scn',
] as const;

/** Keys per IN list: well below both engines' bound-parameter limits. */
const IN_CHUNK = 1000;

// --- query fragments: the catalogue's tables inside another area's statement --------------------
// An area that must read another area's rows together with the catalogue's in one statement (a
// feed filtered or ordered by the article) joins these subqueries instead of naming the tables;
// both engines flatten such a subquery into the statement, so the plan is that of a plain join.

/** Every article's key, flags and SCN: join as `.innerJoin(articleFlags(db).as('a'), 'a.article_no', ...)`. */
export function articleFlags(db: Kysely<DB>) {
  return db.selectFrom('article').select(['article_no', 'deleted', 'active', 'retail', 'seen_retail', 'scn']);
}

/** Every article size with its position in the size table: for ordering another area's rows by size. */
export function articleSizePositions(db: Kysely<DB>) {
  return db.selectFrom('article_size').select(['article_no', 'sizex', 'position']);
}

/** Every SQL statement of the catalogue area. */
export class CatalogRepository {
  private readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  // --- reads ---------------------------------------------------------------------------------

  /**
   * One page of articles by stable position (docs/architecture.md, "Paging"): those at `from` or
   * after, in position order. A feed (`sinceScn` > 0, read off the `scn` index) has every article
   * changed after `sinceScn` that `audience` ever saw, tombstones included; a full list (`sinceScn` 0, read off the `pos`
   * index) only the articles `audience` sees, so a page is full whenever that many remain.
   */
  articlesPage(
    audience: Audience,
    sinceScn: number,
    from: number,
    limit: number,
  ): Promise<PagedArticleRow[]> {
    let query = this.db.selectFrom('article').select(ARTICLE_COLUMNS).select('pos').where('pos', '>=', from);
    if (sinceScn > 0) {
      query = query.where(changedAfter('scn', sinceScn));
      // Retail is told only of articles it once saw (tables.ts, `seen_retail`; issue 14).
      if (audience === 'B2C') query = query.where('seen_retail', '=', 1);
    } else {
      query = query.where('deleted', '=', 0);
      if (audience === 'B2C') query = query.where('retail', '=', 1).where('active', '=', 1);
    }
    return query.orderBy('pos').limit(limit).execute();
  }

  findArticles(articleNos: string[]): Promise<ArticleRow[]> {
    if (articleNos.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('article')
      .select(ARTICLE_COLUMNS)
      .where('article_no', 'in', articleNos)
      .execute();
  }

  /** Owners of the given barcodes (chunked to stay under the engines' bound-parameter limits). */
  async barcodeOwners(barcodes: string[]): Promise<Map<string, string>> {
    const owners = new Map<string, string>();
    for (let i = 0; i < barcodes.length; i += 1000) {
      const rows = await this.db
        .selectFrom('article_size')
        .select(['barcode', 'article_no'])
        .where('barcode', 'in', barcodes.slice(i, i + 1000))
        .execute();
      for (const r of rows) owners.set(r.barcode, r.article_no);
    }
    return owners;
  }

  findArticle(articleNo: string): Promise<ArticleRow | undefined> {
    return this.db
      .selectFrom('article')
      .select(ARTICLE_COLUMNS)
      .where('article_no', '=', articleNo)
      .executeTakeFirst();
  }

  articleVersion(articleNo: string): Promise<ArticleVersion | undefined> {
    return this.db
      .selectFrom('article')
      .select(['scn', 'deleted', 'retail', 'active'])
      .where('article_no', '=', articleNo)
      .executeTakeFirst();
  }

  async articleNoByBarcode(barcode: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('article_size')
      .select('article_no')
      .where('barcode', '=', barcode)
      .executeTakeFirst();
    return row?.article_no;
  }

  async childrenOf(articleNos: string[]): Promise<ArticleChildren> {
    if (articleNos.length === 0) return { sizes: [], parameterCodes: [], parameterNumbers: [], images: [] };
    const [sizes, parameterCodes, parameterNumbers, images] = await Promise.all([
      this.db
        .selectFrom('article_size')
        .selectAll()
        .where('article_no', 'in', articleNos)
        .orderBy('article_no')
        .orderBy('position')
        .execute(),
      this.db
        .selectFrom('article_parameter_code')
        .selectAll()
        .where('article_no', 'in', articleNos)
        .orderBy('article_no')
        .orderBy('parameter_code')
        .execute(),
      this.db
        .selectFrom('article_parameter_number')
        .selectAll()
        .where('article_no', 'in', articleNos)
        .orderBy('article_no')
        .orderBy('parameter_code')
        .orderBy('parameter_no')
        .execute(),
      this.db
        .selectFrom('article_image')
        .select(IMAGE_META)
        .where('article_no', 'in', articleNos)
        .where('deleted', '=', 0)
        .orderBy('article_no')
        .orderBy('image_no')
        .execute(),
    ]);
    return { sizes, parameterCodes, parameterNumbers, images };
  }

  /** One page of size tables by stable position: changed after `sinceScn` (a feed) or live (a list). */
  sizeTablesPage(sinceScn: number, from: number, limit: number): Promise<Selectable<SizeTableTable>[]> {
    let query = this.db.selectFrom('size_table').selectAll().where('pos', '>=', from);
    query = sinceScn > 0 ? query.where(changedAfter('scn', sinceScn)) : query.where('deleted', '=', 0);
    return query.orderBy('pos').limit(limit).execute();
  }

  sizesOfTables(codes: string[]) {
    if (codes.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('size_table_size')
      .selectAll()
      .where('size_table_code', 'in', codes)
      .orderBy('size_table_code')
      .orderBy('position')
      .execute();
  }

  findSizeTable(code: string): Promise<Selectable<SizeTableTable> | undefined> {
    return this.db.selectFrom('size_table').selectAll().where('code', '=', code).executeTakeFirst();
  }

  async sizeTableExists(code: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('size_table')
      .select('code')
      .where('code', '=', code)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return row !== undefined;
  }

  sizesOfTable(code: string): Promise<string[]> {
    return this.db
      .selectFrom('size_table_size')
      .select('sizex')
      .where('size_table_code', '=', code)
      .orderBy('position')
      .execute()
      .then((rows) => rows.map((r) => r.sizex));
  }

  // --- what other areas read of articles (catalog/index.ts: articleStatesIn, ...) -------------

  /** The state of the given articles that exist (deleted ones included), by article number. */
  async articleStates(articleNos: readonly string[]): Promise<Map<string, ArticleState>> {
    const out = new Map<string, ArticleState>();
    for (const part of chunks([...new Set(articleNos)], IN_CHUNK)) {
      const rows = await this.db
        .selectFrom('article')
        .select(['article_no', 'model_no', 'article_group', 'deleted', 'active', 'retail'])
        .where('article_no', 'in', part)
        .execute();
      for (const row of rows) out.set(row.article_no, row);
    }
    return out;
  }

  /** The live (not deleted) articles among `articleNos`. */
  async liveArticles(articleNos: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const part of chunks([...new Set(articleNos)], IN_CHUNK)) {
      const rows = await this.db
        .selectFrom('article')
        .select('article_no')
        .where('article_no', 'in', part)
        .where('deleted', '=', 0)
        .execute();
      for (const row of rows) out.add(row.article_no);
    }
    return out;
  }

  /** The sizes of the given articles in size-table order: article number -> sizes (none: absent). */
  async sizesOfArticles(articleNos: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    for (const part of chunks([...new Set(articleNos)], IN_CHUNK)) {
      const rows = await this.db
        .selectFrom('article_size')
        .select(['article_no', 'sizex'])
        .where('article_no', 'in', part)
        .orderBy('article_no')
        .orderBy('position')
        .execute();
      for (const row of rows) {
        const list = out.get(row.article_no);
        if (list) list.push(row.sizex);
        else out.set(row.article_no, [row.sizex]);
      }
    }
    return out;
  }

  // --- writes (only on a repository made over a unit of work's transaction) ------------------

  async upsertSizeTable(
    row: { code: string; description: string; scn: number },
    sizes: string[],
  ): Promise<void> {
    await this.db
      .insertInto('size_table')
      .values({ ...row, deleted: 0 })
      .onConflict((oc) =>
        oc.column('code').doUpdateSet({ description: row.description, deleted: 0, scn: row.scn }),
      )
      .execute();
    await this.db.deleteFrom('size_table_size').where('size_table_code', '=', row.code).execute();
    if (sizes.length > 0) {
      await this.db
        .insertInto('size_table_size')
        .values(sizes.map((sizex, i) => ({ size_table_code: row.code, position: i + 1, sizex })))
        .execute();
    }
  }

  /**
   * Writes whole articles (row and children) in a few multi-row statements: the children of
   * `replacing` (articles that existed before) are deleted first, then everything is inserted.
   */
  async writeArticles(
    rows: ArticleRow[],
    children: Omit<ArticleChildren, 'images'>,
    replacing: string[],
  ): Promise<void> {
    for (const chunk of chunks(rows, 400)) {
      await this.db
        .insertInto('article')
        .values(chunk.map((a) => ({ ...a, seen_retail: seenByRetail(a) })))
        .onConflict((oc) =>
          oc.column('article_no').doUpdateSet((eb) => ({
            model_no: eb.ref('excluded.model_no'),
            colour_code: eb.ref('excluded.colour_code'),
            colour_description: eb.ref('excluded.colour_description'),
            description: eb.ref('excluded.description'),
            model_description: eb.ref('excluded.model_description'),
            search_name1: eb.ref('excluded.search_name1'),
            search_name2: eb.ref('excluded.search_name2'),
            search_name3: eb.ref('excluded.search_name3'),
            brand: eb.ref('excluded.brand'),
            season: eb.ref('excluded.season'),
            article_group: eb.ref('excluded.article_group'),
            vat_rate_bp: eb.ref('excluded.vat_rate_bp'),
            size_table_code: eb.ref('excluded.size_table_code'),
            active: eb.ref('excluded.active'),
            retail: eb.ref('excluded.retail'),
            deleted: eb.ref('excluded.deleted'),
            // Once seen by retail, always (the retail feeds' DELETED: tables.ts).
            seen_retail: sql<number>`case when ${eb.ref('excluded.seen_retail')} = 1 then 1 else ${eb.ref('article.seen_retail')} end`,
            scn: eb.ref('excluded.scn'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
    for (const chunk of chunks(replacing, 1000)) {
      await this.db.deleteFrom('article_size').where('article_no', 'in', chunk).execute();
      await this.db.deleteFrom('article_parameter_code').where('article_no', 'in', chunk).execute();
      await this.db.deleteFrom('article_parameter_number').where('article_no', 'in', chunk).execute();
    }
    for (const chunk of chunks(children.sizes, 2000))
      await this.db.insertInto('article_size').values(chunk).execute();
    for (const chunk of chunks(children.parameterCodes, 2000)) {
      await this.db.insertInto('article_parameter_code').values(chunk).execute();
    }
    for (const chunk of chunks(children.parameterNumbers, 2000)) {
      await this.db.insertInto('article_parameter_number').values(chunk).execute();
    }
  }

  async articlesUsingSizeTable(code: string): Promise<number> {
    const row = await this.db
      .selectFrom('article')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('size_table_code', '=', code)
      .where('deleted', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async softDeleteSizeTable(code: string, scn: number): Promise<boolean> {
    const result = await this.db
      .updateTable('size_table')
      .set({ deleted: 1, scn })
      .where('code', '=', code)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Stamps an article as changed: a change to its sizes or images is a change of the article. */
  async touchArticle(articleNo: string, scn: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('article')
      .set({ scn, updated_at: at })
      .where('article_no', '=', articleNo)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async softDeleteArticle(articleNo: string, scn: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('article')
      .set({ deleted: 1, active: 0, scn, updated_at: at })
      .where('article_no', '=', articleNo)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    // Barcodes are freed for reuse; the article's own row is the tombstone; nobody reads its answer.
    await this.db.deleteFrom('article_size').where('article_no', '=', articleNo).execute();
    await this.db.deleteFrom('article_document').where('article_no', '=', articleNo).execute();
    await this.db
      .updateTable('article_image')
      .set({ deleted: 1, data: Buffer.alloc(0), byte_size: 0, scn })
      .where('article_no', '=', articleNo)
      .where('deleted', '=', 0)
      .execute();
    return true;
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
