import type { DocumentLanguage } from '../document.ts';

/**
 * How the invoice PDF writes amounts, rates, dates and identifiers, per document language. Pure,
 * and exact: amounts go from integer minor units to text by digits, never through a float
 * division, so what the PDF shows is the snapshot's number to the cent. The tests format their
 * expectations with these same functions (and check one literal each, so a bug here shows).
 *
 * Not `Intl.NumberFormat`: its French group separator is a narrow no-break space that the PDF's
 * standard font cannot show, and its output may change with Node's ICU, which would change the
 * bytes of a document already issued (its content hash and the copy embedded in the UBL).
 */

const SEPARATORS: Record<DocumentLanguage, { group: string; decimal: string }> = {
  nl: { group: '.', decimal: ',' },
  fr: { group: '.', decimal: ',' },
  de: { group: '.', decimal: ',' },
  en: { group: ',', decimal: '.' },
};

/** Minor units (two decimals, money.ts) to "1.234,56" (nl, fr, de) or "1,234.56" (en); "-" before a negative. */
export function formatAmount(minor: number, language: DocumentLanguage): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount ${minor} is not an integer of minor units`);
  const { group, decimal } = SEPARATORS[language];
  const digits = String(Math.abs(minor)).padStart(3, '0');
  const whole = digits.slice(0, -2);
  const cents = digits.slice(-2);
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, group);
  return `${minor < 0 ? '-' : ''}${grouped}${decimal}${cents}`;
}

const SYMBOLS: Record<string, string> = { EUR: '€' };

/**
 * An amount with its currency, as each language writes it: "€ 1.234,56" (nl), "1.234,56 €" (fr,
 * de), "€1,234.56" (en). A currency without a symbol in the standard font is written by its code.
 */
export function formatMoney(minor: number, currency: string, language: DocumentLanguage): string {
  const amount = formatAmount(minor, language);
  const symbol = SYMBOLS[currency];
  if (language === 'fr' || language === 'de') return `${amount} ${symbol ?? currency}`;
  if (language === 'en' && symbol) return `${minor < 0 ? '-' : ''}${symbol}${amount.replace('-', '')}`;
  return `${symbol ?? currency} ${amount}`;
}

/** Basis points to "21 %", "5,5 %" (nl, fr, de) or "21%", "5.5%" (en). */
export function formatRate(bp: number, language: DocumentLanguage): string {
  if (!Number.isSafeInteger(bp) || bp < 0) throw new RangeError(`rate ${bp} is not basis points`);
  const whole = Math.floor(bp / 100);
  const fraction = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  const number = fraction ? `${whole}${SEPARATORS[language].decimal}${fraction}` : String(whole);
  return language === 'en' ? `${number}%` : `${number} %`;
}

const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD to "26-11-2026" (nl), "26/11/2026" (fr), "26.11.2026" (de), "26 Nov 2026" (en). */
export function formatDate(iso: string, language: DocumentLanguage): string {
  const match = ISO_DATE.exec(iso);
  if (!match) throw new RangeError(`date ${iso} is not YYYY-MM-DD`);
  const [, year, month, day] = match as unknown as [string, string, string, string];
  if (language === 'en') return `${Number(day)} ${MONTHS_EN[Number(month) - 1]} ${year}`;
  const separator = language === 'nl' ? '-' : language === 'fr' ? '/' : '.';
  return [day, month, year].join(separator);
}

/** An IBAN in groups of four, as it is printed on paper: "BE68 5390 0754 7034". */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}

/** A Belgian enterprise number as it is printed: "0123.456.749"; anything else as it is. */
export function formatEnterpriseNumber(number: string): string {
  return /^\d{10}$/.test(number) ? `${number.slice(0, 4)}.${number.slice(4, 7)}.${number.slice(7)}` : number;
}

/**
 * The characters that the PDF's standard fonts (Helvetica, WinAnsiEncoding) can show: Latin-1 and
 * the 27 extra letters and signs of Windows-1252 (€, Œ, œ, Š, š, Ž, ž, Ÿ, quotes, dashes, ...).
 */
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
/** Letters that do not decompose into a base letter and a mark. */
const FALLBACK: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ı: 'i', Ħ: 'H', ħ: 'h' };

function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.includes(char);
}

/**
 * Text made showable by the standard fonts. A letter outside WinAnsi (ł, č, ő, ș: Polish, Czech,
 * Hungarian, Romanian names) would print as a wrong glyph; it is written without its accent
 * instead ("Łódź" → "Lodz", "Čačak" → "Cacak"), and anything else becomes "?". Only the PDF's
 * picture is affected: the snapshot and the UBL keep the exact text. A newline stays (a note's line
 * break); other control characters (a tab) become a space.
 */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const char of text) {
    if (isWinAnsi(char) || char === '\n') out += char;
    else if (char.codePointAt(0)! < 0x20) out += ' ';
    else if (FALLBACK[char]) out += FALLBACK[char];
    else {
      const base = char.normalize('NFD').replace(/\p{M}/gu, '');
      out += base && [...base].every(isWinAnsi) ? base : '?';
    }
  }
  return out;
}
