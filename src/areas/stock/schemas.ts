import { Type } from 'typebox';
import { FeedSchema } from '../../kernel/feed-page.ts';
import { ScnSchema } from '../../kernel/schemas.ts';

const ONHAND = Type.Integer({ description: 'Physically at the location.' });
const RESERVED = Type.Integer({ minimum: 0, description: 'Held for orders not yet shipped.' });
const AVAILABLE = Type.Integer({
  minimum: 0,
  description: 'On hand minus reserved: what can still be sold. Never below zero.',
});

const KEY = {
  ARTICLE: Type.String({ description: 'Article number.' }),
  SIZEX: Type.String({ description: 'Size, as in the article’s SIZES.' }),
  LOCATION: Type.String({ description: 'Location code (shop or warehouse).' }),
};

const LEVEL_SCN = Type.Integer({ description: 'SCN of the last change of this level.' });

/** Wholesale sees on hand, reserved and available. */
export const WholesaleStockSchema = Type.Object(
  {
    ...KEY,
    ONHAND,
    RESERVED,
    AVAILABLE,
    SCN: LEVEL_SCN,
  },
  { title: 'StockLevel' },
);

/** Retail sees only what can be sold: on hand and reserved are internal. */
export const RetailStockSchema = Type.Object(
  { ...KEY, AVAILABLE, SCN: LEVEL_SCN },
  { title: 'RetailStockLevel' },
);

export const StockKeySchema = Type.Object(KEY, {
  title: 'StockLevelKey',
  description:
    'A level no longer shown to this audience (location or article deleted, inactive, not serving it).',
});

export function stockListSchema(audience: 'B2B' | 'B2C') {
  return FeedSchema('STOCKS', audience === 'B2B' ? WholesaleStockSchema : RetailStockSchema, StockKeySchema, {
    deleted: { description: 'Levels to drop, with strscn > 0 only.' },
  });
}

export function articleStockSchema(audience: 'B2B' | 'B2C') {
  const perSize =
    audience === 'B2B'
      ? Type.Object({ SIZEX: Type.String(), ONHAND, RESERVED, AVAILABLE })
      : Type.Object({ SIZEX: Type.String(), AVAILABLE });
  return Type.Object({
    SCN: ScnSchema,
    ARTICLE: Type.String(),
    LOCATIONS: Type.Array(
      Type.Object({
        LOCATION: Type.String({ description: 'Location code.' }),
        NAME: Type.String(),
        KIND: Type.Union([Type.Literal('SHOP'), Type.Literal('WAREHOUSE')]),
        SIZES: Type.Array(perSize, {
          description: 'Every size of the article in size-table order, zero where none is kept.',
        }),
      }),
    ),
    TOTALS: Type.Array(perSize, { description: 'Per size, summed over the locations listed.' }),
  });
}
