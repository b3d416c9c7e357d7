import type { DocumentParty, DocumentSnapshot } from '../document.ts';
import { enterpriseNumberFromVat, parseEnterpriseNumber } from '../rules/enterprise-number.ts';

/**
 * Who the parties of a Peppol document are: each party's electronic address (EndpointID, BT-34 and
 * BT-49) and legal registration. A Belgian party is addressed by its enterprise number under ICD
 * scheme 0208 (the Belgian Peppol directory registers them so), given or derived from its BE VAT
 * number, and mod-97 checked (PEPPOL-COMMON-R043 checks it again); another party by its VAT
 * number under its country's EAS VAT scheme (9944 for the Netherlands, ...). A party with neither
 * has no address a Peppol access point could deliver to, so its document is refused.
 */
export interface PartyIdentity {
  /** The EndpointID and its EAS scheme. */
  endpoint: { scheme: string; id: string };
  /** The enterprise number (Belgian parties), the legal registration under 0208. */
  enterpriseNumber?: string;
}

/** ICD 0208: the Belgian enterprise number (KBO/BCE). */
export const BELGIAN_SCHEME = '0208';

/** The EAS codes of the VAT numbers of the countries tv2's traders deliver to (Peppol EAS list). */
const VAT_SCHEMES: Readonly<Record<string, string>> = {
  AD: '9922',
  AL: '9923',
  AT: '9914',
  BA: '9924',
  BE: '9925',
  BG: '9926',
  CH: '9927',
  CY: '9928',
  CZ: '9929',
  DE: '9930',
  EE: '9931',
  EL: '9933',
  ES: '9920',
  FR: '9957',
  GB: '9932',
  HR: '9934',
  HU: '9910',
  IE: '9935',
  LI: '9936',
  LT: '9937',
  LU: '9938',
  LV: '9939',
  MC: '9940',
  ME: '9941',
  MK: '9942',
  MT: '9943',
  NL: '9944',
  PL: '9945',
  PT: '9946',
  RO: '9947',
  RS: '9948',
  SI: '9949',
  SK: '9950',
  SM: '9951',
  TR: '9952',
  VA: '9953',
};

/** "BE0123456749": a two-letter country prefix (EL for Greece) and 2 to 13 letters or digits. */
const VAT_NUMBER = /^[A-Z]{2}[0-9A-Z+*.]{2,13}$/;

/**
 * The identity of a party, or the reasons it has none. `role` names the party in the reasons
 * ("seller", "buyer").
 */
export function partyIdentity(
  party: DocumentParty,
  role: string,
): { ok: true; identity: PartyIdentity } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  if (party.vatNumber !== undefined && !VAT_NUMBER.test(party.vatNumber))
    problems.push(`${role}: VAT number ${party.vatNumber} must be its country prefix and number, no spaces`);
  let enterpriseNumber: string | undefined;
  if (party.enterpriseNumber !== undefined) {
    const parsed = parseEnterpriseNumber(party.enterpriseNumber);
    if (!parsed.ok) problems.push(`${role}: enterprise number ${party.enterpriseNumber} ${parsed.reason}`);
    else if (parsed.value !== party.enterpriseNumber)
      problems.push(`${role}: enterprise number ${party.enterpriseNumber} must be stored as ${parsed.value}`);
    else enterpriseNumber = parsed.value;
  }
  if (party.vatNumber?.startsWith('BE')) {
    const fromVat = enterpriseNumberFromVat(party.vatNumber);
    if (!fromVat.ok) problems.push(`${role}: VAT number ${party.vatNumber} ${fromVat.reason}`);
    else if (enterpriseNumber !== undefined && fromVat.value !== enterpriseNumber)
      problems.push(
        `${role}: VAT number ${party.vatNumber} is not that of enterprise number ${enterpriseNumber}`,
      );
    else if (party.enterpriseNumber === undefined) enterpriseNumber = fromVat.value;
  }
  if (problems.length > 0) return { ok: false, problems };
  if (enterpriseNumber !== undefined)
    return {
      ok: true,
      identity: { endpoint: { scheme: BELGIAN_SCHEME, id: enterpriseNumber }, enterpriseNumber },
    };
  if (party.countryCode === 'BE')
    return { ok: false, problems: [`${role}: a Belgian party needs its enterprise number or BE VAT number`] };
  const scheme = party.vatNumber ? VAT_SCHEMES[party.vatNumber.slice(0, 2)] : undefined;
  if (party.vatNumber && scheme) return { ok: true, identity: { endpoint: { scheme, id: party.vatNumber } } };
  return {
    ok: false,
    problems: [
      `${role}: no Peppol address (an enterprise number, or a VAT number of ${Object.keys(VAT_SCHEMES).join(' ')})`,
    ],
  };
}

/** What the VAT categories of a document ask of its parties (EN 16931 BR-AE-02, BR-IC-02, -11, -12, BR-G-02). */
export function categoryPartyProblems(doc: DocumentSnapshot): string[] {
  const problems: string[] = [];
  const categories = new Set(doc.vat.map((r) => r.vatCategory));
  const need = (category: string, what: string, has: boolean) => {
    if (categories.has(category as never) && !has) problems.push(`VAT category ${category} needs ${what}`);
  };
  need('AE', "the seller's VAT number", Boolean(doc.seller.vatNumber));
  need('AE', "the buyer's VAT number", Boolean(doc.buyer.vatNumber));
  need('K', "the seller's VAT number", Boolean(doc.seller.vatNumber));
  need('K', "the buyer's VAT number", Boolean(doc.buyer.vatNumber));
  need('K', 'the delivery date', Boolean(doc.deliveryDate));
  need('G', "the seller's VAT number", Boolean(doc.seller.vatNumber));
  return problems;
}

/** Whether a barcode is a GTIN (8, 12, 13 or 14 digits with a valid GS1 check digit): only then is it written under scheme 0160. */
export function isGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12,14})$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop() as number;
  const sum = digits.reverse().reduce((n, d, i) => n + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}
