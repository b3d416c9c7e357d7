import { describe, expect, it } from 'vitest';
import { refusedFields as refused } from '../../kernel/refused-fields.ts';
import { checkCorrection, checkLine, checkLocation, type LocationInput, toLevel } from './stock-rules.ts';

const key = { locationCode: 'WH', articleNo: 'P100-010', sizex: 'M' };

describe('checkLocation', () => {
  const shop: LocationInput = {
    code: 'AMS',
    name: 'Amsterdam',
    kind: 'SHOP',
    servesWholesale: false,
    servesRetail: true,
  };

  it('takes a complete new location and reports every bad field of one', () => {
    expect(checkLocation(shop, true)).toEqual([]);
    expect(
      checkLocation(
        {
          ...shop,
          code: 'bad code!',
          name: ' ',
          kind: 'DEPOT' as never,
          country: 'nl',
          city: 'x'.repeat(101),
        },
        true,
      ).map((e) => e.name),
    ).toEqual(['code', 'name', 'kind', 'city', 'country']);
    expect(checkLocation({ ...shop, servesRetail: undefined as never }, true).map((e) => e.name)).toEqual([
      'servesRetail',
    ]);
  });

  it('checks only the fields a change gives', () => {
    expect(checkLocation({ postalCode: null, country: null }, false)).toEqual([]);
    expect(checkLocation({ active: 'yes' as never }, false).map((e) => e.name)).toEqual(['active']);
  });
});

describe('checkLine', () => {
  it('needs the whole key, a quantity from 1 to 1,000,000 and a short reference', () => {
    expect(refused(() => checkLine({ ...key, quantity: 1 }))).toEqual([]);
    expect(refused(() => checkLine({ ...key, quantity: 1_000_000, reference: 'ORDER-1' }))).toEqual([]);
    expect(refused(() => checkLine({ ...key, locationCode: '', quantity: 0 }))).toEqual([
      'locationCode',
      'quantity',
    ]);
    expect(refused(() => checkLine({ ...key, quantity: 1.5, reference: 'x'.repeat(101) }))).toEqual([
      'quantity',
      'reference',
    ]);
  });
});

describe('checkCorrection', () => {
  it('takes exactly one of setTo and delta', () => {
    expect(refused(() => checkCorrection({ ...key, setTo: 0 }))).toEqual([]);
    expect(refused(() => checkCorrection({ ...key, delta: -3 }))).toEqual([]);
    expect(refused(() => checkCorrection({ ...key }))).toEqual(['setTo']);
    expect(refused(() => checkCorrection({ ...key, setTo: 1, delta: 1 }))).toEqual(['setTo']);
  });

  it('refuses a delta of 0 or beyond a movement, and a level out of range', () => {
    expect(refused(() => checkCorrection({ ...key, delta: 0 }))).toEqual(['delta']);
    expect(refused(() => checkCorrection({ ...key, delta: 1_000_001 }))).toEqual(['delta']);
    expect(refused(() => checkCorrection({ ...key, setTo: -1 }))).toEqual(['setTo']);
    expect(refused(() => checkCorrection({ ...key, setTo: 100_000_001 }))).toEqual(['setTo']);
  });
});

describe('toLevel', () => {
  it('computes available, and gives zeros for a level that never had stock', () => {
    expect(toLevel(key, { on_hand: 10, reserved: 3, scn: 7 })).toEqual({
      ...key,
      onHand: 10,
      reserved: 3,
      available: 7,
      scn: 7,
    });
    expect(toLevel(key, undefined)).toEqual({ ...key, onHand: 0, reserved: 0, available: 0, scn: 0 });
  });
});
