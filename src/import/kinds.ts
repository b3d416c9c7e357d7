import {
  ArticleBody,
  articleInput,
  articleRecordFromCsv,
  checkRecord,
  SizeTableBody,
  sizeTableInput,
  sizeTableRecordFromCsv,
  withWireNames,
} from '../domain/catalog/catalog-input.ts';
import type { SaveResult } from '../domain/catalog/catalog-service.ts';
import type { Services } from '../services.ts';
import type { RecordFormat } from './records.ts';

/**
 * One kind of record `tv2 import` understands: how a record (JSON, or a CSV row turned into the
 * JSON form) becomes a domain input, and how a batch of inputs is saved in one transaction.
 */
export interface ImportKind<I> {
  name: string;
  description: string;
  parse(record: unknown, format: RecordFormat): I;
  save(services: Services, inputs: I[]): Promise<SaveResult>;
}

function fromCsv(
  record: unknown,
  format: RecordFormat,
  toRecord: (row: Record<string, string>) => unknown,
): unknown {
  return format === 'csv' ? toRecord(record as Record<string, string>) : record;
}

const sizeTables: ImportKind<ReturnType<typeof sizeTableInput>> = {
  name: 'sizetables',
  description: 'size tables: SIZETABLE, SIZES (CSV: "XS|S|M"), DESCRIPTION',
  parse: (record, format) =>
    sizeTableInput(
      checkRecord<SizeTableBody>(SizeTableBody, fromCsv(record, format, sizeTableRecordFromCsv)),
    ),
  save: (services, inputs) => withWireNames(() => services.catalog.saveSizeTables(inputs)),
};

const articles: ImportKind<ReturnType<typeof articleInput>> = {
  name: 'articles',
  description:
    'articles with sizes and barcodes, in the form of B2B_GetArticle (CSV: flat columns, see README)',
  parse: (record, format) =>
    articleInput(checkRecord<ArticleBody>(ArticleBody, fromCsv(record, format, articleRecordFromCsv))),
  save: (services, inputs) => withWireNames(() => services.catalog.saveArticles(inputs)),
};

// biome-ignore lint/suspicious/noExplicitAny: kinds differ in their input type; each is typed above
export const IMPORT_KINDS: Record<string, ImportKind<any>> = {
  [sizeTables.name]: sizeTables,
  [articles.name]: articles,
};
