import { describe, expect, it } from 'vitest';
import { refusedFields as refused } from '../../kernel/refused-fields.ts';
import {
  type AgreementInput,
  actionPriceRow,
  agreementRow,
  isValidDate,
  lineDiscountRow,
  sameRow,
  todayOf,
} from './pricing-rules.ts';

const AT = '2026-06-15T10:00:00.000Z';

describe('isValidDate', () => {
  it('takes real calendar days only', () => {
    expect(isValidDate('2026-02-28')).toBe(true);
    expect(isValidDate('2028-02-29')).toBe(true);
    expect(isValidDate('2026-02-29')).toBe(false);
    expect(isValidDate('2026-13-01')).toBe(false);
    expect(isValidDate('2026-6-1')).toBe(false);
    expect(isValidDate('2026-06-01T00:00:00Z')).toBe(false);
  });
});

describe('agreementRow', () => {
  const base: AgreementInput = {
    customerNo: 10001,
    scope: 'MODEL',
    scopeValue: 'P100',
    validFrom: '2026-01-01',
    discountBp: 1000,
  };

  it('builds the stored row of a discount agreement with defaults', () => {
    const { row, prices } = agreementRow(base, AT);
    expect(row).toEqual({
      customer_no: 10001,
      customer_group: null,
      scope: 'MODEL',
      scope_value: 'P100',
      min_quantity: 1,
      valid_from: '2026-01-01',
      valid_to: null,
      kind: 'DISCOUNT',
      discount_bp: 1000,
      deleted: 0,
      created_at: AT,
      updated_at: AT,
    });
    expect(prices).toEqual([]);
  });

  it('sorts the net prices of a net-price agreement by currency', () => {
    const { row, prices } = agreementRow(
      { ...base, discountBp: null, netPrices: { GBP: 900, EUR: 1000 } },
      AT,
    );
    expect(row.kind).toBe('NETPRICE');
    expect(row.discount_bp).toBeNull();
    expect(prices).toEqual([
      { currency: 'EUR', price_minor: 1000 },
      { currency: 'GBP', price_minor: 900 },
    ]);
  });

  it('needs exactly one of customer and customer group, and of discount and net prices', () => {
    expect(refused(() => agreementRow({ ...base, customerGroup: 'SHOPS' }, AT))).toEqual(['/CUSTOMER']);
    expect(refused(() => agreementRow({ ...base, customerNo: null }, AT))).toEqual(['/CUSTOMER']);
    expect(refused(() => agreementRow({ ...base, netPrices: { EUR: 100 } }, AT))).toEqual(['/DISCOUNTPERC']);
    expect(refused(() => agreementRow({ ...base, discountBp: null }, AT))).toEqual(['/DISCOUNTPERC']);
  });

  // The shape of the fields (scope, codes, quantity, currency codes) is the schema's:
  // admin-pricing.test.ts sends them over HTTP.
  it('reports every bad field at once, by its pointer in the written record', () => {
    expect(
      refused(() =>
        agreementRow({ ...base, validFrom: '2026-02-30', validTo: '2025-12-31', discountBp: 10_001 }, AT),
      ),
    ).toEqual(['/VALIDFROM', '/DISCOUNTPERC']);
    expect(refused(() => agreementRow({ ...base, validTo: '2025-12-31', discountBp: 10_001 }, AT))).toEqual([
      '/VALIDTO',
      '/DISCOUNTPERC',
    ]);
    expect(
      refused(() => agreementRow({ ...base, discountBp: null, netPrices: { EUR: 100, GBP: 12.5 } }, AT)),
    ).toEqual(['/NETPRICES/1/PRICE']);
  });
});

describe('lineDiscountRow', () => {
  const base = {
    customerNo: 10001,
    scope: 'ARTICLEGROUP' as const,
    scopeValue: 'JEANS',
    discountBp: 500,
    validFrom: '2026-01-01',
    validTo: '2026-12-31',
  };

  it('builds the stored row', () => {
    expect(lineDiscountRow(base, AT)).toMatchObject({
      customer_no: 10001,
      scope: 'ARTICLEGROUP',
      scope_value: 'JEANS',
      discount_bp: 500,
      valid_to: '2026-12-31',
      deleted: 0,
    });
  });

  // Only model and article group scopes: the input mapper's (admin-pricing.test.ts).
  it('takes a discount above 0 and a period in order', () => {
    expect(refused(() => lineDiscountRow({ ...base, discountBp: 0 }, AT))).toEqual(['/DISCOUNTPERC']);
    expect(refused(() => lineDiscountRow({ ...base, validTo: '2025-01-01' }, AT))).toEqual(['/VALIDTO']);
    expect(refused(() => lineDiscountRow({ ...base, validFrom: '2026-02-30' }, AT))).toEqual(['/VALIDFROM']);
  });
});

describe('actionPriceRow', () => {
  const base = {
    articleNo: 'P100-010',
    currency: 'EUR',
    priceMinor: 2995,
    startDate: '2026-06-01',
    endDate: '2026-06-30',
  };

  it('builds the stored row; no size means every size', () => {
    expect(actionPriceRow(base, AT)).toMatchObject({
      article_no: 'P100-010',
      sizex: null,
      price_minor: 2995,
    });
    expect(actionPriceRow({ ...base, sizex: 'M' }, AT).sizex).toBe('M');
  });

  // Currency codes and a missing article are the schema's (admin-pricing.test.ts).
  it('refuses an end before the start and bad amounts', () => {
    expect(refused(() => actionPriceRow({ ...base, endDate: '2026-05-31' }, AT))).toEqual(['/ENDDATE']);
    expect(refused(() => actionPriceRow({ ...base, priceMinor: 29.95 }, AT))).toEqual(['/PRICE']);
    expect(refused(() => actionPriceRow({ ...base, priceMinor: -1, startDate: '2026-06-31' }, AT))).toEqual([
      '/PRICE',
      '/STARTDATE',
    ]);
  });
});

describe('sameRow', () => {
  it('compares every field but the ignored ones', () => {
    const a = { id: 1, price: 10, scn: 5 };
    expect(sameRow(a, { id: 1, price: 10, scn: 9 }, ['scn'])).toBe(true);
    expect(sameRow(a, { id: 1, price: 11, scn: 5 }, ['scn'])).toBe(false);
  });
});

describe('todayOf', () => {
  it('follows the clock across midnight (UTC), back and forth, the text made once a day', () => {
    const at = (iso: string) => todayOf(() => new Date(iso));
    expect(at('2026-11-26T23:59:59.999Z')).toBe('2026-11-26');
    expect(at('2026-11-27T00:00:00.000Z')).toBe('2026-11-27');
    expect(at('2026-11-26T00:00:00.000Z')).toBe('2026-11-26');
    expect(at('2024-02-29T12:00:00Z')).toBe('2024-02-29');
    expect(at('1969-12-31T23:59:59.999Z')).toBe('1969-12-31');
    expect(at('1970-01-01T00:00:00.000Z')).toBe('1970-01-01');
    for (let ms = Date.UTC(2026, 0, 1) - 7; ms < Date.UTC(2027, 0, 1); ms += 3_600_000 * 7 + 13) {
      expect(todayOf(() => new Date(ms))).toBe(new Date(ms).toISOString().slice(0, 10));
    }
  });
});
