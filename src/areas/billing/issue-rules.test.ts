import { describe, expect, it } from 'vitest';
import {
  addDays,
  contentHash,
  creditNoteSnapshot,
  documentLanguage,
  documentNumber,
  invoiceSnapshot,
  type LineToInvoice,
  paymentReference,
  vatTreatment,
} from './issue-rules.ts';
import { SAMPLE_SELLER } from './pdf/sample-documents.ts';
import { moneyProblems } from './rules/document-calculator.ts';
import { parseStructuredReference } from './rules/structured-reference.ts';
import { toUbl } from './ubl/ubl-document.ts';

const BUYER = {
  customerNo: 10009,
  name: 'Boetiek Het Anker BV',
  street: 'Grote Markt 7',
  postalCode: '8000',
  city: 'Brugge',
  countryCode: 'BE',
  vatNumber: 'BE0987654394',
  enterpriseNumber: '0987654394',
};

const line = (over: Partial<LineToInvoice> = {}): LineToInvoice => ({
  deliveryNo: 7,
  lineNo: 1,
  deliveryDate: '2026-11-18',
  orderNo: 3,
  customerReference: 'PO-1',
  currency: 'EUR',
  articleNo: 'B100-010',
  sizex: 'M',
  barcode: '8740000001014',
  delivered: 3,
  quantity: 3,
  unitPrice: 1999,
  discountBp: 1000,
  vatBp: 2100,
  ...over,
});

const header = {
  seq: 123,
  year: 2026,
  issueDate: '2026-11-20',
  paymentDays: 30,
  seller: SAMPLE_SELLER,
  buyer: BUYER,
  language: 'nl' as const,
};

describe('issue rules', () => {
  it('numbers and payment references: per type, gapless seq written on six digits, mod-97 checked', () => {
    expect(documentNumber('INVOICE', 2026, 123)).toBe('INV-2026-000123');
    expect(documentNumber('CREDIT_NOTE', 2026, 7)).toBe('CN-2026-000007');
    const invoice = paymentReference('INVOICE', 2026, 123);
    expect(invoice).toBe('+++261/0000/12374+++');
    expect(parseStructuredReference(invoice)).toMatchObject({ ok: true, value: invoice });
    expect(paymentReference('CREDIT_NOTE', 2026, 123)).not.toBe(invoice);
    expect(() => paymentReference('INVOICE', 2026, 10_000_000)).toThrow(RangeError);
    expect(() => paymentReference('INVOICE', 2026, 0)).toThrow(RangeError);
  });

  it('dates, languages and hashes', () => {
    expect(addDays('2026-12-15', 30)).toBe('2027-01-14');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(
      ['LANGUAGE_1', 'LANGUAGE_11', 'LANGUAGE_2', 'LANGUAGE_3', 'LANGUAGE_4', 'X'].map(documentLanguage),
    ).toEqual(['nl', 'nl', 'en', 'de', 'fr', 'en']);
    expect(contentHash('{}')).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });

  it('VAT treatment: home rate, intra-community supply, export, an EU consumer at the home rate', () => {
    const be = { countryCode: 'BE' };
    expect(vatTreatment(be, { countryCode: 'BE', vatNumber: 'BE0987654394' }, 2100)).toEqual({
      vatCategory: 'S',
      vatBp: 2100,
    });
    expect(vatTreatment(be, { countryCode: 'BE' }, 0)).toEqual({ vatCategory: 'Z', vatBp: 0 });
    expect(vatTreatment(be, { countryCode: 'NL', vatNumber: 'NL123456789B01' }, 2100)).toEqual({
      vatCategory: 'K',
      vatBp: 0,
    });
    expect(vatTreatment(be, { countryCode: 'GB', vatNumber: 'GB123456789' }, 2100)).toEqual({
      vatCategory: 'G',
      vatBp: 0,
    });
    expect(vatTreatment(be, { countryCode: 'NL' }, 600)).toEqual({ vatCategory: 'S', vatBp: 600 });
  });

  it('an invoice snapshot: lines with their discount, money consistent, references, a valid UBL', () => {
    const s = invoiceSnapshot(
      header,
      [line(), line({ lineNo: 2, sizex: 'L', quantity: 1, discountBp: 0, vatBp: 600 })],
      new Map([['8740000001014', 'Polo piqué']]),
    );
    expect(s).toMatchObject({
      type: 'INVOICE',
      number: 'INV-2026-000123',
      dueDate: '2026-12-20',
      deliveryDate: '2026-11-18',
      buyerReference: 'PO-1',
      orderReference: 'PO-1',
      paymentReference: '+++261/0000/12374+++',
    });
    expect(s.lines.map((l) => [l.description, l.quantity, l.discount, l.amount, l.vatBp])).toEqual([
      ['Polo piqué', 3, 600, 5397, 2100],
      ['Polo piqué', 1, 0, 1999, 600],
    ]);
    expect(s.totals).toEqual({
      lines: 7396,
      net: 7396,
      vat: 1133 + 120,
      gross: 7396 + 1253,
      payable: 7396 + 1253,
    });
    expect(moneyProblems(s)).toEqual([]);
    expect(toUbl(s)).toContain('<cbc:ID>INV-2026-000123</cbc:ID>');
  });

  it('a credit note: the invoice’s lines in part, its discount in proportion, the reference and the legal mention', () => {
    const invoice = invoiceSnapshot(header, [line()], new Map());
    expect(invoice.lines[0]?.description).toBe('B100-010 M');
    const cn = creditNoteSnapshot(invoice, [{ lineNo: 1, quantity: 1 }], {
      seq: 4,
      year: 2026,
      issueDate: '2026-11-25',
    });
    expect(cn).toMatchObject({
      type: 'CREDIT_NOTE',
      number: 'CN-2026-000004',
      corrects: { number: 'INV-2026-000123', issueDate: '2026-11-20' },
      notes: [
        'BTW terug te storten aan de Staat in de mate waarin ze oorspronkelijk in aftrek werd gebracht',
      ],
    });
    expect(cn.lines.map((l) => [l.quantity, l.discount, l.amount])).toEqual([[1, 200, 1799]]);
    expect(moneyProblems(cn)).toEqual([]);
    expect(toUbl(cn)).toContain('<cbc:ID>INV-2026-000123</cbc:ID>');
    expect(() =>
      creditNoteSnapshot(invoice, [{ lineNo: 9, quantity: 1 }], {
        seq: 5,
        year: 2026,
        issueDate: '2026-11-25',
      }),
    ).toThrow(RangeError);
  });
});
