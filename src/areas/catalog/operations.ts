import { Type } from 'typebox';
import { ValidationError } from '../../kernel/errors.ts';
import { FeedSchema, feedAnswer } from '../../kernel/feed-page.ts';
import { Binary, JsonText, operation, rootOf } from '../../kernel/operation.ts';
import type { Audience } from '../../kernel/paging.ts';
import {
  type PageLimits,
  pageParams,
  positiveDigits,
  queryObject,
  text,
  toPage,
  toPositiveInt,
} from '../../kernel/params.ts';
import { rooted } from '../../kernel/schemas.ts';
import { articleListAnswer } from './article-list-answer.ts';
import { ArticleSchema, ImageSchema, SizeTableSchema } from './schemas.ts';

const ARTICLE_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
const IMAGE_PAGE: PageLimits = { defaultLimit: 500, maxLimit: 5000 };
const SIZE_TABLE_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };

const PAGING_NOTE =
  'Pages by stroffset/strlimit in position order (creation order): stroffset is a position and NEXTOFFSET ' +
  'the position of the next page. With strscn > 0 ' +
  'only articles changed after that SCN come back, and DELETED lists those deleted (or, for retail, no ' +
  'longer published) since. Keep the SCN of the first page of a pass and pass it as strscn next time.';

function allArticles(name: string, audience: Audience) {
  const root = rootOf(name);
  return operation({
    name,
    method: 'GET',
    audience,
    area: 'Articles',
    summary: audience === 'B2B' ? 'All articles (wholesale)' : 'All articles published for retail',
    description: PAGING_NOTE,
    query: queryObject(pageParams(ARTICLE_PAGE)),
    response: rooted(
      root,
      FeedSchema('ARTICLES', ArticleSchema, Type.String(), {
        deleted: { description: 'Article numbers deleted since strscn.' },
      }),
    ),
    async handler({ query, services, reply }) {
      // The articles are their stored answers (docs/catalog.md, "The article document"): their
      // bytes copied into the answer, neither parsed nor serialised (article-list-answer.ts).
      const page = await services.catalog.listArticleJson(audience, toPage(query, ARTICLE_PAGE));
      const answer = articleListAnswer(root, page);
      // Its buffer serves the next answer once these bytes were handed to the operating system
      // (`finish`); a response that ends otherwise (the client went away) leaves it to the GC.
      reply.raw.once('finish', answer.release);
      return new JsonText(answer.bytes);
    },
  });
}

function oneArticle(name: string, audience: Audience) {
  const root = rootOf(name);
  return operation({
    name,
    method: 'GET',
    audience,
    area: 'Articles',
    summary: audience === 'B2B' ? 'One article (wholesale)' : 'One article published for retail',
    description:
      'Looks the article up by its number (strarticle) or by the barcode of one of its sizes (strbarcode): ' +
      'give either one, not both (OpenAPI cannot state it for query parameters; a 400 names strarticle).',
    query: queryObject({
      strarticle: Type.Optional(text('Article number.')),
      strbarcode: Type.Optional(
        Type.String({ pattern: '^[0-9]{8,14}$', description: 'EAN/GTIN of one size.' }),
      ),
    }),
    response: rooted(
      root,
      Type.Object({ ARTICLES: Type.Array(ArticleSchema, { minItems: 1, maxItems: 1 }) }),
    ),
    async handler({ query, services }) {
      if ((query.strarticle === undefined) === (query.strbarcode === undefined)) {
        throw new ValidationError([{ name: 'strarticle', message: 'give either strarticle or strbarcode' }]);
      }
      const json = await services.catalog.articleJson(audience, {
        articleNo: query.strarticle,
        barcode: query.strbarcode,
      });
      return new JsonText(`{"${root}":{"ARTICLES":[${json}]}}`);
    },
  });
}

export const B2B_GetAllArticles = allArticles('B2B_GetAllArticles', 'B2B');
export const B2C_GetAllArticles = allArticles('B2C_GetAllArticles', 'B2C');
export const B2B_GetArticle = oneArticle('B2B_GetArticle', 'B2B');
export const B2C_GetArticle = oneArticle('B2C_GetArticle', 'B2C');

export const B2C_GetAllArticlesImages = operation({
  name: 'B2C_GetAllArticlesImages',
  method: 'GET',
  audience: 'B2C',
  area: 'Articles',
  summary: 'All article images (metadata)',
  description:
    'Lists the images of articles published for retail, without their bytes: fetch each with ' +
    'B2C_GetArticleImage, and only again when its SHA256 changed. Pages and syncs like B2C_GetAllArticles.',
  query: queryObject(pageParams(IMAGE_PAGE)),
  response: rooted(
    'B2CGETALLARTICLESIMAGES',
    FeedSchema('IMAGES', ImageSchema, Type.Object({ ARTICLE: Type.String(), IMAGENO: Type.Integer() })),
  ),
  async handler({ query, services }) {
    const page = await services.catalog.listImages('B2C', toPage(query, IMAGE_PAGE));
    return feedAnswer('B2CGETALLARTICLESIMAGES', 'IMAGES', page);
  },
});

export const B2C_GetArticleImage = operation({
  name: 'B2C_GetArticleImage',
  method: 'GET',
  audience: 'B2C',
  area: 'Articles',
  summary: 'Image of one article (the image bytes)',
  description:
    'Answers with the image itself, typed by what its bytes are (JPEG, PNG or WebP), with an ETag.',
  query: queryObject({
    strarticle: text('Article number.'),
    strimageno: Type.Optional(positiveDigits('Image number (default 1).', '1')),
  }),
  binaryTypes: ['image/jpeg', 'image/png', 'image/webp'],
  async handler({ query, services }) {
    const imageNo = toPositiveInt('strimageno', query.strimageno ?? '1');
    const image = await services.catalog.image('B2C', query.strarticle, imageNo);
    return new Binary(image.contentType, image.data, `"${image.sha256}"`);
  },
});

export const GetSizeTables = operation({
  name: 'GetSizeTables',
  method: 'GET',
  audience: 'GENERAL',
  area: 'Articles',
  summary: 'Size tables',
  description: 'Size tables with their sizes in order. Pages and syncs by SCN like the article lists.',
  query: queryObject(pageParams(SIZE_TABLE_PAGE)),
  response: rooted('GETSIZETABLES', FeedSchema('SIZETABLES', SizeTableSchema, Type.String())),
  async handler({ query, services }) {
    const page = await services.catalog.listSizeTables(toPage(query, SIZE_TABLE_PAGE));
    return feedAnswer('GETSIZETABLES', 'SIZETABLES', page);
  },
});
