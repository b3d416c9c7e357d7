import type { AreaSqlExamples } from '../../kernel/db/sql-examples.ts';
import { sqlExamplesOf } from '../../kernel/db/sql-examples.ts';
import { ArticleDocumentRepository } from './article-document-repository.ts';
import { BarcodeRepository } from './barcode-repository.ts';
import { type ArticleRow, CatalogRepository, type ImageRow } from './catalog-repository.ts';
import { ImageRepository } from './image-repository.ts';

// Example calls of the catalogue's repository for the SQL snapshots (scripts/sql-snapshots.ts).

const AT = '2026-03-02T09:30:00.000Z';
const text = (en: string) => JSON.stringify({ LANGUAGE_1: en, LANGUAGE_2: en });

function article(articleNo: string, scn: number): ArticleRow {
  const [modelNo = articleNo, colourCode = '000'] = articleNo.split('-');
  return {
    article_no: articleNo,
    model_no: modelNo,
    colour_code: colourCode,
    colour_description: text('Navy'),
    description: text(`Slim jeans ${articleNo}`),
    model_description: text('Slim jeans'),
    search_name1: text('jeans'),
    search_name2: text(''),
    search_name3: text(''),
    brand: 'NORDWIND',
    season: '2026-SS',
    article_group: 'JEANS',
    vat_rate_bp: 2100,
    size_table_code: 'CONF',
    active: 1,
    retail: 1,
    deleted: 0,
    scn,
    created_at: AT,
    updated_at: AT,
  };
}

function image(articleNo: string, imageNo: number, scn: number): ImageRow {
  return {
    article_no: articleNo,
    image_no: imageNo,
    content_type: 'image/jpeg',
    byte_size: 4,
    sha256: 'a'.repeat(64),
    data: Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
    deleted: 0,
    scn,
  };
}

export const sqlExamples: AreaSqlExamples = {
  // Size table CONF (S, M, L); article 10001-100 with sizes, parameters and image 1.
  async seed(db) {
    await db
      .insertInto('size_table')
      .values({ code: 'CONF', description: text('Clothing'), deleted: 0, scn: 1 })
      .execute();
    await db
      .insertInto('size_table_size')
      .values(['S', 'M', 'L'].map((sizex, i) => ({ size_table_code: 'CONF', position: i + 1, sizex })))
      .execute();
    await db.insertInto('article').values(article('10001-100', 2)).execute();
    await db
      .insertInto('article_size')
      .values([
        { article_no: '10001-100', sizex: 'S', position: 1, barcode: '8710000100011' },
        { article_no: '10001-100', sizex: 'M', position: 2, barcode: '8710000100028' },
      ])
      .execute();
    await db
      .insertInto('article_parameter_code')
      .values({ article_no: '10001-100', parameter_code: 1, text: text('Cotton') })
      .execute();
    await db
      .insertInto('article_parameter_number')
      .values({ article_no: '10001-100', parameter_code: 10, parameter_no: 40, text: text('Wash at 40 °C') })
      .execute();
    await db
      .insertInto('article_image')
      .values(image('10001-100', 1, 3))
      .execute();
    await db
      .insertInto('article_document')
      .values({ article_no: '10001-100', scn: 2, document: '{"ARTICLE":"10001-100","SCN":' })
      .execute();
  },
  repositories: [
    sqlExamplesOf(CatalogRepository, {
      articleNoByBarcode: (r) => r.articleNoByBarcode('8710000100011'),
      articleStates: (r) => r.articleStates(['10001-100', '10002-200']),
      articleVersion: (r) => r.articleVersion('10001-100'),
      articlesPage: {
        'feed: changed after strscn, from a position': (r) => r.articlesPage('B2B', 5, 1, 101),
        'wholesale list: live ones': (r) => r.articlesPage('B2B', 0, 1, 101),
        'retail list: live, active and published': (r) => r.articlesPage('B2C', 0, 1, 101),
      },
      articlesUsingSizeTable: (r) => r.articlesUsingSizeTable('CONF'),
      barcodeOwners: (r) => r.barcodeOwners(['8710000100011', '8710000100035']),
      childrenOf: (r) => r.childrenOf(['10001-100', '10002-200']),
      findArticle: (r) => r.findArticle('10001-100'),
      findArticles: (r) => r.findArticles(['10001-100', '10002-200']),
      findSizeTable: (r) => r.findSizeTable('CONF'),
      liveArticles: (r) => r.liveArticles(['10001-100', '10002-200']),
      sizeTableExists: (r) => r.sizeTableExists('CONF'),
      sizeTablesPage: {
        feed: (r) => r.sizeTablesPage(5, 1, 101),
        list: (r) => r.sizeTablesPage(0, 1, 101),
      },
      sizesOfArticles: (r) => r.sizesOfArticles(['10001-100', '10002-200']),
      sizesOfTable: (r) => r.sizesOfTable('CONF'),
      sizesOfTables: (r) => r.sizesOfTables(['CONF', 'SHOES']),
      softDeleteArticle: (r) => r.softDeleteArticle('10001-100', 100, AT),
      softDeleteSizeTable: (r) => r.softDeleteSizeTable('CONF', 100),
      touchArticle: (r) => r.touchArticle('10001-100', 100, AT),
      upsertSizeTable: (r) =>
        r.upsertSizeTable({ code: 'SHOES', description: text('Shoes'), scn: 100 }, ['40', '41', '42']),
      // One article replaced (its children deleted first), one new.
      writeArticles: (r) =>
        r.writeArticles(
          [article('10001-100', 100), article('10002-200', 100)],
          {
            sizes: [
              { article_no: '10001-100', sizex: 'S', position: 1, barcode: '8710000100011' },
              { article_no: '10002-200', sizex: 'M', position: 2, barcode: '8710000100035' },
            ],
            parameterCodes: [{ article_no: '10002-200', parameter_code: 1, text: text('Cotton') }],
            parameterNumbers: [
              { article_no: '10002-200', parameter_code: 10, parameter_no: 30, text: text('Wash at 30 °C') },
            ],
          },
          ['10001-100'],
        ),
    }),
    sqlExamplesOf(ImageRepository, {
      findImage: (r) => r.findImage('10001-100', 1),
      imagesPage: {
        'feed: changed after strscn, from a position': (r) => r.imagesPage(5, 1, 501),
        'list: live images of articles published for retail': (r) => r.imagesPage(0, 1, 501),
      },
      putImage: (r) => r.putImage(image('10001-100', 2, 100)),
      softDeleteImage: (r) => r.softDeleteImage('10001-100', 1, 100),
      stampImages: (r) => r.stampImages(['10001-100', '10002-200'], 100),
    }),
    sqlExamplesOf(ArticleDocumentRepository, {
      byArticleNo: (r) => r.byArticleNo('10001-100'),
      byBarcode: (r) => r.byBarcode('8710000100011'),
      page: {
        'feed: changed after strscn, from a position': (r) => r.page('B2B', 5, 1, 101),
        'wholesale list: live ones': (r) => r.page('B2B', 0, 1, 101),
        'retail list: live, active and published': (r) => r.page('B2C', 0, 1, 101),
      },
      write: (r) =>
        r.write([{ article_no: '10001-100', scn: 100, document: '{"ARTICLE":"10001-100","SCN":' }]),
    }),
    sqlExamplesOf(BarcodeRepository, {
      sizesByBarcode: (r) => r.sizesByBarcode(['8710000100011', '8710000100028']),
    }),
  ],
};
