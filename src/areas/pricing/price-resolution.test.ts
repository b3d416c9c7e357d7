import { describe, expect, it } from 'vitest';
import {
  type AgreementCandidate,
  type LineDiscountCandidate,
  type PriceRequest,
  type ResolvedPrice,
  resolvePrice,
} from './price-resolution.ts';

const DATE = '2026-06-15';
const request = (
  over: Partial<PriceRequest> = {},
  customer: Partial<PriceRequest['customer']> = {},
): PriceRequest => ({
  customer: { customerNo: 10001, priceGroup: 2, customerGroup: 'SHOPS', discountBp: 0, ...customer },
  article: { articleNo: 'M1-010', modelNo: 'M1', articleGroup: 'JEANS' },
  sizex: 'M',
  quantity: 1,
  date: DATE,
  currency: 'EUR',
  ...over,
});

let nextId = 1;
/** An agreement of customer 10001 for article M1-010, net 80.00 EUR, valid from 2026-01-01, open-ended. */
const ag = (over: Partial<AgreementCandidate> = {}): AgreementCandidate => ({
  id: nextId++,
  customerNo: 10001,
  customerGroup: null,
  scope: 'ARTICLE',
  scopeValue: 'M1-010',
  minQuantity: 1,
  validFrom: '2026-01-01',
  validTo: null,
  discountBp: null,
  netPrices: { EUR: 8000 },
  ...over,
});
/** A line discount of customer 10001 for article group JEANS, 10 %, valid from 2026-01-01. */
const ld = (over: Partial<LineDiscountCandidate> = {}): LineDiscountCandidate => ({
  id: nextId++,
  customerNo: 10001,
  scope: 'ARTICLEGROUP',
  scopeValue: 'JEANS',
  discountBp: 1000,
  validFrom: '2026-01-01',
  validTo: null,
  ...over,
});
const group = (over: Partial<AgreementCandidate> = {}) =>
  ag({ customerNo: null, customerGroup: 'SHOPS', ...over });

interface Case {
  name: string;
  agreements?: AgreementCandidate[];
  lines?: LineDiscountCandidate[];
  req?: PriceRequest;
  listPrice?: number;
  expected: Partial<ResolvedPrice>;
}

const cases: Case[] = [
  // --- the order of precedence
  {
    name: 'nothing special: the list price',
    expected: { rule: 'LIST_PRICE', netPrice: 10000, discountBp: null },
  },
  {
    name: 'customer discount',
    req: request({}, { discountBp: 250 }),
    expected: { rule: 'CUSTOMER_DISCOUNT', netPrice: 9750, discountBp: 250 },
  },
  {
    name: 'line discount beats customer discount (no stacking)',
    req: request({}, { discountBp: 250 }),
    lines: [ld({ id: 501 })],
    expected: { rule: 'LINE_DISCOUNT', netPrice: 9000, discountBp: 1000, lineDiscountId: 501 },
  },
  {
    name: 'agreement beats line discount and customer discount, even when dearer',
    req: request({}, { discountBp: 5000 }),
    agreements: [ag({ id: 7, netPrices: { EUR: 9500 } })],
    lines: [ld({ discountBp: 3000 })],
    expected: { rule: 'AGREEMENT', netPrice: 9500, agreementId: 7, discountBp: null, lineDiscountId: null },
  },
  {
    name: 'discount agreement: a percentage off the list price',
    agreements: [ag({ id: 8, discountBp: 1500, netPrices: {} })],
    expected: { rule: 'AGREEMENT', netPrice: 8500, discountBp: 1500, agreementId: 8 },
  },
  // --- rounding: half away from zero to the cent
  {
    name: 'rounding: 12.5 % of 19.99 is 2.49875, rounded to 2.50',
    listPrice: 1999,
    req: request({}, { discountBp: 1250 }),
    expected: { rule: 'CUSTOMER_DISCOUNT', listPrice: 1999, netPrice: 1749 },
  },
  {
    name: 'rounding: 50 % of 10.05 is 5.025, rounded to 5.03',
    listPrice: 1005,
    lines: [ld({ discountBp: 5000 })],
    expected: { netPrice: 502 },
  },
  {
    name: '100 % discount is free',
    agreements: [ag({ discountBp: 10000, netPrices: {} })],
    expected: { netPrice: 0 },
  },
  // --- agreements: scope, party, quantity, ties
  {
    name: 'article scope beats model scope, even when the model price is lower',
    agreements: [ag({ id: 20, scope: 'MODEL', scopeValue: 'M1', netPrices: { EUR: 5000 } }), ag({ id: 21 })],
    expected: { agreementId: 21, netPrice: 8000 },
  },
  {
    name: 'model scope beats article group scope',
    agreements: [
      ag({ id: 22, scope: 'ARTICLEGROUP', scopeValue: 'JEANS', netPrices: { EUR: 5000 } }),
      ag({ id: 23, scope: 'MODEL', scopeValue: 'M1', netPrices: { EUR: 7000 } }),
    ],
    expected: { agreementId: 23, netPrice: 7000 },
  },
  {
    name: 'scope before party: a group agreement for the article beats a customer agreement for the model',
    agreements: [
      ag({ id: 24, scope: 'MODEL', scopeValue: 'M1' }),
      group({ id: 25, netPrices: { EUR: 9000 } }),
    ],
    expected: { agreementId: 25, netPrice: 9000 },
  },
  {
    name: 'customer-specific beats customer-group at the same scope, even when dearer',
    agreements: [group({ id: 30, netPrices: { EUR: 6000 } }), ag({ id: 31, netPrices: { EUR: 9000 } })],
    expected: { agreementId: 31, netPrice: 9000 },
  },
  {
    name: 'a customer-group agreement applies to customers of that group',
    agreements: [group({ id: 32 })],
    expected: { rule: 'AGREEMENT', agreementId: 32 },
  },
  {
    name: 'a customer-group agreement does not apply to another group',
    agreements: [group({ customerGroup: 'OUTLETS' })],
    expected: { rule: 'LIST_PRICE' },
  },
  {
    name: 'a customer-group agreement does not apply to a customer without a group',
    req: request({}, { customerGroup: null }),
    agreements: [group()],
    expected: { rule: 'LIST_PRICE' },
  },
  {
    name: "another customer's agreement does not apply",
    agreements: [ag({ customerNo: 10002 })],
    expected: { rule: 'LIST_PRICE' },
  },
  {
    name: 'an agreement for another article, model or group does not apply',
    agreements: [
      ag({ scopeValue: 'M1-020' }),
      ag({ scope: 'MODEL', scopeValue: 'M2' }),
      ag({ scope: 'ARTICLEGROUP', scopeValue: 'SHIRTS' }),
    ],
    expected: { rule: 'LIST_PRICE' },
  },
  {
    name: 'quantity breaks: quantity 1 takes the break of 1',
    agreements: [ag({ id: 40 }), ag({ id: 41, minQuantity: 10, netPrices: { EUR: 7500 } })],
    expected: { agreementId: 40, netPrice: 8000 },
  },
  {
    name: 'quantity breaks: quantity 9 is still below the break of 10',
    req: request({ quantity: 9 }),
    agreements: [ag({ id: 40 }), ag({ id: 41, minQuantity: 10, netPrices: { EUR: 7500 } })],
    expected: { agreementId: 40 },
  },
  {
    name: 'quantity breaks: quantity 10 reaches the break of 10',
    req: request({ quantity: 10 }),
    agreements: [ag({ id: 40 }), ag({ id: 41, minQuantity: 10, netPrices: { EUR: 7500 } })],
    expected: { agreementId: 41, netPrice: 7500 },
  },
  {
    name: 'quantity breaks: the highest break not above the quantity wins, even when dearer',
    req: request({ quantity: 30 }),
    agreements: [
      ag({ id: 42, minQuantity: 10, netPrices: { EUR: 7000 } }),
      ag({ id: 43, minQuantity: 25, netPrices: { EUR: 7200 } }),
      ag({ id: 44, minQuantity: 50, netPrices: { EUR: 6000 } }),
    ],
    expected: { agreementId: 43, netPrice: 7200 },
  },
  {
    name: 'quantity breaks: only a break above the quantity falls through to the next rule',
    req: request({ quantity: 5 }, { discountBp: 200 }),
    agreements: [ag({ minQuantity: 10 })],
    expected: { rule: 'CUSTOMER_DISCOUNT', netPrice: 9800 },
  },
  {
    name: 'tie (same scope, party, break): the lowest resulting price wins',
    agreements: [
      ag({ id: 50, netPrices: { EUR: 8100 } }),
      ag({ id: 51, discountBp: 2000, netPrices: {} }),
      ag({ id: 52, netPrices: { EUR: 7900 } }),
    ],
    expected: { agreementId: 52, netPrice: 7900 },
  },
  {
    name: 'tie on price too: the lowest id wins',
    agreements: [ag({ id: 61, netPrices: { EUR: 8000 } }), ag({ id: 60, discountBp: 2000, netPrices: {} })],
    expected: { agreementId: 60, netPrice: 8000, discountBp: 2000 },
  },
  // --- validity dates (inclusive)
  {
    name: 'an expired agreement does not apply',
    agreements: [ag({ validTo: '2026-06-14' })],
    lines: [ld({ id: 70 })],
    expected: { rule: 'LINE_DISCOUNT', lineDiscountId: 70 },
  },
  {
    name: 'an agreement ending today still applies (to is inclusive)',
    agreements: [ag({ id: 71, validTo: DATE })],
    expected: { rule: 'AGREEMENT', agreementId: 71 },
  },
  {
    name: 'an agreement starting today applies (from is inclusive)',
    agreements: [ag({ id: 72, validFrom: DATE })],
    expected: { rule: 'AGREEMENT', agreementId: 72 },
  },
  {
    name: 'a future agreement does not apply yet',
    agreements: [ag({ validFrom: '2026-06-16' })],
    expected: { rule: 'LIST_PRICE' },
  },
  {
    name: 'a future agreement applies on its date',
    req: request({ date: '2026-07-01' }),
    agreements: [ag({ id: 73, validFrom: '2026-07-01', netPrices: { EUR: 7000 } })],
    expected: { rule: 'AGREEMENT', agreementId: 73 },
  },
  {
    name: 'an expired agreement of a more specific scope gives way to a valid one of a wider scope',
    agreements: [
      ag({ validTo: '2026-05-31', netPrices: { EUR: 5000 } }),
      ag({ id: 74, scope: 'ARTICLEGROUP', scopeValue: 'JEANS', netPrices: { EUR: 9000 } }),
    ],
    expected: { agreementId: 74, netPrice: 9000 },
  },
  // --- currencies
  {
    name: 'a net-price agreement without the currency does not apply',
    req: request({ currency: 'GBP' }),
    agreements: [ag()],
    lines: [ld({ id: 80 })],
    expected: { rule: 'LINE_DISCOUNT', currency: 'GBP', lineDiscountId: 80 },
  },
  {
    name: 'a net-price agreement gives the price of the asked currency',
    req: request({ currency: 'GBP' }),
    listPrice: 8800,
    agreements: [ag({ id: 81, netPrices: { EUR: 8000, GBP: 6900 } })],
    expected: { rule: 'AGREEMENT', currency: 'GBP', listPrice: 8800, netPrice: 6900 },
  },
  // --- line discounts
  {
    name: 'line discount: model beats article group, even when smaller',
    lines: [
      ld({ id: 90, discountBp: 3000 }),
      ld({ id: 91, scope: 'MODEL', scopeValue: 'M1', discountBp: 500 }),
    ],
    expected: { lineDiscountId: 91, netPrice: 9500 },
  },
  {
    name: 'line discount tie: the highest discount wins',
    lines: [ld({ id: 92, discountBp: 1000 }), ld({ id: 93, discountBp: 1500 })],
    expected: { lineDiscountId: 93, netPrice: 8500 },
  },
  {
    name: 'line discount tie on discount too: the lowest id wins',
    lines: [ld({ id: 95 }), ld({ id: 94 })],
    expected: { lineDiscountId: 94 },
  },
  {
    name: 'expired and future line discounts do not apply',
    req: request({}, { discountBp: 100 }),
    lines: [ld({ validTo: '2026-06-14' }), ld({ validFrom: '2026-06-16' })],
    expected: { rule: 'CUSTOMER_DISCOUNT', netPrice: 9900 },
  },
  {
    name: "another customer's line discount does not apply",
    lines: [ld({ customerNo: 10002 })],
    expected: { rule: 'LIST_PRICE' },
  },
];

describe('resolvePrice', () => {
  it.each(cases)('$name', ({ agreements = [], lines = [], req = request(), listPrice = 10000, expected }) => {
    const resolved = resolvePrice(req, { listPrice, agreements, lineDiscounts: lines });
    expect(resolved).toMatchObject({ currency: req.currency, priceGroup: 2, listPrice, ...expected });
  });

  it.each([
    { name: 'no rules', agreements: [], lines: [] },
    { name: 'a valid agreement with a net price', agreements: [ag()], lines: [] },
    { name: 'a valid line discount', agreements: [], lines: [ld()] },
  ])('answers PRICE_NOT_FOUND without a list price in the currency, whatever else applies ($name)', ({
    agreements,
    lines,
  }) => {
    expect(() =>
      resolvePrice(request({ currency: 'CHF' }), { listPrice: undefined, agreements, lineDiscounts: lines }),
    ).toThrow(expect.objectContaining({ code: 'PRICE_NOT_FOUND' }));
  });

  it('does not depend on the order of the candidates', () => {
    const agreements = [
      ag({ id: 100, netPrices: { EUR: 8000 } }),
      ag({ id: 101, discountBp: 2000, netPrices: {} }),
      group({ id: 102, netPrices: { EUR: 1000 } }),
      ag({ id: 103, minQuantity: 5, netPrices: { EUR: 7000 } }),
    ];
    // Every one of the 24 orders, not a random few: an order-dependent choice fails every run.
    const orders = permutations(agreements);
    expect(orders).toHaveLength(24);
    const winners = new Set<number | null>();
    for (const shuffled of orders) {
      const r = resolvePrice(request({ quantity: 4 }), {
        listPrice: 10000,
        agreements: shuffled,
        lineDiscounts: [],
      });
      winners.add(r.agreementId);
    }
    expect([...winners]).toEqual([100]);
  });
});

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

describe('resolvePrice: each tie-break, whichever candidate comes first', () => {
  const resolve = (agreements: AgreementCandidate[], lines: LineDiscountCandidate[] = [], quantity = 10) =>
    resolvePrice(request({ quantity }), { listPrice: 10000, agreements, lineDiscounts: lines });
  const bothOrders = <T>(better: T, worse: T): T[][] => [
    [better, worse],
    [worse, better],
  ];

  it.each([
    [
      'the narrower scope',
      ag({ id: 11, netPrices: { EUR: 9000 } }),
      ag({ id: 12, scope: 'MODEL', scopeValue: 'M1' }),
    ],
    ['the customer before its group', ag({ id: 21, netPrices: { EUR: 9000 } }), group({ id: 22 })],
    ['the higher quantity break', ag({ id: 31, minQuantity: 10, netPrices: { EUR: 9000 } }), ag({ id: 32 })],
    ['the lower price', ag({ id: 41, netPrices: { EUR: 7000 } }), ag({ id: 42 })],
    ['the lower id', ag({ id: 51 }), ag({ id: 52 })],
  ])('agreements: %s wins', (_rule, better, worse) => {
    for (const agreements of bothOrders(better, worse))
      expect(resolve(agreements).agreementId).toBe(better.id);
  });

  it.each([
    [
      'the model before the article group',
      ld({ id: 61, scope: 'MODEL', scopeValue: 'M1', discountBp: 500 }),
      ld({ id: 62 }),
    ],
    ['the higher discount', ld({ id: 71, discountBp: 1500 }), ld({ id: 72 })],
    ['the lower id', ld({ id: 81 }), ld({ id: 82 })],
  ])('line discounts: %s wins', (_rule, better, worse) => {
    for (const lines of bothOrders(better, worse)) expect(resolve([], lines).lineDiscountId).toBe(better.id);
  });

  it('applies a group agreement only to a customer of that group, never to another customer', () => {
    // an agreement of no customer and no group applies to nobody, also not to a customer without a group
    const noGroup = request({}, { customerGroup: null });
    const nobody = ag({ customerNo: null, customerGroup: null });
    expect(resolvePrice(noGroup, { listPrice: 10000, agreements: [nobody], lineDiscounts: [] }).rule).toBe(
      'LIST_PRICE',
    );
    // another customer's agreement does not apply through the group it also names
    const others = ag({ customerNo: 10002, customerGroup: 'SHOPS' });
    expect(resolve([others]).rule).toBe('LIST_PRICE');
  });

  it('says which article, size, currency and price group have no price', () => {
    expect(() =>
      resolvePrice(request({ currency: 'CHF' }), { listPrice: undefined, agreements: [], lineDiscounts: [] }),
    ).toThrow('Article M1-010 size M has no selling price in CHF for price group 2.');
  });
});
