import { describe, expect, it } from 'vitest';
import { refusedFields as refused } from '../../kernel/refused-fields.ts';
import { assertQuantity, checkCorrection, checkLocationCode, toLevel } from './stock-rules.ts';

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
