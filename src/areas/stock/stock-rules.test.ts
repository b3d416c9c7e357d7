import { describe, expect, it } from 'vitest';
import { refusedFields as refused } from '../../kernel/refused-fields.ts';
import {
  assertQuantity,
  checkCorrection,
  checkLocationCode,
  describe as describeLevel,
  flag,
  locationNotFound,
  toLevel,
  toLocation,
} from './stock-rules.ts';

const key = { locationCode: 'WH', articleNo: 'P100-010', sizex: 'M' };

// The shape of each field (a location's name, kind, flags, address and country; a movement's key,
// quantity and reason; a correction's range) is its written form's schema: test/admin-stock.test.ts.

describe('checkLocationCode', () => {
  it('takes 1 to 20 letters, digits or . _ - (not first), named by the written form', () => {
    expect(checkLocationCode('AMS')).toEqual([]);
    expect(checkLocationCode('WH-2.north_1')).toEqual([]);
    for (const code of ['bad code!', '', '-AMS', 'x'.repeat(21)]) {
      expect(checkLocationCode(code).map((e) => e.name)).toEqual(['/LOCATION']);
    }
  });
});

describe('assertQuantity', () => {
  it('guards the ledger against a caller passing no positive whole number', () => {
    expect(() => assertQuantity(1)).not.toThrow();
    expect(() => assertQuantity(0, 0)).not.toThrow();
    for (const quantity of [0, -1, 1.5, Number.NaN])
      expect(() => assertQuantity(quantity)).toThrow(RangeError);
    expect(() => assertQuantity(-1, 0)).toThrow(RangeError);
  });
});

describe('checkCorrection', () => {
  it('takes exactly one of setTo and delta, named as SETTO', () => {
    expect(refused(() => checkCorrection({ ...key, setTo: 0 }))).toEqual([]);
    expect(refused(() => checkCorrection({ ...key, delta: -3 }))).toEqual([]);
    expect(refused(() => checkCorrection({ ...key }))).toEqual(['/SETTO']);
    expect(refused(() => checkCorrection({ ...key, setTo: 1, delta: 1 }))).toEqual(['/SETTO']);
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

describe('the refusals say what to give', () => {
  it('names the rule in each message', () => {
    expect(checkLocationCode('bad code!')).toEqual([
      { name: '/LOCATION', message: 'use 1 to 20 letters, digits or . _ -' },
    ]);
    expect(() => checkCorrection({ ...key })).toThrow(
      expect.objectContaining({
        errors: [{ name: '/SETTO', message: 'give either SETTO or DELTA' }],
      }),
    );
    expect(() => assertQuantity(0)).toThrow('a stock quantity is a whole number of at least 1, not 0');
    expect(describeLevel(key)).toBe('article P100-010 size M at WH');
    expect(locationNotFound('AMS')).toMatchObject({
      code: 'LOCATION_NOT_FOUND',
      message: 'No location "AMS".',
    });
  });
});

describe('toLocation and flag', () => {
  it('turn the stored 0/1 flags into booleans and back', () => {
    const row = {
      code: 'WH',
      name: 'Warehouse',
      kind: 'WAREHOUSE' as const,
      serves_wholesale: 1,
      serves_retail: 0,
      active: 1,
      address: 'Dam 1',
      house_number: '1',
      postal_code: '1012 AB',
      city: 'Amsterdam',
      country: 'NL',
      deleted: 0,
      scn: 9,
      created_at: '2030-01-01T00:00:00.000Z',
      updated_at: '2030-01-01T00:00:00.000Z',
    };
    expect(toLocation(row)).toEqual({
      code: 'WH',
      name: 'Warehouse',
      kind: 'WAREHOUSE',
      servesWholesale: true,
      servesRetail: false,
      active: true,
      address: 'Dam 1',
      houseNumber: '1',
      postalCode: '1012 AB',
      city: 'Amsterdam',
      country: 'NL',
      scn: 9,
    });
    expect(toLocation({ ...row, serves_wholesale: 0, serves_retail: 1, active: 0 })).toMatchObject({
      servesWholesale: false,
      servesRetail: true,
      active: false,
    });
    expect([flag(true), flag(false)]).toEqual([1, 0]);
  });
});
