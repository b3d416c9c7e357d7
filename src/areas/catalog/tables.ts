import type { ColumnType, Generated } from 'kysely';
import type { Flag, Instant, LanguageJson } from '../../kernel/db/schema.ts';

export interface SizeTableTable {
  code: string;
  description: LanguageJson;
  deleted: Flag;
  scn: number;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
}

export interface SizeTableSizeTable {
  size_table_code: string;
  position: number;
  sizex: string;
}

export interface ArticleTable {
  article_no: string;
  model_no: string;
  colour_code: string;
  colour_description: LanguageJson;
  description: LanguageJson;
  model_description: LanguageJson;
  search_name1: LanguageJson;
  search_name2: LanguageJson;
  search_name3: LanguageJson;
  brand: string;
  season: string;
  article_group: string;
  /** VAT rate in basis points: 2100 is 21 %. */
  vat_rate_bp: number;
  size_table_code: string;
  active: Flag;
  /** Published for retail: B2C operations see only these. */
  retail: Flag;
  /** A deleted article stays as its own tombstone so paging positions never shift (docs/architecture.md). */
  deleted: Flag;
  /**
   * Never cleared once set: retail once saw this article (live, active, published for retail). The
   * retail feeds report its records under DELETED only then (the repository sets it).
   */
  seen_retail: Generated<Flag>;
  scn: number;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
  created_at: Instant;
  updated_at: Instant;
}

export interface ArticleSizeTable {
  article_no: string;
  sizex: string;
  position: number;
  barcode: string;
}

export interface ArticleParameterCodeTable {
  article_no: string;
  parameter_code: number;
  text: LanguageJson;
}

export interface ArticleParameterNumberTable {
  article_no: string;
  parameter_code: number;
  parameter_no: number;
  text: LanguageJson;
}

export interface ArticleImageTable {
  article_no: string;
  image_no: number;
  content_type: string;
  byte_size: number;
  sha256: string;
  data: ColumnType<Buffer, Buffer, Buffer>;
  /** Deleted images keep their row (data emptied) as the tombstone the change feed reports. */
  deleted: Flag;
  scn: number;
  /** Stable paging position: set by the database on insert, never changed (docs/architecture.md, "Paging"). */
  pos: Generated<number>;
}

/**
 * An article's answer of B2B_GetArticle / B2C_GetArticle (the same object for both audiences), kept
 * as JSON text written in the same transaction as every change of the article, its sizes,
 * parameters or images (docs/catalog.md, "The article document"). `document` is the text up to the value of
 * `SCN`, the wire object's last key: a reader appends the SCN and the closing brace. It is current
 * while `scn` equals the article's `scn`.
 */
export interface ArticleDocumentTable {
  article_no: string;
  scn: number;
  document: string;
}

/** The tables of the catalog area. */
export interface CatalogTables {
  size_table: SizeTableTable;
  size_table_size: SizeTableSizeTable;
  article: ArticleTable;
  article_size: ArticleSizeTable;
  article_parameter_code: ArticleParameterCodeTable;
  article_parameter_number: ArticleParameterNumberTable;
  article_image: ArticleImageTable;
  article_document: ArticleDocumentTable;
}

declare module '../../kernel/db/schema.ts' {
  interface DB extends CatalogTables {}
}
