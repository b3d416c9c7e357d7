import { describe, expect, it } from 'vitest';
import { seenBy } from './location-visibility.ts';
import type { LevelFeedRow } from './stock-read-repository.ts';
import type { LocationRow } from './stock-repository.ts';
import {
  articleStockToWire,
  levelToWire,
  levelVisibleTo,
  locationVisibleTo,
  quantitiesToWire,
} from './stock-wire.ts';

function location(code: string, overrides: Partial<LocationRow> = {}): LocationRow {
  return {
    code,
    name: code,
    kind: 'SHOP',
    serves_wholesale: 0,
    serves_retail: 1,
    active: 1,
    address: null,
    house_number: null,
    postal_code: null,
    city: null,
    country: null,
    deleted: 0,
    scn: 1,
    created_at: '',
    updated_at: '',
    ...overrides,
  };
}

const row: LevelFeedRow = {
  pos: 3,
  article_no: 'A1',
  sizex: 'M',
  location_code: 'WH',
  on_hand: 7,
  reserved: 2,
  scn: 9,
  article_deleted: 0,
  article_active: 1,
  article_retail: 1,
  location_deleted: 0,
  location_active: 1,
  serves_wholesale: 1,
  serves_retail: 0,
};

describe('stock visibility', () => {
  it('records who sees a location as written (its seen flags are set from it)', () => {
    expect(seenBy(location('AMS'))).toEqual({ wholesale: 0, retail: 1, shop: 1 });
    expect(seenBy(location('AMS', { kind: 'WAREHOUSE' }))).toEqual({ wholesale: 0, retail: 1, shop: 0 });
    expect(seenBy(location('AMS', { active: 0 }))).toEqual({ wholesale: 0, retail: 0, shop: 0 });
  });

  it('shows a location to the audiences it serves while active and not deleted', () => {
    expect(locationVisibleTo('B2C', location('AMS'))).toBe(true);
    expect(locationVisibleTo('B2B', location('AMS'))).toBe(false);
    expect(locationVisibleTo('B2C', location('AMS', { active: 0 }))).toBe(false);
    expect(locationVisibleTo('B2C', location('AMS', { deleted: 1 }))).toBe(false);
  });

  it('hides a level from retail when its article is unpublished or inactive, from everyone when deleted', () => {
    const both = { ...row, serves_retail: 1 };
    expect(levelVisibleTo('B2B', both)).toBe(true);
    expect(levelVisibleTo('B2C', both)).toBe(true);
    expect(levelVisibleTo('B2C', { ...both, article_retail: 0 })).toBe(false);
    expect(levelVisibleTo('B2B', { ...both, article_retail: 0, article_active: 0 })).toBe(true);
    expect(levelVisibleTo('B2B', { ...both, article_deleted: 1 })).toBe(false);
    expect(levelVisibleTo('B2C', row)).toBe(false);
  });
});

describe('stock wire mapping', () => {
  it('gives wholesale on hand, reserved and available, retail only available', () => {
    expect(quantitiesToWire('B2B', 7, 2)).toEqual({ ONHAND: 7, RESERVED: 2, AVAILABLE: 5 });
    expect(quantitiesToWire('B2C', 7, 2)).toEqual({ AVAILABLE: 5 });
    expect(levelToWire('B2C', row)).toEqual({
      ARTICLE: 'A1',
      SIZEX: 'M',
      LOCATION: 'WH',
      AVAILABLE: 5,
      SCN: 9,
    });
  });

  it('lists every size per location in size order, stock in a dropped size after them, and totals', () => {
    const wire = articleStockToWire(
      'B2B',
      42,
      'A1',
      ['S', 'M'],
      [location('AMS'), location('WH')],
      [
        { sizex: 'M', location_code: 'WH', on_hand: 5, reserved: 1 },
        { sizex: 'M', location_code: 'AMS', on_hand: 2, reserved: 0 },
        { sizex: 'XL', location_code: 'WH', on_hand: 1, reserved: 0 },
        { sizex: 'S', location_code: 'GONE', on_hand: 9, reserved: 0 },
      ],
    );
    expect(wire.SCN).toBe(42);
    expect(wire.LOCATIONS.map((l) => l.SIZES.map((s) => s.SIZEX))).toEqual([
      ['S', 'M', 'XL'],
      ['S', 'M', 'XL'],
    ]);
    expect(wire.LOCATIONS[0]?.SIZES[0]).toEqual({ SIZEX: 'S', ONHAND: 0, RESERVED: 0, AVAILABLE: 0 });
    expect(wire.TOTALS).toEqual([
      { SIZEX: 'S', ONHAND: 0, RESERVED: 0, AVAILABLE: 0 },
      { SIZEX: 'M', ONHAND: 7, RESERVED: 1, AVAILABLE: 6 },
      { SIZEX: 'XL', ONHAND: 1, RESERVED: 0, AVAILABLE: 1 },
    ]);
  });
});
