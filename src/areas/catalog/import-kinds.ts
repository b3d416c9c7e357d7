import { withRoot } from '../../kernel/errors.ts';
import { checkRecord, fromCsv, type ImportKind } from '../../kernel/import/import-kind.ts';
import {
  ArticleBody,
  articleInput,
  articleRecordFromCsv,
  SizeTableBody,
  sizeTableInput,
  sizeTableRecordFromCsv,
} from './catalog-input.ts';

const sizeTables: ImportKind<ReturnType<typeof sizeTableInput>> = {
  name: 'sizetables',
  description: 'size tables: SIZETABLE, SIZES (CSV: "XS|S|M"), DESCRIPTION',
  parse: (record, format) =>
    sizeTableInput(
      checkRecord<SizeTableBody>(SizeTableBody, fromCsv(record, format, sizeTableRecordFromCsv)),
    ),
  save: (services, inputs) =>
    withRoot('', () => services.catalog.saveSizeTables(inputs), { single: inputs.length === 1 }),
};

const articles: ImportKind<ReturnType<typeof articleInput>> = {
  name: 'articles',
  description:
    'articles with sizes and barcodes, in the form of B2B_GetArticle (CSV: flat columns, see README)',
  parse: (record, format) =>
    articleInput(checkRecord<ArticleBody>(ArticleBody, fromCsv(record, format, articleRecordFromCsv))),
  save: (services, inputs) =>
    withRoot('', () => services.catalog.saveArticles(inputs), { single: inputs.length === 1 }),
};

/** The `tv2 import` kinds of the catalog area: size tables before the articles that use them. */
export const CATALOG_IMPORT_KINDS = [sizeTables, articles];
