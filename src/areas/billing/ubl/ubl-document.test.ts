import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LocatedBundle,
  loadValidator,
  locateBundle,
  type PeppolValidator,
  ruleSetHashes,
} from '../../../../test/peppol-validator.ts';
import type { DocumentLanguage, DocumentSnapshot, VatCategory } from '../document.ts';
import { calculateDocument, type LineInput } from '../rules/document-calculator.ts';
import { legalMentions, paymentTermsSentence } from '../rules/legal-mentions.ts';
import { makeStructuredReference } from '../rules/structured-reference.ts';
import { decimal, percent, toUbl, UblRefusal } from './ubl-document.ts';

/**
 * Every document here is validated against the official EN 16931 and Peppol BIS Billing 3.0 rule
 * sets (test/peppol-validator.ts finds the bundle, or unpacks the vendored copy). All Peppol
 * validations of the project live in this one file: each test file is a new process that pays the
 * cold load of the rule sets (about 2 s of CPU).
 */
let validator: PeppolValidator;
let bundle: LocatedBundle;

beforeAll(async () => {
  bundle = locateBundle();
  validator = await loadValidator(bundle);
  await validator.preload();
}, 120_000);

async function expectValid(xml: string): Promise<void> {
  const result = await validator.validate(xml);
  expect(
    result.fatal,
    `fatal findings (bundle: ${bundle.dir}):\n${validator.formatFindings(result)}`,
  ).toEqual([]);
}

const SELLER = {
  name: 'Schoenen Peeters NV',
  street: 'Meir 12',
  postalCode: '2000',
  city: 'Antwerpen',
  countryCode: 'BE',
  vatNumber: 'BE0123456749',
  enterpriseNumber: '0123456749',
  email: 'facturen@peeters.example',
  iban: 'BE68539007547034',
  bic: 'GKCCBEBB',
};
const BELGIAN_BUYER = {
  name: 'Chaussures Dubois SRL',
  street: 'Rue Neuve 3',
  postalCode: '1000',
  city: 'Bruxelles',
  countryCode: 'BE',
  vatNumber: 'BE0987654394',
  customerNo: 1042,
};
const DUTCH_BUYER = {
  name: 'Schoenhandel de Vries BV',
  street: 'Kalverstraat 7',
  postalCode: '1012 NX',
  city: 'Amsterdam',
  countryCode: 'NL',
  vatNumber: 'NL123456789B01',
  customerNo: 2077,
};

interface Line extends LineInput {
  description: string;
  barcode?: string;
}

function snapshot(
  lines: Line[],
  over: Partial<DocumentSnapshot> & { exemption?: { reason: string; code?: string } } = {},
): DocumentSnapshot {
  const { exemption, ...rest } = over;
  const language: DocumentLanguage = rest.language ?? 'nl';
  const money = calculateDocument(lines, { language, ...(exemption ? { exemption } : {}) });
  const paymentReference = makeStructuredReference(2_026_000_123);
  return {
    type: 'INVOICE',
    number: '2026-000123',
    issueDate: '2026-11-26',
    dueDate: '2026-12-26',
    deliveryDate: '2026-11-24',
    currency: 'EUR',
    language,
    seller: SELLER,
    buyer: BELGIAN_BUYER,
    buyerReference: 'PO-7781',
    orderReference: 'PO-7781',
    paymentReference,
    paymentTerms: paymentTermsSentence(language, { dueDate: '2026-12-26', reference: paymentReference }),
    notes: [],
    lines: money.lines.map((line, i) => ({
      ...line,
      lineNo: i + 1,
      articleNo: `A-${100 + i}`,
      sizex: '42',
      description: lines[i]?.description ?? '',
      ...(lines[i]?.barcode ? { barcode: lines[i]?.barcode } : {}),
      orderNo: 5001,
      deliveryNo: 7001,
    })),
    vat: [...money.vat],
    totals: money.totals,
    ...rest,
  };
}

const at = (vatCategory: VatCategory, vatBp: number, over: Partial<Line> = {}): Line => ({
  quantity: 1,
  unitPrice: 10_000,
  discount: 0,
  vatCategory,
  vatBp,
  description: 'Herenschoen leder zwart',
  ...over,
});

/** A Belgian B2B invoice: shoes at 21 %, one line with a discount, and children's shoes at 6 %. */
const plainInvoice = () =>
  snapshot([
    at('S', 2100, { quantity: 3, unitPrice: 4_995, discount: 1_499, barcode: '5412345678908' }),
    at('S', 2100, { quantity: 1, unitPrice: 7_950, description: 'Damesschoen "Émilie" & co <suède>' }),
    at('S', 600, { quantity: 2, unitPrice: 2_999, description: 'Kinderschoen (maat 28)' }),
  ]);

/** The credit note of two of the invoice's pieces at 21 %. */
const creditNote = (): DocumentSnapshot =>
  snapshot([at('S', 2100, { quantity: 2, unitPrice: 4_995, discount: 999 })], {
    type: 'CREDIT_NOTE',
    number: 'CN-2026-000007',
    issueDate: '2026-12-02',
    dueDate: '2026-12-02',
    corrects: { number: '2026-000123', issueDate: '2026-11-26' },
    notes: [legalMentions('nl').creditNote],
  });

const intraCommunity = () =>
  snapshot(
    [at('K', 0, { quantity: 24, unitPrice: 3_150, discount: 2_000 }), at('K', 0, { unitPrice: 1_999 })],
    {
      language: 'en',
      buyer: DUTCH_BUYER,
      buyerReference: '2077',
      orderReference: undefined,
    },
  );

const reverseCharge = () => snapshot([at('AE', 0, { quantity: 5, unitPrice: 12_000 })], { language: 'fr' });

/** The root's children in the UBL 2.1 schema's order (Invoice; CreditNote has DueDate in PaymentMeans). */
const ROOT_ORDER = [
  'CustomizationID',
  'ProfileID',
  'ID',
  'IssueDate',
  'DueDate',
  'InvoiceTypeCode',
  'CreditNoteTypeCode',
  'Note',
  'DocumentCurrencyCode',
  'BuyerReference',
  'OrderReference',
  'BillingReference',
  'AdditionalDocumentReference',
  'AccountingSupplierParty',
  'AccountingCustomerParty',
  'Delivery',
  'PaymentMeans',
  'PaymentTerms',
  'TaxTotal',
  'LegalMonetaryTotal',
  'InvoiceLine',
  'CreditNoteLine',
];

function rootChildren(xml: string): string[] {
  return [...xml.matchAll(/^ {2}<c[ab]c:(\w+)/gm)].map((m) => m[1] as string);
}

function expectSchemaOrder(xml: string): void {
  const positions = rootChildren(xml).map((name) => ROOT_ORDER.indexOf(name));
  expect(positions).not.toContain(-1);
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
}

describe('toUbl: documents the official rules accept', () => {
  it('a Belgian B2B invoice at 21 % and 6 % with a line discount', async () => {
    const doc = plainInvoice();
    const xml = toUbl(doc);
    expectSchemaOrder(xml);
    expect(xml).toContain(
      '<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>',
    );
    expect(xml).toContain('<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>');
    expect(xml).toContain('<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>');
    expect(xml).toContain('<cbc:EndpointID schemeID="0208">0123456749</cbc:EndpointID>');
    expect(xml).toContain('<cbc:EndpointID schemeID="0208">0987654394</cbc:EndpointID>');
    expect(xml).toContain('<cbc:CompanyID schemeID="0208">0987654394</cbc:CompanyID>');
    expect(xml).toContain(`<cbc:PaymentID>${doc.paymentReference}</cbc:PaymentID>`);
    expect(xml).toContain('<cbc:DueDate>2026-12-26</cbc:DueDate>');
    expect(xml).toContain('<cbc:Name>Damesschoen "Émilie" &amp; co &lt;suède&gt;</cbc:Name>');
    // 3 × 49.95 − 14.99 + 79.50 = 214.36 at 21 % (45.0156 → 45.02); 59.98 at 6 % (3.5988 → 3.60)
    expect(doc.vat.map((r) => [r.vatBp, r.taxable, r.vat])).toEqual([
      [600, 5_998, 360],
      [2100, 21_436, 4_502],
    ]);
    expect(xml).toContain('<cbc:TaxAmount currencyID="EUR">48.62</cbc:TaxAmount>');
    expect(xml).toContain('<cbc:PayableAmount currencyID="EUR">322.96</cbc:PayableAmount>');
    expect(xml).toContain('<cbc:Amount currencyID="EUR">14.99</cbc:Amount>');
    expect(xml).not.toMatch(/<([\w:]+)[^>]*>\s*<\/\1>|<[\w:]+[^>]*\/>/);
    await expectValid(xml);
  });

  it('a credit note correcting it, with the Belgian legal mention', async () => {
    const xml = toUbl(creditNote());
    expectSchemaOrder(xml);
    expect(xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(xml).toMatch(
      /<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*<cbc:ID>2026-000123<\/cbc:ID>\s*<cbc:IssueDate>2026-11-26<\/cbc:IssueDate>/,
    );
    expect(xml).toContain(
      '<cbc:Note>BTW terug te storten aan de Staat in de mate waarin ze oorspronkelijk in aftrek werd gebracht</cbc:Note>',
    );
    expect(xml).toContain('<cbc:PaymentDueDate>2026-12-02</cbc:PaymentDueDate>');
    expect(xml).not.toContain('<cbc:DueDate>');
    expect(xml).toContain('<cbc:CreditedQuantity unitCode="H87">2</cbc:CreditedQuantity>');
    await expectValid(xml);
  });

  it('an intra-community supply to a Dutch buyer (K)', async () => {
    const xml = toUbl(intraCommunity());
    expectSchemaOrder(xml);
    expect(xml).toContain('<cbc:EndpointID schemeID="9944">NL123456789B01</cbc:EndpointID>');
    expect(xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-IC</cbc:TaxExemptionReasonCode>');
    expect(xml).toContain('<cbc:ActualDeliveryDate>2026-11-24</cbc:ActualDeliveryDate>');
    expect(xml).toContain('<cbc:TaxAmount currencyID="EUR">0.00</cbc:TaxAmount>');
    await expectValid(xml);
  });

  it('a reverse-charge supply (AE), in French', async () => {
    const xml = toUbl(reverseCharge());
    expect(xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-AE</cbc:TaxExemptionReasonCode>');
    expect(xml).toContain('<cbc:TaxExemptionReason>Autoliquidation</cbc:TaxExemptionReason>');
    await expectValid(xml);
  });

  it('an invoice with its PDF embedded', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj <<>> endobj\n%%EOF\n');
    const xml = toUbl(plainInvoice(), { pdf: { filename: '2026-000123.pdf', bytes } });
    expectSchemaOrder(xml);
    expect(xml).toContain(
      `<cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="2026-000123.pdf">${Buffer.from(bytes).toString('base64')}</cbc:EmbeddedDocumentBinaryObject>`,
    );
    await expectValid(xml);
  });

  it('exempt (E), zero-rated (Z), export (G) and outside-the-scope (O) documents', async () => {
    await expectValid(
      toUbl(
        snapshot([at('E', 0), at('Z', 0), at('S', 2100)], {
          exemption: { reason: 'Vrijgesteld (art. 44 W.BTW)', code: 'VATEX-EU-132' },
        }),
      ),
    );
    const british = { ...DUTCH_BUYER, countryCode: 'GB', vatNumber: 'GB123456789', city: 'London' };
    await expectValid(toUbl(snapshot([at('G', 0, { quantity: 10 })], { language: 'en', buyer: british })));
    const outside = toUbl(snapshot([at('O', 0)], { language: 'de' }));
    expect(outside).not.toContain('PartyTaxScheme');
    await expectValid(outside);
  });

  it('the rules catch a document made inconsistent after writing (the check is not vacuous)', async () => {
    const xml = toUbl(plainInvoice()).replace(
      '<cbc:PayableAmount currencyID="EUR">322.96</cbc:PayableAmount>',
      '<cbc:PayableAmount currencyID="EUR">322.97</cbc:PayableAmount>',
    );
    const { fatal } = await validator.validate(xml);
    expect(fatal.map((f) => f.id)).toContain('BR-CO-16');
  });
});

describe('toUbl: refused before any XML', () => {
  const refusal = (doc: DocumentSnapshot): string[] => {
    try {
      toUbl(doc);
    } catch (error) {
      expect(error).toBeInstanceOf(UblRefusal);
      return [...(error as UblRefusal).problems];
    }
    throw new Error('toUbl wrote a document it should have refused');
  };

  it('a bad enterprise number (mod 97)', () => {
    const problems = refusal({
      ...plainInvoice(),
      seller: { ...SELLER, enterpriseNumber: '0123456748', vatNumber: undefined },
    });
    expect(problems).toEqual([
      'seller: enterprise number 0123456748 has check digits 48, expected 49 (mod 97)',
    ]);
    expect(refusal({ ...plainInvoice(), buyer: { ...BELGIAN_BUYER, vatNumber: 'BE0987654393' } })).toEqual([
      'buyer: VAT number BE0987654393 has check digits 93, expected 94 (mod 97)',
    ]);
  });

  it('a VAT number of another enterprise, a Belgian party without either number, a malformed one', () => {
    expect(refusal({ ...plainInvoice(), seller: { ...SELLER, vatNumber: 'BE0987654394' } })).toEqual([
      'seller: VAT number BE0987654394 is not that of enterprise number 0123456749',
    ]);
    expect(refusal({ ...plainInvoice(), buyer: { ...BELGIAN_BUYER, vatNumber: undefined } })).toEqual([
      'buyer: a Belgian party needs its enterprise number or BE VAT number',
    ]);
    expect(refusal({ ...plainInvoice(), seller: { ...SELLER, enterpriseNumber: '0123.456.749' } })).toEqual([
      'seller: enterprise number 0123.456.749 must be stored as 0123456749',
    ]);
  });

  it('money its lines do not give, a bad payment reference, a credit note correcting nothing', () => {
    const doc = plainInvoice();
    expect(refusal({ ...doc, totals: { ...doc.totals, vat: doc.totals.vat + 1 } })).toEqual([
      `total vat ${doc.totals.vat + 1}, the lines give ${doc.totals.vat}`,
    ]);
    expect(refusal({ ...doc, paymentReference: '+++202/6000/12300+++' })[0]).toMatch(/^payment reference/);
    const { corrects: _, ...uncorrected } = creditNote();
    expect(refusal(uncorrected)).toEqual(['a credit note names the invoice it corrects']);
  });

  it('what the categories need of the parties and the delivery', () => {
    const { deliveryDate: _, ...undated } = intraCommunity();
    expect(refusal(undated)).toEqual(['VAT category K needs the delivery date']);
    expect(refusal({ ...reverseCharge(), buyer: { ...DUTCH_BUYER, vatNumber: undefined } })).toEqual([
      expect.stringMatching(
        /^buyer: no Peppol address \(an enterprise number, or a VAT number of AD AL AT .* NL /,
      ),
      "VAT category AE needs the buyer's VAT number",
    ]);
  });

  it('an embedded PDF without bytes', () => {
    expect(() => toUbl(plainInvoice(), { pdf: { filename: 'x.pdf', bytes: new Uint8Array() } })).toThrow(
      UblRefusal,
    );
  });
});

describe('amounts and rates written from integers', () => {
  it('writes minor units with two places and basis points as a short exact percentage', () => {
    expect([decimal(0), decimal(5), decimal(-5), decimal(123_456), decimal(100)]).toEqual([
      '0.00',
      '0.05',
      '-0.05',
      '1234.56',
      '1.00',
    ]);
    expect(() => decimal(0.5)).toThrow(RangeError);
    expect([percent(2100), percent(600), percent(550), percent(1250), percent(0), percent(1)]).toEqual([
      '21',
      '6',
      '5.5',
      '12.5',
      '0',
      '0.01',
    ]);
  });
});

describe('the validator bundle', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tv2-peppol-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('refuses a TV2_PEPPOL_VALIDATOR that names no bundle, rather than testing against another', () => {
    expect(() => locateBundle({ env: { TV2_PEPPOL_VALIDATOR: join(scratch, 'missing') } })).toThrow(
      /TV2_PEPPOL_VALIDATOR=.*missing: no validator bundle there/,
    );
  });

  it('falls back to the vendored copy: the same rule sets, and it validates', async () => {
    const vendored = locateBundle({
      env: {},
      repoRoot: join(scratch, 'clean-clone'),
      workplace: join(scratch, 'no-workplace'),
      unpackTo: join(scratch, 'unpacked'),
    });
    expect(vendored).toEqual({ dir: join(scratch, 'unpacked'), source: 'vendored' });
    expect(locateBundle({ env: { TV2_PEPPOL_VALIDATOR: vendored.dir } })).toEqual({
      dir: vendored.dir,
      source: 'TV2_PEPPOL_VALIDATOR',
    });
    const hashes = ruleSetHashes(vendored.dir);
    // The versions test/vendor/peppol/README.md names (EN 16931 1.3.16, Peppol 3.0.19).
    expect(hashes).toEqual([
      '02718284e49a546ab19b6a8354d792abc885c34c38ac53db441cd5120bdfebfc',
      '31911661d67786614c5cf849dd69829b45262d55e51d104baee2a863b63984e5',
    ]);
    if (bundle.source !== 'vendored')
      expect(ruleSetHashes(bundle.dir), `${bundle.dir} differs from the vendored copy`).toEqual(hashes);
    const fallback = await loadValidator(vendored);
    const result = await fallback.validate(toUbl(creditNote()));
    expect(result.fatal, fallback.formatFindings(result)).toEqual([]);
  }, 120_000);
});
