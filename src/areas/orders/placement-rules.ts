import { createHash } from 'node:crypto';
import type { FieldError } from '../../kernel/errors.ts';
import { toMinor } from '../../kernel/money.ts';
import type { BarcodeSize } from '../catalog/index.ts';
import type { PostOrdCusBody, PostWebOrderBody } from './placement-schemas.ts';

/**
 * A placement as the service understands it, made from either body (pure; tested beside). Numbers
 * the documented body types as strings are parsed strictly here (the schema already refused what
 * is not digits or a decimal), and every line keeps the JSON pointer of its body line, so an error
 * names the field the client sent.
 */
export interface PlacementLine {
  barcode: string;
  quantity: number;
  /** What the client showed, to compare with the server's (absent: not sent). */
  shown: { price?: number; netPrice?: number; discountBp?: number };
  customerSequence: string;
  /** `/ORDERREQUEST/ORDERLINES/2` */
  pointer: string;
}

export type WebDelivery =
  | {
      kind: 'ADDRESS';
      address?: {
        NAME?: string;
        ADDRESS: string;
        HOUSENUMBER?: string;
        POSTALCODE: string;
        CITY: string;
        COUNTRY: string;
      };
    }
  | { kind: 'PICKUP'; location: string };

export interface Placement {
  channel: 'B2B' | 'B2C';
  partyNo: number;
  weborder: string;
  currency?: string;
  dateOrdered?: string;
  deliveryAddressNo?: number;
  invoiceAddressNo?: number;
  headerText: string;
  bottomText: string;
  freightShown?: number;
  customerDiscountShownBp?: number;
  delivery?: WebDelivery;
  email?: string;
  paymentReference?: string;
  lines: PlacementLine[];
  /** Tenders that pay part of a web order, in the order named (absent: none). */
  tenders?: PlacementTender[];
  /** The bonus card a web order earns on (the card number as digits, no leading zeros). */
  bonusCard?: string;
  /** The body's wrapper pointer (`/ORDERREQUEST`, `/WEBORDERDATA`). */
  root: string;
}

/** A tender line of a web order: what it is, its code as typed, what it pays (minor units). */
export interface PlacementTender {
  type: 'VOUCHER' | 'CLIENTCHEQUE' | 'BONUSCARD';
  code: string;
  amount: number;
  /** `/WEBORDERDATA/TENDERS/1` */
  pointer: string;
}

/** The party as the placement uses it (its terms and the addresses as they are now). */
export interface Party {
  channel: 'B2B' | 'B2C';
  currency: string;
  discountBp: number;
  paymentDays: number;
  deliveryAddressNo: number | null;
  invoiceAddressNo: number | null;
  deliveryAddress: string | null;
  invoiceAddress: string | null;
  pickupPoint: string | null;
  email: string | null;
}

export interface PricedPlacementLine extends PlacementLine {
  size: BarcodeSize;
  vatBp: number;
  listPrice: number;
  unitPrice: number;
  priceRule: string;
  ruleDiscountBp: number | null;
}

const blank = (v: string | number | undefined) =>
  v === undefined || (typeof v === 'string' && v.trim() === '');
const amount = (v: string | number | undefined, name: string) =>
  blank(v) ? undefined : toMinor(v as string | number, name);
/** A percentage as basis points (12.5 -> 1250); the schema allows two decimals, as money. */
const percent = (v: string | number | undefined, name: string) => amount(v, name);
const whole = (v: string | number) => (typeof v === 'number' ? v : Number(v.trim()));

/** B2B_PostOrdCus's ORDERREQUEST, for the customer the call may act on. */
export function placementFromOrdCus(body: PostOrdCusBody, customerNo: number): Placement {
  const h = body.ORDERREQUEST.ORDERHEADER;
  const root = '/ORDERREQUEST';
  return {
    channel: 'B2B',
    partyNo: customerNo,
    weborder: h.WEBORDER,
    currency: h.CURRENCY,
    dateOrdered: h.DATEORDERED,
    deliveryAddressNo: h.DELEXTRAADDRESSNO,
    invoiceAddressNo: h.FACEXTRAADDRESSNO,
    headerText: h.HEADERTEXT ?? '',
    bottomText: h.BOTTOMTEXT ?? '',
    freightShown: amount(h.COSTFREIGHT, `${root}/ORDERHEADER/COSTFREIGHT`),
    customerDiscountShownBp: percent(h.CUSTOMERDISCOUNTPERC, `${root}/ORDERHEADER/CUSTOMERDISCOUNTPERC`),
    lines: body.ORDERREQUEST.ORDERLINES.map((l, i) => {
      const pointer = `${root}/ORDERLINES/${i}`;
      return {
        barcode: l.BARCODE,
        quantity: whole(l.QUANTITY),
        shown: {
          price: amount(l.PRICE, `${pointer}/PRICE`),
          netPrice: amount(l.NETPRICE, `${pointer}/NETPRICE`),
          discountBp: percent(l.DISCOUNT, `${pointer}/DISCOUNT`),
        },
        customerSequence: l.ORDERCUSTOMERSEQUENCE ?? '',
        pointer,
      };
    }),
    root,
  };
}

/** B2C_PostWebOrder's WEBORDERDATA, for the client the call may act on. */
export function placementFromWebOrder(body: PostWebOrderBody, clientNo: number): Placement {
  const d = body.WEBORDERDATA;
  const root = '/WEBORDERDATA';
  const delivery: WebDelivery =
    d.DELIVERY === 'PICKUP'
      ? { kind: 'PICKUP', location: d.PICKUPLOCATION ?? '' }
      : { kind: 'ADDRESS', ...(d.DELIVERYADDRESS ? { address: d.DELIVERYADDRESS } : {}) };
  return {
    channel: 'B2C',
    partyNo: clientNo,
    weborder: d.WEBORDER,
    currency: d.CURRENCY,
    headerText: '',
    bottomText: '',
    delivery,
    email: d.EMAIL,
    paymentReference: d.PAYMENTREFERENCE,
    ...(d.TENDERS && d.TENDERS.length > 0
      ? {
          tenders: d.TENDERS.map((t, i) => {
            const pointer = `${root}/TENDERS/${i}`;
            return {
              type: t.TYPE,
              code: t.TYPE === 'BONUSCARD' ? cardNumber(t.CODE) : t.CODE,
              amount: toMinor(t.AMOUNT, `${pointer}/AMOUNT`),
              pointer,
            };
          }),
        }
      : {}),
    ...(d.BONUSCARD !== undefined ? { bonusCard: cardNumber(d.BONUSCARD) } : {}),
    lines: d.ORDERLINES.map((l, i) => {
      const pointer = `${root}/ORDERLINES/${i}`;
      return {
        barcode: l.BARCODE,
        quantity: whole(l.QUANTITY),
        shown: { price: amount(l.PRICE, `${pointer}/PRICE`) },
        customerSequence: '',
        pointer,
      };
    }),
    root,
  };
}

/** A card number as stored: its digits without leading zeros (a card number is a number). */
function cardNumber(v: string | number): string {
  const digits = String(v)
    .trim()
    .replace(/^0+(?=[0-9])/, '');
  return /^[0-9]+$/.test(digits) ? digits : String(v).trim();
}

/** The form a tender's code is compared in (case, spaces and dashes do not matter). */
const codeKey = (t: PlacementTender) =>
  `${t.type === 'BONUSCARD' ? 'B' : 'V'}:${t.code.toUpperCase().replace(/[\s-]/g, '')}`;

/** Fields a body must carry together (a pickup needs its location), named by pointer. */
export function placementProblems(p: Placement): FieldError[] {
  const out: FieldError[] = [];
  if (p.delivery?.kind === 'PICKUP' && p.delivery.location === '') {
    out.push({ name: `${p.root}/PICKUPLOCATION`, message: 'required with DELIVERY PICKUP' });
  }
  if (p.bonusCard !== undefined && !/^[1-9][0-9]{0,9}$/.test(p.bonusCard)) {
    out.push({ name: `${p.root}/BONUSCARD`, message: 'a bonus card number is 1 or more' });
  }
  const seen = new Set<string>();
  for (const t of p.tenders ?? []) {
    const key = codeKey(t);
    if (seen.has(key)) out.push({ name: `${t.pointer}/CODE`, message: 'the tender is named twice' });
    seen.add(key);
    // A digit string may say 0 ("0.00"): a tender pays something or is left out.
    if (!(t.amount > 0)) out.push({ name: `${t.pointer}/AMOUNT`, message: 'must be greater than 0' });
    if (t.type === 'BONUSCARD' && !/^[1-9][0-9]{0,9}$/.test(t.code)) {
      out.push({ name: `${t.pointer}/CODE`, message: 'a bonus card number is digits' });
    }
  }
  return out;
}

/** Tenders that would pay more than the order costs (they pay GROSS at most; no change is given). */
export function tenderProblems(p: Placement, gross: number): FieldError[] {
  const paid = (p.tenders ?? []).reduce((sum, t) => sum + t.amount, 0);
  if (paid <= gross) return [];
  return [
    {
      name: `${p.root}/TENDERS`,
      message: `the tenders pay ${money(paid)}, more than the order’s ${money(gross)}`,
    },
  ];
}

/** The bonus card an order earns on: the one named, else the card of a BONUSCARD tender line. */
export function earningCard(p: Placement): string | null {
  return p.bonusCard ?? p.tenders?.find((t) => t.type === 'BONUSCARD')?.code ?? null;
}

/**
 * The fingerprint of a placement as understood (not as spelled: "2" and 2 are the same quantity):
 * a repeat of the same reference must have the same one, or it is another order under a used
 * reference (409 WEBORDER_CONFLICT).
 */
export function requestHash(p: Placement): string {
  const understood = {
    channel: p.channel,
    party: p.partyNo,
    weborder: p.weborder,
    currency: p.currency ?? null,
    date: p.dateOrdered ?? null,
    del: p.deliveryAddressNo ?? null,
    fac: p.invoiceAddressNo ?? null,
    header: p.headerText,
    bottom: p.bottomText,
    freight: p.freightShown ?? null,
    discount: p.customerDiscountShownBp ?? null,
    delivery: p.delivery ?? null,
    email: p.email ?? null,
    payment: p.paymentReference ?? null,
    // Keys added later are in the fingerprint only when used: orders placed before keep theirs.
    ...(p.tenders ? { tenders: p.tenders.map((t) => [codeKey(t), t.amount]) } : {}),
    ...(p.bonusCard !== undefined ? { bonusCard: p.bonusCard } : {}),
    lines: p.lines.map((l) => [
      l.barcode,
      l.quantity,
      l.shown.price ?? null,
      l.shown.netPrice ?? null,
      l.shown.discountBp ?? null,
      l.customerSequence,
    ]),
  };
  return createHash('sha256').update(JSON.stringify(understood)).digest('hex');
}

const money = (minor: number) => (minor / 100).toFixed(2);

/**
 * Where what the client showed differs from the server's price (decision 34: refused, never
 * trusted, never silently replaced): each as the field and the server's value.
 */
export function priceDifferences(
  p: Placement,
  party: Party,
  lines: readonly PricedPlacementLine[],
): FieldError[] {
  const out: FieldError[] = [];
  if (p.freightShown !== undefined && p.freightShown !== 0) {
    out.push({ name: `${p.root}/ORDERHEADER/COSTFREIGHT`, message: 'is 0.00 (no freight is charged)' });
  }
  if (p.customerDiscountShownBp !== undefined && p.customerDiscountShownBp !== party.discountBp) {
    out.push({
      name: `${p.root}/ORDERHEADER/CUSTOMERDISCOUNTPERC`,
      message: `is ${money(party.discountBp)}`,
    });
  }
  for (const l of lines) {
    // Retail shows one price, what a piece costs; wholesale the list price, the net price and the discount.
    const price = p.channel === 'B2C' ? l.unitPrice : l.listPrice;
    if (l.shown.price !== undefined && l.shown.price !== price) {
      out.push({ name: `${l.pointer}/PRICE`, message: `is ${money(price)}` });
    }
    if (l.shown.netPrice !== undefined && l.shown.netPrice !== l.unitPrice) {
      out.push({ name: `${l.pointer}/NETPRICE`, message: `is ${money(l.unitPrice)}` });
    }
    const discount = l.ruleDiscountBp ?? 0;
    if (l.shown.discountBp !== undefined && l.shown.discountBp !== discount) {
      out.push({ name: `${l.pointer}/DISCOUNT`, message: `is ${money(discount)}` });
    }
  }
  return out;
}

/**
 * Lines whose amounts are too large to compute exactly (decision 34: money never leaves integer
 * arithmetic): the calculator multiplies an amount by up to 20,000 (basis points, rounding), so a
 * line, and the order's sum, must stay within 2^53 / 20,000 minor units (about 450 billion in
 * the currency). A refusal names the line's QUANTITY, never a 500.
 */
export function amountProblems(lines: readonly PricedPlacementLine[]): FieldError[] {
  const limit = Math.floor(Number.MAX_SAFE_INTEGER / 20_000);
  const out: FieldError[] = [];
  let sum = 0;
  for (const l of lines) {
    const amount = l.quantity * l.unitPrice;
    sum += amount;
    if (!(amount <= limit) || !(sum <= limit)) {
      out.push({ name: `${l.pointer}/QUANTITY`, message: 'the amount of the order is too large' });
    }
  }
  return out;
}
