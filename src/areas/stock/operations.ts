import { Type } from 'typebox';
import { feedAnswer } from '../../kernel/feed-page.ts';
import { MAX_SAFE_INT } from '../../kernel/int-limits.ts';
import { JsonText, operation, rootOf } from '../../kernel/operation.ts';
import type { Audience } from '../../kernel/paging.ts';
import { digits, type PageLimits, pageParams, queryObject, text, toPage } from '../../kernel/params.ts';
import { rooted } from '../../kernel/schemas.ts';
import { articleStockSchema, stockListSchema } from './schemas.ts';

const STOCK_PAGE: PageLimits = { defaultLimit: 500, maxLimit: 5000 };

const SEES = {
  B2B: 'Wholesale sees the active locations that serve wholesale, with on hand, reserved and available.',
  B2C:
    'Retail sees the active locations that serve retail and the articles published for retail, with ' +
    'AVAILABLE only (on hand minus reserved; on hand and reserved are internal).',
} as const;

const PAGING_NOTE =
  'One record per article, size and location, paged by stroffset/strlimit in position order (the order ' +
  'the levels were first stocked): stroffset is a position and NEXTOFFSET the position of the next page ' +
  '(not stroffset + strlimit); a page holds strlimit records whenever that many remain. With strscn > 0 ' +
  'only levels changed after that SCN come back, and DELETED lists levels no longer shown (location ' +
  'deleted, inactive or no longer serving this audience; article deleted or unpublished). Keep the SCN ' +
  'of the first page of a pass and pass it as strscn next time.';

const strlocation = Type.Optional(text('Only this location (shop or warehouse code).', 20));

function stockList(name: string, audience: Audience, changes: boolean) {
  const root = rootOf(name);
  return operation({
    name,
    method: 'GET',
    audience,
    area: 'Stock',
    summary: changes
      ? `Stock changes after an SCN (${audience === 'B2B' ? 'wholesale' : 'retail'})`
      : `All stock levels (${audience === 'B2B' ? 'wholesale' : 'retail'})`,
    description: `${SEES[audience]} ${PAGING_NOTE}${
      changes ? ' strscn is required here (0 gives everything, like the full list).' : ''
    }`,
    query: queryObject({
      ...pageParams(STOCK_PAGE),
      ...(changes
        ? {
            strscn: digits(
              'Only what changed after this SCN (required; 0 for everything).',
              undefined,
              MAX_SAFE_INT,
            ),
          }
        : {}),
      strlocation,
    }),
    response: rooted(root, stockListSchema(audience)),
    async handler({ query, services }) {
      const page = await services.stock.ledger.listLevels(
        audience,
        toPage(query, STOCK_PAGE),
        query.strlocation,
      );
      return feedAnswer(root, 'STOCKS', page);
    },
  });
}

function articleStock(name: string, audience: Audience) {
  const root = rootOf(name);
  return operation({
    name,
    method: 'GET',
    audience,
    area: 'Stock',
    summary: `Stock of one article (${audience === 'B2B' ? 'wholesale' : 'retail'})`,
    description:
      `${SEES[audience]} Per location every size of the article, plus TOTALS per size over the ` +
      'locations listed; strlocation narrows it to one location (404 LOCATION_NOT_FOUND if this ' +
      'audience does not see it).',
    query: queryObject({ strarticle: text('Article number.'), strlocation }),
    response: rooted(root, articleStockSchema(audience)),
    async handler({ query, services }) {
      const { ledger } = services.stock;
      // made on the reader thread (SQLite) where it can be, else here
      const text = await ledger.articleStockText(root, audience, query.strarticle, query.strlocation);
      if (text !== undefined) return new JsonText(text);
      return { [root]: await ledger.articleStock(audience, query.strarticle, query.strlocation) };
    },
  });
}

export const B2B_GetArticleStock = articleStock('B2B_GetArticleStock', 'B2B');
export const B2C_GetArticleStock = articleStock('B2C_GetArticleStock', 'B2C');
export const B2B_GetStocks = stockList('B2B_GetStocks', 'B2B', false);
export const B2C_GetStocks = stockList('B2C_GetStocks', 'B2C', false);
export const B2B_GetStockChanges = stockList('B2B_GetStockChanges', 'B2B', true);
export const B2C_GetStockChanges = stockList('B2C_GetStockChanges', 'B2C', true);
