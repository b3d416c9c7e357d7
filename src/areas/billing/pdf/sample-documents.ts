import { percentOf } from '../../../kernel/money.ts';
import type {
  DocumentBuyer,
  DocumentLine,
  DocumentSeller,
  DocumentSnapshot,
  VatBreakdownRow,
  VatCategory,
} from '../document.ts';

/**
 * Sample issued documents for the PDF's tests, scripts/billing-sample-pdf.ts (examples/*.pdf) and
 * bench/invoice-pdf.ts; anyone may reuse them. The lines are written out; their amounts, the VAT
 * breakdown and the totals are derived here the way the snapshot defines them (VAT once per rate
 * on the sum of its lines), so a sample is always consistent. The parties are invented; their
 * enterprise numbers, IBAN and structured communications pass their check digits.
 */

export const SAMPLE_SELLER: DocumentSeller = {
  name: 'Confectie Verhaeghe NV',
  street: 'Kortrijksesteenweg 120',
  postalCode: '9000',
  city: 'Gent',
  countryCode: 'BE',
  vatNumber: 'BE0123456749',
  enterpriseNumber: '0123456749',
  email: 'boekhouding@verhaeghe.example',
  iban: 'BE68539007547034',
  bic: 'GKCCBEBB',
};

const BRUGES: DocumentBuyer = {
  name: 'Boetiek Het Anker BV',
  street: 'Grote Markt 7',
  postalCode: '8000',
  city: 'Brugge',
  countryCode: 'BE',
  vatNumber: 'BE0987654394',
  enterpriseNumber: '0987654394',
  customerNo: 10001,
};

const HAMBURG: DocumentBuyer = {
  name: 'Nordwind Textilhandel GmbH',
  street: 'Große Bleichen 12',
  postalCode: '20354',
  city: 'Hamburg',
  countryCode: 'DE',
  vatNumber: 'DE123456789',
  customerNo: 20417,
};

const EUPEN: DocumentBuyer = {
  name: 'Modehaus Schröder GmbH',
  street: 'Klötzerbahn 15',
  postalCode: '4700',
  city: 'Eupen',
  countryCode: 'BE',
  vatNumber: 'BE0403170701',
  enterpriseNumber: '0403170701',
  customerNo: 10077,
};

type LineInput = [
  articleNo: string,
  sizex: string,
  description: string,
  quantity: number,
  unitPrice: number,
  discount: number,
  vatBp?: number,
];

/** Lines from their inputs: the amount is quantity × unit price − discount; 21 % standard rate unless given. */
function lines(
  inputs: LineInput[],
  category: VatCategory = 'S',
  source?: { orderNo: number; deliveryNo: number },
): DocumentLine[] {
  return inputs.map(
    ([articleNo, sizex, description, quantity, unitPrice, discount, vatBp = 2100], index) => ({
      lineNo: index + 1,
      articleNo,
      sizex,
      description,
      quantity,
      unitPrice,
      discount,
      amount: quantity * unitPrice - discount,
      vatCategory: category,
      vatBp: category === 'S' ? vatBp : 0,
      ...source,
    }),
  );
}

const CATEGORY_ORDER: VatCategory[] = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'];

/** The snapshot with its VAT breakdown (one row per category and rate, the rate applied once) and totals. */
function issued(
  document: Omit<DocumentSnapshot, 'vat' | 'totals'>,
  exemptions: Partial<Record<VatCategory, { reason: string; code: string }>> = {},
): DocumentSnapshot {
  const rows = new Map<string, VatBreakdownRow>();
  for (const line of document.lines) {
    const key = `${line.vatCategory}/${line.vatBp}`;
    const row = rows.get(key) ?? { vatCategory: line.vatCategory, vatBp: line.vatBp, taxable: 0, vat: 0 };
    row.taxable += line.amount;
    rows.set(key, row);
  }
  const vat = [...rows.values()]
    .sort(
      (a, b) =>
        CATEGORY_ORDER.indexOf(a.vatCategory) - CATEGORY_ORDER.indexOf(b.vatCategory) || a.vatBp - b.vatBp,
    )
    .map((row) => {
      const exemption = exemptions[row.vatCategory];
      return {
        ...row,
        vat: percentOf(row.taxable, row.vatBp),
        ...(exemption && { exemptionReason: exemption.reason, exemptionCode: exemption.code }),
      };
    });
  const net = document.lines.reduce((sum, line) => sum + line.amount, 0);
  const vatTotal = vat.reduce((sum, row) => sum + row.vat, 0);
  return {
    ...document,
    vat,
    totals: { lines: net, net, vat: vatTotal, gross: net + vatTotal, payable: net + vatTotal },
  };
}

/** A Belgian invoice in Dutch: two VAT rates (21 % and 6 %), two discounted lines. */
export const SAMPLE_INVOICE_NL: DocumentSnapshot = issued({
  type: 'INVOICE',
  number: '2026-000123',
  issueDate: '2026-11-20',
  dueDate: '2026-12-20',
  deliveryDate: '2026-11-18',
  currency: 'EUR',
  language: 'nl',
  seller: SAMPLE_SELLER,
  buyer: BRUGES,
  buyerReference: 'PO-2026-0001',
  orderReference: 'PO-2026-0001',
  paymentReference: '+++123/4567/89002+++',
  paymentTerms: 'Betaling binnen 30 dagen na factuurdatum, zonder korting voor contante betaling.',
  notes: ['Bedankt voor uw bestelling. Retours binnen 14 dagen met het retourformulier.'],
  lines: lines(
    [
      ['M10002-410', 'M', 'Polo piqué, marineblauw', 12, 2495, 0],
      ['M10002-410', 'L', 'Polo piqué, marineblauw', 8, 2495, 0],
      ['J20417-120', '52', 'Colbert scheerwol, antraciet, slim fit', 3, 14900, 4470],
      ['C90001-000', 'ONE', 'Modecatalogus herfst/winter 2026 (boek)', 2, 1250, 0, 600],
      ['B30055-999', 'S', 'Sjaal kasjmier, camel', 5, 3990, 998],
    ],
    'S',
    { orderNo: 1001, deliveryNo: 2001 },
  ),
});

/** A credit note in French correcting SAMPLE_INVOICE_NL (returned goods), with the Belgian legal mention. */
export const SAMPLE_CREDIT_NOTE_FR: DocumentSnapshot = issued({
  type: 'CREDIT_NOTE',
  number: '2026-000007',
  issueDate: '2026-11-27',
  dueDate: '2026-11-27',
  currency: 'EUR',
  language: 'fr',
  seller: SAMPLE_SELLER,
  buyer: BRUGES,
  buyerReference: 'PO-2026-0001',
  orderReference: 'PO-2026-0001',
  paymentReference: '+++000/0000/00707+++',
  paymentTerms: 'Montant déduit de votre prochain paiement.',
  corrects: { number: '2026-000123', issueDate: '2026-11-20' },
  notes: [
    "TVA à reverser à l'État dans la mesure où elle a été initialement déduite.",
    'Retour de marchandise, bon de retour R-2026-0042.',
  ],
  lines: lines([
    ['M10002-410', 'L', 'Polo piqué, bleu marine', 2, 2495, 0],
    ['J20417-120', '52', 'Veston laine vierge, anthracite, coupe ajustée', 1, 14900, 1490],
  ]),
});

/** An English intra-community supply to Germany: VAT category K, exempt, with its legal mention. */
export const SAMPLE_INVOICE_EN_INTRA_EU: DocumentSnapshot = issued(
  {
    type: 'INVOICE',
    number: '2026-000124',
    issueDate: '2026-11-21',
    dueDate: '2026-12-21',
    deliveryDate: '2026-11-19',
    currency: 'EUR',
    language: 'en',
    seller: SAMPLE_SELLER,
    buyer: HAMBURG,
    buyerReference: 'NW-4471',
    orderReference: 'NW-4471',
    paymentReference: '+++000/0000/12427+++',
    paymentTerms: 'Net 30 days from the invoice date.',
    notes: [],
    lines: lines(
      [
        ['M10002-410', 'XL', 'Piqué polo shirt, navy', 40, 2295, 0],
        ['J20417-120', '50', 'Wool blazer, anthracite, slim fit', 10, 13900, 6950],
        ['B30055-999', 'S', 'Cashmere scarf, camel', 25, 3690, 0],
      ],
      'K',
    ),
  },
  {
    K: {
      reason:
        'Intra-Community supply of goods, exempt from VAT under Article 138 of Directive 2006/112/EC (Article 39bis of the Belgian VAT Code).',
      code: 'VATEX-EU-IC',
    },
  },
);

const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
const ITEMS = [
  'Polohemd Piqué, marineblau',
  'Sakko Schurwolle, anthrazit, schmale Passform mit zwei Innentaschen und Rückenschlitz',
  'Schal Kaschmir, kamel',
  'Hemd Baumwolle, weiß, bügelfrei',
  'Strickpullover Merino mit Rundhalsausschnitt, grün meliert',
  'Chino Stretch, beige',
];

/** A long German invoice (120 lines, some with two-line descriptions): page breaks and the repeated table header. */
export const SAMPLE_INVOICE_DE_LONG: DocumentSnapshot = issued({
  type: 'INVOICE',
  number: '2026-000125',
  issueDate: '2026-11-24',
  dueDate: '2026-12-24',
  deliveryDate: '2026-11-23',
  currency: 'EUR',
  language: 'de',
  seller: SAMPLE_SELLER,
  buyer: EUPEN,
  buyerReference: '10077',
  paymentReference: '+++000/0000/12528+++',
  paymentTerms: 'Zahlbar innerhalb von 30 Tagen ab Rechnungsdatum ohne Abzug.',
  notes: ['Lieferung in drei Teillieferungen; alle Lieferscheine sind dieser Rechnung beigefügt.'],
  lines: lines(
    Array.from({ length: 120 }, (_, i): LineInput => {
      const quantity = 1 + ((i * 7) % 12);
      const unitPrice = 1995 + ((i * 1231) % 9000);
      const discount = i % 7 === 3 ? percentOf(quantity * unitPrice, 1000) : 0;
      return [
        `A${String(10000 + i * 37).padStart(6, '0')}-${String(100 + (i % 9) * 10)}`,
        SIZES[i % SIZES.length]!,
        ITEMS[i % ITEMS.length]!,
        quantity,
        unitPrice,
        discount,
        i % 10 === 9 ? 600 : 2100,
      ];
    }),
    'S',
    { orderNo: 1077, deliveryNo: 2077 },
  ),
});
