import { describe, expect, it } from 'vitest';
import { articleStockAnswer as answerOrMissing } from './article-stock-answer.ts';
import {
  ARTICLE_PART,
  type ArticleStockRow,
  LEVEL_PART,
  LOCATION_PART,
  SIZE_PART,
} from './article-stock-rows.ts';
import type { ArticleStockWire } from './stock-wire.ts';

const row = (r: Partial<ArticleStockRow> & { part: number }): ArticleStockRow => ({
  sizex: null,
  code: null,
  name: null,
  kind: null,
  n1: null,
  n2: null,
  n3: null,
  ...r,
});
const article = (deleted: number, active: number, retail: number) =>
  row({ part: ARTICLE_PART, n1: deleted, n2: active, n3: retail });
const size = (sizex: string, position: number) => row({ part: SIZE_PART, sizex, n1: position });
const location = (code: string) => row({ part: LOCATION_PART, code, name: `Shop ${code}`, kind: 'SHOP' });
const level = (sizex: string, code: string, onHand: number, reserved: number) =>
  row({ part: LEVEL_PART, sizex, code, n1: onHand, n2: reserved });

/** The answer, or a throw naming why there is none (as the service refuses). */
const articleStockAnswer = (...args: Parameters<typeof answerOrMissing>): ArticleStockWire => {
  const answer = answerOrMissing(...args);
  if (answer === 'article') throw Object.assign(new Error(answer), { code: 'ARTICLE_NOT_FOUND' });
  if (answer === 'location') throw Object.assign(new Error(answer), { code: 'LOCATION_NOT_FOUND' });
  return answer;
};

describe('articleStockAnswer', () => {
  it('puts rows that come in any order in size-table and code order, with the levels at the locations listed', () => {
    const rows = [
      level('M', 'B', 4, 1),
      location('B'),
      size('M', 2),
      level('S', 'HIDDEN', 9, 0), // a location this audience does not see: not listed, not counted
      article(0, 1, 1),
      level('XL', 'A', 2, 0), // a size the article no longer has: after its sizes
      size('S', 1),
      location('A'),
      level('S', 'A', 3, 0),
    ];
    expect(articleStockAnswer('B2B', 42, 'X1', rows)).toEqual({
      SCN: 42,
      ARTICLE: 'X1',
      LOCATIONS: [
        {
          LOCATION: 'A',
          NAME: 'Shop A',
          KIND: 'SHOP',
          SIZES: [
            { SIZEX: 'S', ONHAND: 3, RESERVED: 0, AVAILABLE: 3 },
            { SIZEX: 'M', ONHAND: 0, RESERVED: 0, AVAILABLE: 0 },
            { SIZEX: 'XL', ONHAND: 2, RESERVED: 0, AVAILABLE: 2 },
          ],
        },
        {
          LOCATION: 'B',
          NAME: 'Shop B',
          KIND: 'SHOP',
          SIZES: [
            { SIZEX: 'S', ONHAND: 0, RESERVED: 0, AVAILABLE: 0 },
            { SIZEX: 'M', ONHAND: 4, RESERVED: 1, AVAILABLE: 3 },
            { SIZEX: 'XL', ONHAND: 0, RESERVED: 0, AVAILABLE: 0 },
          ],
        },
      ],
      TOTALS: [
        { SIZEX: 'S', ONHAND: 3, RESERVED: 0, AVAILABLE: 3 },
        { SIZEX: 'M', ONHAND: 4, RESERVED: 1, AVAILABLE: 3 },
        { SIZEX: 'XL', ONHAND: 2, RESERVED: 0, AVAILABLE: 2 },
      ],
    });
  });

  it('puts sizes the article no longer has after its sizes, in text order, if stocked at a location listed', () => {
    const rows = [
      article(0, 1, 1),
      size('L', 1),
      location('A'),
      level('ZZ', 'A', 1, 0),
      level('XX', 'A', 2, 1),
      level('YY', 'HIDDEN', 5, 0), // not at a location listed: no size of its own
      level('L', 'A', 4, 4),
    ];
    const answer = articleStockAnswer('B2C', 7, 'X1', rows);
    expect(answer.LOCATIONS).toEqual([
      {
        LOCATION: 'A',
        NAME: 'Shop A',
        KIND: 'SHOP',
        SIZES: [
          { SIZEX: 'L', AVAILABLE: 0 },
          { SIZEX: 'XX', AVAILABLE: 1 },
          { SIZEX: 'ZZ', AVAILABLE: 1 },
        ],
      },
    ]);
    expect(answer.TOTALS).toEqual([
      { SIZEX: 'L', AVAILABLE: 0 },
      { SIZEX: 'XX', AVAILABLE: 1 },
      { SIZEX: 'ZZ', AVAILABLE: 1 },
    ]);
  });

  it('refuses an article that is missing or not seen before a location that is not seen', () => {
    const code = (f: () => unknown) => {
      try {
        f();
        return 'answered';
      } catch (error) {
        return (error as { code?: string }).code;
      }
    };
    expect(code(() => articleStockAnswer('B2C', 1, 'X1', [location('A')], 'NOPE'))).toBe('ARTICLE_NOT_FOUND');
    expect(code(() => articleStockAnswer('B2C', 1, 'X1', [article(0, 1, 0)]))).toBe('ARTICLE_NOT_FOUND');
    expect(code(() => articleStockAnswer('B2B', 1, 'X1', [article(1, 1, 1)]))).toBe('ARTICLE_NOT_FOUND');
    expect(code(() => articleStockAnswer('B2B', 1, 'X1', [article(0, 0, 0)], 'NOPE'))).toBe(
      'LOCATION_NOT_FOUND',
    );
    expect(code(() => articleStockAnswer('B2B', 1, 'X1', [article(0, 0, 0)]))).toBe('answered');
  });
});
