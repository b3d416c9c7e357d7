import type { DocumentLanguage, VatCategory } from '../document.ts';

/**
 * The fixed texts of the invoice PDF in each document language (issue 12). Only the labels live
 * here: every text that belongs to the document itself (descriptions, payment terms, exemption
 * mentions, notes) is frozen in the snapshot, in its language, and printed as it is.
 */
export interface PdfLabels {
  invoice: string;
  creditNote: string;
  number: string;
  issueDate: string;
  /** A credit note's issue date. */
  creditDate: string;
  dueDate: string;
  deliveryDate: string;
  orderReference: string;
  buyerReference: string;
  /** Before the number and date of the invoice a credit note corrects. */
  corrects: string;
  customer: string;
  customerNo: string;
  vatNumber: string;
  enterpriseNumber: string;
  iban: string;
  bic: string;
  // The line table.
  article: string;
  size: string;
  description: string;
  quantity: string;
  unitPrice: string;
  discount: string;
  amount: string;
  vat: string;
  /** The order and delivery numbers of the lines, when they all share them (else each line shows its own). */
  source: string;
  order: string;
  delivery: string;
  // The VAT breakdown.
  vatBreakdown: string;
  category: string;
  rate: string;
  taxable: string;
  vatAmount: string;
  categories: Record<VatCategory, string>;
  // The totals.
  totalLines: string;
  totalNet: string;
  totalVat: string;
  totalGross: string;
  prepaid: string;
  payable: string;
  /** A credit note's "to pay": what the buyer is credited. */
  credited: string;
  // Payment.
  paymentTerms: string;
  structuredCommunication: string;
  /** The sentence above the structured communication of an invoice. */
  payInstruction: (amount: string, due: string, iban: string) => string;
  /** The same for a credit note: nothing to pay, the reference to quote. */
  creditInstruction: (amount: string) => string;
  notes: string;
  page: string;
}

const nl: PdfLabels = {
  invoice: 'Factuur',
  creditNote: 'Creditnota',
  number: 'Nummer',
  issueDate: 'Factuurdatum',
  creditDate: 'Datum creditnota',
  dueDate: 'Vervaldatum',
  deliveryDate: 'Leveringsdatum',
  orderReference: 'Bestelling',
  buyerReference: 'Uw referentie',
  corrects: 'Betreft factuur',
  customer: 'Klant',
  customerNo: 'Klantnummer',
  vatNumber: 'Btw-nr.',
  enterpriseNumber: 'Ondernemingsnr.',
  iban: 'IBAN',
  bic: 'BIC',
  article: 'Artikel',
  size: 'Maat',
  description: 'Omschrijving',
  quantity: 'Aantal',
  unitPrice: 'Eenheidsprijs',
  discount: 'Korting',
  amount: 'Bedrag',
  vat: 'Btw',
  source: 'Bestelling/levering',
  order: 'bestelling',
  delivery: 'levering',
  vatBreakdown: 'Btw-overzicht',
  category: 'Categorie',
  rate: 'Tarief',
  taxable: 'Maatstaf van heffing',
  vatAmount: 'Btw',
  categories: {
    S: 'Belast',
    Z: 'Nultarief',
    E: 'Vrijgesteld',
    AE: 'Btw verlegd',
    K: 'Intracommunautaire levering',
    G: 'Uitvoer',
    O: 'Niet onderworpen',
  },
  totalLines: 'Totaal lijnen',
  totalNet: 'Totaal excl. btw',
  totalVat: 'Btw',
  totalGross: 'Totaal incl. btw',
  prepaid: 'Reeds betaald',
  payable: 'Te betalen',
  credited: 'Te crediteren',
  paymentTerms: 'Betalingsvoorwaarden',
  structuredCommunication: 'Gestructureerde mededeling',
  payInstruction: (amount, due, iban) =>
    `Gelieve ${amount} te betalen uiterlijk op ${due} op rekening ${iban} met de mededeling:`,
  creditInstruction: (amount) => `Wij crediteren u ${amount}. Vermeld bij verrekening:`,
  notes: 'Opmerkingen',
  page: 'Pagina',
};

const fr: PdfLabels = {
  invoice: 'Facture',
  creditNote: 'Note de crédit',
  number: 'Numéro',
  issueDate: 'Date de facture',
  creditDate: "Date d'émission",
  dueDate: "Date d'échéance",
  deliveryDate: 'Date de livraison',
  orderReference: 'Commande',
  buyerReference: 'Votre référence',
  corrects: 'Concerne la facture',
  customer: 'Client',
  customerNo: 'N° client',
  vatNumber: 'N° TVA',
  enterpriseNumber: "N° d'entreprise",
  iban: 'IBAN',
  bic: 'BIC',
  article: 'Article',
  size: 'Taille',
  description: 'Description',
  quantity: 'Qté',
  unitPrice: 'Prix unitaire',
  discount: 'Remise',
  amount: 'Montant',
  vat: 'TVA',
  source: 'Commande/livraison',
  order: 'commande',
  delivery: 'livraison',
  vatBreakdown: 'Récapitulatif TVA',
  category: 'Catégorie',
  rate: 'Taux',
  taxable: 'Base imposable',
  vatAmount: 'TVA',
  categories: {
    S: 'Taxable',
    Z: 'Taux zéro',
    E: 'Exonéré',
    AE: 'Autoliquidation',
    K: 'Livraison intracommunautaire',
    G: 'Exportation',
    O: 'Hors champ',
  },
  totalLines: 'Total des lignes',
  totalNet: 'Total HTVA',
  totalVat: 'TVA',
  totalGross: 'Total TVAC',
  prepaid: 'Déjà payé',
  payable: 'À payer',
  credited: 'À créditer',
  paymentTerms: 'Conditions de paiement',
  structuredCommunication: 'Communication structurée',
  payInstruction: (amount, due, iban) =>
    `Veuillez payer ${amount} au plus tard le ${due} sur le compte ${iban} avec la communication :`,
  creditInstruction: (amount) => `Nous vous créditons ${amount}. Référence à mentionner :`,
  notes: 'Remarques',
  page: 'Page',
};

const de: PdfLabels = {
  invoice: 'Rechnung',
  creditNote: 'Gutschrift',
  number: 'Nummer',
  issueDate: 'Rechnungsdatum',
  creditDate: 'Gutschriftsdatum',
  dueDate: 'Fällig am',
  deliveryDate: 'Lieferdatum',
  orderReference: 'Bestellung',
  buyerReference: 'Ihre Referenz',
  corrects: 'Zu Rechnung',
  customer: 'Kunde',
  customerNo: 'Kundennummer',
  vatNumber: 'USt-IdNr.',
  enterpriseNumber: 'Unternehmensnr.',
  iban: 'IBAN',
  bic: 'BIC',
  article: 'Artikel',
  size: 'Größe',
  description: 'Beschreibung',
  quantity: 'Menge',
  unitPrice: 'Einzelpreis',
  discount: 'Rabatt',
  amount: 'Betrag',
  vat: 'USt.',
  source: 'Bestellung/Lieferung',
  order: 'Bestellung',
  delivery: 'Lieferung',
  vatBreakdown: 'Umsatzsteuer',
  category: 'Kategorie',
  rate: 'Satz',
  taxable: 'Bemessungsgrundlage',
  vatAmount: 'USt.',
  categories: {
    S: 'Steuerpflichtig',
    Z: 'Nullsatz',
    E: 'Steuerfrei',
    AE: 'Steuerschuldnerschaft des Leistungsempfängers',
    K: 'Innergemeinschaftliche Lieferung',
    G: 'Ausfuhr',
    O: 'Nicht steuerbar',
  },
  totalLines: 'Summe Positionen',
  totalNet: 'Summe netto',
  totalVat: 'USt.',
  totalGross: 'Summe brutto',
  prepaid: 'Bereits bezahlt',
  payable: 'Zu zahlen',
  credited: 'Gutschriftsbetrag',
  paymentTerms: 'Zahlungsbedingungen',
  structuredCommunication: 'Strukturierte Mitteilung',
  payInstruction: (amount, due, iban) =>
    `Bitte überweisen Sie ${amount} bis spätestens ${due} auf das Konto ${iban} mit der Mitteilung:`,
  creditInstruction: (amount) => `Wir schreiben Ihnen ${amount} gut. Bitte geben Sie an:`,
  notes: 'Hinweise',
  page: 'Seite',
};

const en: PdfLabels = {
  invoice: 'Invoice',
  creditNote: 'Credit note',
  number: 'Number',
  issueDate: 'Invoice date',
  creditDate: 'Credit note date',
  dueDate: 'Due date',
  deliveryDate: 'Delivery date',
  orderReference: 'Order',
  buyerReference: 'Your reference',
  corrects: 'Corrects invoice',
  customer: 'Customer',
  customerNo: 'Customer no.',
  vatNumber: 'VAT no.',
  enterpriseNumber: 'Enterprise no.',
  iban: 'IBAN',
  bic: 'BIC',
  article: 'Article',
  size: 'Size',
  description: 'Description',
  quantity: 'Qty',
  unitPrice: 'Unit price',
  discount: 'Discount',
  amount: 'Amount',
  vat: 'VAT',
  source: 'Order/delivery',
  order: 'order',
  delivery: 'delivery',
  vatBreakdown: 'VAT breakdown',
  category: 'Category',
  rate: 'Rate',
  taxable: 'Taxable amount',
  vatAmount: 'VAT',
  categories: {
    S: 'Standard rated',
    Z: 'Zero rated',
    E: 'Exempt',
    AE: 'Reverse charge',
    K: 'Intra-community supply',
    G: 'Export',
    O: 'Outside the scope of VAT',
  },
  totalLines: 'Sum of lines',
  totalNet: 'Total excl. VAT',
  totalVat: 'VAT',
  totalGross: 'Total incl. VAT',
  prepaid: 'Paid in advance',
  payable: 'Amount due',
  credited: 'Amount credited',
  paymentTerms: 'Payment terms',
  structuredCommunication: 'Structured communication',
  payInstruction: (amount, due, iban) =>
    `Please pay ${amount} no later than ${due} to account ${iban}, quoting:`,
  creditInstruction: (amount) => `We credit you ${amount}. Please quote:`,
  notes: 'Notes',
  page: 'Page',
};

export const PDF_LABELS: Record<DocumentLanguage, PdfLabels> = { nl, fr, de, en };

/** The title of a document in its language: "Factuur", "Note de crédit", ... */
export function documentTitle(type: 'INVOICE' | 'CREDIT_NOTE', language: DocumentLanguage): string {
  const labels = PDF_LABELS[language];
  return type === 'INVOICE' ? labels.invoice : labels.creditNote;
}
