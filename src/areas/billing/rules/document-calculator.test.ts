import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../test/helpers/seed.ts';
import { percentOf } from '../../../kernel/money.ts';
import type { DocumentSnapshot, VatCategory } from '../document.ts';
import { calculateDocument, type LineInput, moneyProblems } from './document-calculator.ts';

const line = (over: Partial<LineInput> = {}): LineInput => ({
  quantity: 1,
  unitPrice: 1000,
  discount: 0,
  vatCategory: 'S',
  vatBp: 2100,
  ...over,
});
const NL = { language: 'nl' as const };

describe('calculateDocument', () => {
  it('prices each line exactly: quantity × unit price − discount', () => {
    const money = calculateDocument([line({ quantity: 3, unitPrice: 1999, discount: 750 })], NL);
    expect(money.lines[0]?.amount).toBe(5247);
  });

  it('rounds VAT once per (category, rate) on the taxable sum, never from rounded lines', () => {
    // Three lines of 0.03 at 21 %: 0.0063 each would round to 0.01 (0.03 in all); once on 0.09: 0.0189 → 0.02.
    const money = calculateDocument(
      [line({ unitPrice: 3 }), line({ unitPrice: 3 }), line({ unitPrice: 3 })],
      NL,
    );
    expect(money.vat).toEqual([{ vatCategory: 'S', vatBp: 2100, taxable: 9, vat: 2 }]);
    expect(money.totals).toEqual({ lines: 9, net: 9, vat: 2, gross: 11, payable: 11 });
  });

  it('rounds half away from zero (0.5 cent up)', () => {
    // 0.50 × 21 % = 0.105 → 0.11
    expect(calculateDocument([line({ unitPrice: 50 })], NL).vat[0]?.vat).toBe(11);
  });

  it('orders the rows by category, then rate, one per (category, rate)', () => {
    const money = calculateDocument(
      [
        line({ vatBp: 2100, unitPrice: 10_000 }),
        line({ vatCategory: 'Z', vatBp: 0, unitPrice: 500 }),
        line({ vatBp: 600, unitPrice: 2_000, discount: 200 }),
        line({ vatBp: 2100, unitPrice: 1_000, quantity: 2 }),
      ],
      NL,
    );
    expect(money.vat).toEqual([
      { vatCategory: 'S', vatBp: 600, taxable: 1_800, vat: 108 },
      { vatCategory: 'S', vatBp: 2100, taxable: 12_000, vat: 2_520 },
      { vatCategory: 'Z', vatBp: 0, taxable: 500, vat: 0 },
    ]);
    expect(money.totals).toEqual({ lines: 14_300, net: 14_300, vat: 2_628, gross: 16_928, payable: 16_928 });
  });

  it('gives the exempt categories their reason in the document language and their VATEX code', () => {
    const rows = (category: VatCategory, language: 'nl' | 'fr' = 'nl') =>
      calculateDocument([line({ vatCategory: category, vatBp: 0 })], { language }).vat[0];
    expect(rows('AE')).toMatchObject({
      exemptionCode: 'VATEX-EU-AE',
      exemptionReason: 'Verlegging van heffing',
    });
    expect(rows('AE', 'fr')).toMatchObject({ exemptionReason: 'Autoliquidation' });
    expect(rows('K')).toMatchObject({ exemptionCode: 'VATEX-EU-IC' });
    expect(rows('G')).toMatchObject({ exemptionCode: 'VATEX-EU-G' });
    expect(rows('O')).toMatchObject({ exemptionCode: 'VATEX-EU-O' });
    expect(rows('Z')).toEqual({ vatCategory: 'Z', vatBp: 0, taxable: 1000, vat: 0 });
    const exempt = calculateDocument([line({ vatCategory: 'E', vatBp: 0 })], {
      language: 'en',
      exemption: { reason: 'Exempt under art. 44 Belgian VAT Code', code: 'VATEX-EU-132' },
    }).vat[0];
    expect(exempt).toMatchObject({
      exemptionReason: 'Exempt under art. 44 Belgian VAT Code',
      exemptionCode: 'VATEX-EU-132',
    });
  });

  it('refuses what the category rules forbid', () => {
    expect(() => calculateDocument([line({ vatBp: 0 })], NL)).toThrow(/category S needs a rate above 0/);
    expect(() => calculateDocument([line({ vatCategory: 'AE' })], NL)).toThrow(/category AE has rate 0/);
    expect(() => calculateDocument([line({ vatCategory: 'E', vatBp: 0 })], NL)).toThrow(/exemption reason/);
    expect(() => calculateDocument([line({ vatCategory: 'O', vatBp: 0 }), line()], NL)).toThrow(
      /never mixed/,
    );
  });

  it('refuses impossible lines', () => {
    for (const bad of [
      { quantity: 0 },
      { quantity: 1.5 },
      { unitPrice: -1 },
      { unitPrice: 0.5 },
      { discount: -1 },
      { discount: 1001 },
      { vatBp: 10_001 },
      { quantity: 2 ** 40, unitPrice: 2 ** 20 },
    ])
      expect(() => calculateDocument([line(bad)], NL), JSON.stringify(bad)).toThrow(RangeError);
    expect(() => calculateDocument([], NL)).toThrow(RangeError);
  });

  const anyLine = fc.oneof(
    fc.record({
      quantity: fc.integer({ min: 1, max: 10_000 }),
      unitPrice: fc.integer({ min: 0, max: 10_000_000 }),
      discountShare: fc.integer({ min: 0, max: 100 }),
      vatCategory: fc.constant<VatCategory>('S'),
      vatBp: fc.constantFrom(600, 1200, 2100, 550, 1250, 1),
    }),
    fc.record({
      quantity: fc.integer({ min: 1, max: 10_000 }),
      unitPrice: fc.integer({ min: 0, max: 10_000_000 }),
      discountShare: fc.integer({ min: 0, max: 100 }),
      vatCategory: fc.constantFrom<VatCategory>('Z', 'E', 'AE', 'K', 'G'),
      vatBp: fc.constant(0),
    }),
  );

  it('keeps the invariants: Σ taxable = Σ lines, gross = net + vat, each row rounded once, integers only', async () => {
    await assertProperty(
      fc.property(
        fc.array(anyLine, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 1_000 }),
        (drawn, prepaid) => {
          const lines = drawn.map(({ discountShare, ...l }) => ({
            ...l,
            discount: Math.floor((l.quantity * l.unitPrice * discountShare) / 100),
          }));
          const money = calculateDocument(lines, {
            language: 'de',
            exemption: { reason: 'Steuerbefreit' },
            prepaid,
          });
          const sum = (values: number[]) => values.reduce((n, v) => n + v, 0);
          const { totals } = money;
          expect(sum(money.vat.map((r) => r.taxable))).toBe(totals.lines);
          expect(sum(money.lines.map((l) => l.amount))).toBe(totals.lines);
          expect(totals.net).toBe(totals.lines);
          expect(totals.vat).toBe(sum(money.vat.map((r) => r.vat)));
          expect(totals.gross).toBe(totals.net + totals.vat);
          expect(totals.payable).toBe(totals.gross - prepaid);
          for (const row of money.vat) {
            expect(row.vat).toBe(percentOf(row.taxable, row.vatBp));
            // EN 16931 BR-CO-17 as the rules compute it: round(taxable × rate / 100, 2 decimals).
            expect(row.vat).toBe(Math.round((row.taxable * row.vatBp) / 10_000));
          }
          const keys = money.vat.map((r) => `${r.vatCategory}/${r.vatBp}`);
          expect(new Set(keys).size).toBe(keys.length);
          const all = [
            ...Object.values(totals),
            ...money.vat.flatMap((r) => [r.taxable, r.vat]),
            ...money.lines.map((l) => l.amount),
          ];
          for (const value of all) expect(Number.isSafeInteger(value)).toBe(true);
        },
      ),
      300,
    );
  });
});

describe('moneyProblems', () => {
  const snapshot = (): DocumentSnapshot => {
    const money = calculateDocument([line({ quantity: 2, discount: 100 }), line({ vatBp: 600 })], NL);
    return {
      type: 'INVOICE',
      number: '2026-000001',
      issueDate: '2026-11-26',
      dueDate: '2026-12-26',
      currency: 'EUR',
      language: 'nl',
      seller: {
        name: 'S',
        street: 'a',
        postalCode: '1000',
        city: 'Brussel',
        countryCode: 'BE',
        iban: 'BE68539007547034',
      },
      buyer: {
        name: 'B',
        street: 'b',
        postalCode: '2000',
        city: 'Antwerpen',
        countryCode: 'BE',
        customerNo: 1,
      },
      buyerReference: '1',
      paymentReference: '+++000/0000/00101+++',
      paymentTerms: 'x',
      notes: [],
      lines: money.lines.map((l, i) => ({
        ...l,
        lineNo: i + 1,
        articleNo: 'A',
        sizex: '1',
        description: 'd',
      })),
      vat: [...money.vat],
      totals: money.totals,
    };
  };

  it('finds nothing wrong with what the calculator made', () => {
    expect(moneyProblems(snapshot())).toEqual([]);
  });

  it('names a line, a row or a total that its lines do not give', () => {
    const doc = snapshot();
    doc.lines[0] = { ...doc.lines[0]!, amount: 1 };
    doc.vat[0] = { ...doc.vat[0]!, vat: doc.vat[0]!.vat + 1 };
    doc.totals = { ...doc.totals, gross: doc.totals.gross + 1 };
    const problems = moneyProblems(doc);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^line 1: amount 1/);
    expect(problems[1]).toMatch(/^VAT breakdown/);
    expect(problems[2]).toMatch(/^total gross/);
  });

  it('names a missing exemption reason or a wrong code', () => {
    const doc = snapshot();
    doc.vat[0] = { ...doc.vat[0]!, exemptionCode: 'VATEX-EU-AE' };
    expect(moneyProblems(doc)).toEqual(['VAT category S has no exemption reason or code']);
  });
});
