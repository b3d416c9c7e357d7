import type { DocumentLanguage } from '../document.ts';

/**
 * The legal mentions a Belgian document carries, in its language (nl, fr, de, en: the product's
 * text slots). They are data: the PDF prints them, the UBL carries them as VAT exemption reasons
 * and notes, and the snapshot freezes them at issue, so a later change of wording here never
 * changes an issued document.
 *
 * - Reverse charge (category AE): the wording of the Belgian VAT Code and of directive 2006/112/EC
 *   art. 226 (11a): "Verlegging van heffing" / "Autoliquidation" / "Steuerschuldnerschaft des
 *   Leistungsempfängers" / "Reverse charge".
 * - Intra-community supply of goods (K): exempt under art. 39bis of the Belgian VAT Code (art. 138 of
 *   the directive).
 * - Export (G) and outside the scope of VAT (O): the reasons EN 16931 asks for with their codes.
 * - A credit note that corrects VAT: the buyer repays the VAT it deducted, in the wording the
 *   Belgian administration requires on a credit note.
 * - The payment-terms sentence with the due date and the structured communication.
 */
interface Mentions {
  reverseCharge: string;
  intraCommunitySupply: string;
  export: string;
  outsideScope: string;
  creditNote: string;
  /** "{date}" and "{ref}" are replaced. */
  paymentTerms: string;
  /** The reason written on a line's allowance. */
  discount: string;
}

const MENTIONS: Record<DocumentLanguage, Mentions> = {
  nl: {
    reverseCharge: 'Verlegging van heffing',
    intraCommunitySupply: 'Vrijgestelde intracommunautaire levering (art. 39bis W.BTW)',
    export: 'Vrijgestelde uitvoer (art. 39 W.BTW)',
    outsideScope: 'Niet onderworpen aan btw',
    creditNote:
      'BTW terug te storten aan de Staat in de mate waarin ze oorspronkelijk in aftrek werd gebracht',
    paymentTerms: 'Te betalen vóór {date} met gestructureerde mededeling {ref}',
    discount: 'Korting',
  },
  fr: {
    reverseCharge: 'Autoliquidation',
    intraCommunitySupply: 'Livraison intracommunautaire exemptée (art. 39bis C.TVA)',
    export: 'Exportation exemptée (art. 39 C.TVA)',
    outsideScope: 'Non soumis à la TVA',
    creditNote: "TVA à reverser à l'État dans la mesure où elle a été initialement déduite",
    paymentTerms: 'À payer avant le {date} avec la communication structurée {ref}',
    discount: 'Remise',
  },
  de: {
    reverseCharge: 'Steuerschuldnerschaft des Leistungsempfängers',
    intraCommunitySupply: 'Steuerfreie innergemeinschaftliche Lieferung (Art. 39bis MwStGB)',
    export: 'Steuerfreie Ausfuhr (Art. 39 MwStGB)',
    outsideScope: 'Nicht der Mehrwertsteuer unterworfen',
    creditNote: 'An den Staat zurückzuzahlende MwSt., soweit sie ursprünglich abgezogen wurde',
    paymentTerms: 'Zahlbar vor dem {date} mit der strukturierten Mitteilung {ref}',
    discount: 'Rabatt',
  },
  en: {
    reverseCharge: 'Reverse charge',
    intraCommunitySupply: 'Exempt intra-Community supply of goods (art. 39bis Belgian VAT Code)',
    export: 'Exempt export of goods (art. 39 Belgian VAT Code)',
    outsideScope: 'Not subject to VAT',
    creditNote: 'VAT to be repaid to the State to the extent that it was initially deducted',
    paymentTerms: 'To be paid before {date} with structured communication {ref}',
    discount: 'Discount',
  },
};

/** The mentions of a language. */
export function legalMentions(language: DocumentLanguage): Readonly<Mentions> {
  return MENTIONS[language];
}

/** A date YYYY-MM-DD as the language writes it: 31/12/2026 (nl, fr, en), 31.12.2026 (de). */
export function writtenDate(isoDate: string, language: DocumentLanguage): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) throw new RangeError(`not a date YYYY-MM-DD: ${isoDate}`);
  const [, y, m, d] = match;
  return language === 'de' ? `${d}.${m}.${y}` : `${d}/${m}/${y}`;
}

/** "Te betalen vóór 31/12/2026 met gestructureerde mededeling +++123/4567/89002+++" and equivalents. */
export function paymentTermsSentence(
  language: DocumentLanguage,
  { dueDate, reference }: { dueDate: string; reference: string },
): string {
  return MENTIONS[language].paymentTerms
    .replace('{date}', writtenDate(dueDate, language))
    .replace('{ref}', reference);
}
