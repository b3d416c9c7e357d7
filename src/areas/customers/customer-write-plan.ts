import { assertOwnCustomer, assertTermsUnchanged } from '../../kernel/access.ts';
import { type FieldError, ValidationError } from '../../kernel/errors.ts';
import { fail, MAX_DELIVERY_ADDRESSES } from './customer-common.ts';
import type { AddressRow, CustomerRow } from './customer-repository.ts';
import {
  type AddressFields,
  type AddressInput,
  checkAddress,
  checkCredit,
  checkCurrency,
  checkCustomerNo,
  checkDiscount,
  checkVat,
  type InvoiceAddressInput,
  normaliseRepresentative,
  sameAddress,
} from './customer-validation.ts';
import { CUSTOMERS_ERRORS } from './errors.ts';

/**
 * What one customer write will do, worked out from what is stored (no database here): the patch
 * checked and normalised, the customer row it leads to, and the address rows to write. The
 * customer service reads the stored state, asks this module for the plan and applies it.
 */

/**
 * A change to a customer (B2B_PostCustomer): fields left out keep their value. Money in minor
 * units, percentages in basis points. Addresses are always given whole.
 */
export interface CustomerPatch {
  /** Absent: the customer with `externalKey`, or else a new customer with the next free number. */
  customerNo?: number;
  externalKey?: string | null;
  name?: string;
  /** Name 2 / trade name. */
  name2?: string;
  vatNo?: string;
  /** A language slot, LANGUAGE_1 ... */
  language?: string;
  currency?: string;
  priceGroup?: number;
  customerGroup?: string | null;
  discountBp?: number;
  paymentDays?: number;
  creditLimitMinor?: number;
  /** Representative code; null for none. */
  representative?: string | null;
  active?: boolean;
  /** Replaces the invoice address (number 0); null removes it. */
  invoiceAddress?: InvoiceAddressInput | null;
  /** Each one changes the delivery address with its addressNo or, without one, is added. */
  deliveryAddresses?: AddressInput[];
}

/**
 * A whole customer (back office, `tv2 import customerdetails`): what is left out takes its default,
 * and delivery addresses not given are deleted.
 */
export interface CustomerDetailsInput extends CustomerPatch {
  customerNo: number;
  name: string;
  priceGroup: number;
  currency: string;
}

/** A patch checked and normalised: the fields given, in the stored form. */
export interface CheckedPatch {
  customerNo?: number;
  row: Partial<CustomerRow>;
  invoice?: AddressFields | null;
  delivery?: Array<{ addressNo?: number; fields: AddressFields }>;
}

/** What one customer write will do, computed from the stored state. */
export interface Plan {
  customerNo: number;
  created: boolean;
  /** The customer row as it should be (scn and timestamps filled in when it is applied). */
  row: CustomerRow;
  customerChanged: boolean;
  addressWrites: AddressRow[];
  /** The number each given delivery address got, and whether it was added. */
  deliveryNos: number[];
  deliveryAdded: boolean[];
  representative: { from: string | null; to: string | null };
  changed: boolean;
}

export const FIRST_CUSTOMER_NO = 10001;

/** The commercial terms a customer's own token cannot change (columns and the wire field names). */
const TERMS: ReadonlyArray<[keyof CustomerRow, string]> = [
  ['external_key', 'externalKey'],
  ['currency', 'currency'],
  ['price_group', 'priceGroup'],
  ['customer_group', 'customerGroup'],
  ['discount_bp', 'discountBp'],
  ['payment_days', 'paymentDays'],
  ['credit_limit_minor', 'creditLimitMinor'],
  ['representative_code', 'representative'],
  ['active', 'active'],
];

const CUSTOMER_CONTENT: ReadonlyArray<keyof CustomerRow> = [
  'name',
  'price_group',
  'customer_group',
  'currency',
  'discount_bp',
  'active',
  'deleted',
  'external_key',
  'name2',
  'vat_no',
  'language',
  'payment_days',
  'credit_limit_minor',
  'representative_code',
];

/** A whole customer: what is left out takes its default (replace, not merge). */
export function withDefaults(input: CustomerDetailsInput): CustomerDetailsInput {
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  return {
    externalKey: null,
    name2: '',
    vatNo: '',
    language: 'LANGUAGE_1',
    customerGroup: null,
    discountBp: 0,
    paymentDays: 30,
    creditLimitMinor: 0,
    representative: null,
    active: true,
    invoiceAddress: null,
    deliveryAddresses: [],
    ...(given as unknown as CustomerDetailsInput),
  };
}

/** The number a new customer gets when none is given: the next after the highest (from 10001). */
export function nextCustomerNo(maxStored: number): number {
  return Math.max(maxStored, FIRST_CUSTOMER_NO - 1) + 1;
}

/**
 * Checks and normalises a patch (400 VALIDATION_FAILED with every field error, each named by its
 * JSON pointer in the customer record: `/VATNO`, `/DELIVERY ADDRESSES/1/EXTRAADDRESSNO`). The
 * shape of each field (lengths, codes, ranges, the invoice address's number) is the schema's
 * (customer-input.ts); here are the rules it cannot state, and the ones named in the same answer.
 */
export function checkPatch(patch: CustomerPatch): CheckedPatch {
  const errors: FieldError[] = [];
  const row: Partial<CustomerRow> = {};
  if (patch.customerNo !== undefined) checkCustomerNo(errors, '/CUSTOMER', patch.customerNo);
  if (patch.externalKey !== undefined) {
    row.external_key =
      patch.externalKey === null || patch.externalKey.trim() === '' ? null : patch.externalKey.trim();
  }
  if (patch.name !== undefined) row.name = patch.name.trim();
  if (patch.name2 !== undefined) row.name2 = patch.name2.trim();
  if (patch.vatNo !== undefined) row.vat_no = checkVat(errors, '/VATNO', patch.vatNo);
  const invoiceVat = patch.invoiceAddress?.vatNo;
  if (invoiceVat !== undefined) {
    const vat = checkVat(errors, '/INVOICE ADDRESSES/0/VATNO', invoiceVat);
    if (row.vat_no === undefined) row.vat_no = vat;
    else if (vat !== row.vat_no && errors.length === 0) {
      errors.push({ name: '/INVOICE ADDRESSES/0/VATNO', message: "differs from the customer's VAT number" });
    }
  }
  if (patch.language !== undefined) row.language = patch.language;
  if (patch.currency !== undefined) {
    checkCurrency(errors, '/CURRENCY', patch.currency);
    row.currency = patch.currency;
  }
  if (patch.priceGroup !== undefined) row.price_group = patch.priceGroup;
  if (patch.customerGroup !== undefined) {
    row.customer_group =
      patch.customerGroup === null || patch.customerGroup.trim() === '' ? null : patch.customerGroup;
  }
  if (patch.discountBp !== undefined) {
    checkDiscount(errors, '/DISCOUNTPERC', patch.discountBp);
    row.discount_bp = patch.discountBp;
  }
  if (patch.paymentDays !== undefined) row.payment_days = patch.paymentDays;
  if (patch.creditLimitMinor !== undefined) {
    checkCredit(errors, '/CREDITLIMIT', patch.creditLimitMinor);
    row.credit_limit_minor = patch.creditLimitMinor;
  }
  if (patch.representative !== undefined) {
    row.representative_code =
      patch.representative === null || patch.representative.trim() === ''
        ? null
        : normaliseRepresentative(patch.representative);
  }
  if (patch.active !== undefined) row.active = patch.active ? 1 : 0;

  let invoice: AddressFields | null | undefined;
  if (patch.invoiceAddress === null) invoice = null;
  else if (patch.invoiceAddress !== undefined) {
    invoice = checkAddress(errors, '/INVOICE ADDRESSES/0/', patch.invoiceAddress);
  }
  let delivery: CheckedPatch['delivery'];
  if (patch.deliveryAddresses !== undefined) {
    const numbers = new Set<number>();
    delivery = patch.deliveryAddresses.map((a, i) => {
      const at = `/DELIVERY ADDRESSES/${i}/`;
      if (a.addressNo !== undefined) {
        if (numbers.has(a.addressNo)) errors.push({ name: `${at}EXTRAADDRESSNO`, message: 'repeats' });
        numbers.add(a.addressNo);
      }
      return { addressNo: a.addressNo, fields: checkAddress(errors, at, a) };
    });
  }
  fail(errors);
  return { customerNo: patch.customerNo, row, invoice, delivery };
}

/**
 * The customer row a checked patch leads to, given the stored row (`undefined`: none). A token
 * confined to a customer may write only that live customer and not its commercial terms (403
 * OUTSIDE_SCOPE, 404 CUSTOMER_NOT_FOUND); a new customer needs name, price group and currency.
 */
export function planCustomerRow(
  patch: CheckedPatch,
  customerNo: number,
  stored: CustomerRow | undefined,
  confinedTo: number | null,
  at: string,
): { row: CustomerRow; live: boolean } {
  assertOwnCustomer({ customerNo: confinedTo }, customerNo);
  const live = stored !== undefined && stored.deleted === 0;
  if (!live && confinedTo !== null) {
    throw CUSTOMERS_ERRORS.CUSTOMER_NOT_FOUND(`No customer ${customerNo}.`);
  }
  if (!live) {
    const missing = (['name', 'price_group', 'currency'] as const).filter((k) => patch.row[k] === undefined);
    if (missing.length > 0) {
      const names = { name: '/NAME', price_group: '/PRICEGROUP', currency: '/CURRENCY' };
      throw new ValidationError(
        missing.map((k) => ({ name: names[k], message: 'is required for a new customer' })),
      );
    }
  }
  const base: CustomerRow =
    stored && live
      ? stored
      : {
          customer_no: customerNo,
          name: '',
          price_group: 0,
          customer_group: null,
          currency: '',
          discount_bp: 0,
          active: 1,
          deleted: 0,
          scn: 0,
          created_at: at,
          updated_at: at,
          external_key: null,
          name2: '',
          vat_no: '',
          language: 'LANGUAGE_1',
          payment_days: 30,
          credit_limit_minor: 0,
          representative_code: null,
        };
  const row: CustomerRow = { ...base, ...patch.row, customer_no: customerNo, deleted: 0 };

  if (confinedTo !== null && stored) {
    const refused = TERMS.filter(([column]) => row[column] !== stored[column]).map(([, name]) => name);
    assertTermsUnchanged(confinedTo, refused);
  }
  return { row, live };
}

/**
 * The whole plan of one customer write: the row from `planCustomerRow` and the address rows to
 * write, given the customer's stored addresses (all of them, deleted ones too). `whole`: the patch
 * is a whole customer, so delivery addresses not in it are deleted; a change must name live
 * addresses only. New delivery addresses get the next numbers (never reused); one equal to a live
 * address that is not being changed, or to one added in the same patch, is that one.
 */
export function planCustomerWrite(args: {
  patch: CheckedPatch;
  whole: boolean;
  row: CustomerRow;
  live: boolean;
  stored: CustomerRow | undefined;
  storedAddresses: AddressRow[];
  at: string;
}): Plan {
  const { patch, whole, row, live, stored, storedAddresses, at } = args;
  const customerNo = row.customer_no;
  const liveAddresses = new Map(
    storedAddresses.filter((a) => a.deleted === 0 && live).map((a) => [a.address_no, a]),
  );
  let nextNo = Math.max(0, ...storedAddresses.map((a) => a.address_no)) + 1;
  const wanted = new Map<number, AddressFields | null>();
  if (patch.invoice !== undefined) wanted.set(0, patch.invoice);
  const deliveryNos: number[] = [];
  const deliveryAdded: boolean[] = [];
  const missingNos: FieldError[] = [];
  for (const [i, d] of (patch.delivery ?? []).entries()) {
    if (d.addressNo !== undefined) {
      // A whole customer (back office) may bring its own numbers; a change must name a live one.
      if (!whole && !liveAddresses.has(d.addressNo)) {
        missingNos.push({
          name: `/DELIVERY ADDRESSES/${i}/EXTRAADDRESSNO`,
          message: `customer ${customerNo} has no delivery address ${d.addressNo}`,
        });
      }
      wanted.set(d.addressNo, d.fields);
      deliveryNos.push(d.addressNo);
      deliveryAdded.push(false);
    }
  }
  if (missingNos.length > 0) throw new ValidationError(missingNos);
  nextNo = Math.max(nextNo, ...[...wanted.keys()].map((no) => no + 1));
  for (const d of patch.delivery ?? []) {
    if (d.addressNo !== undefined) continue;
    // An address equal to a live one that is not being changed, or to one added in this call, is that one.
    const same =
      [...liveAddresses.values()].find(
        (a) => a.address_no > 0 && !wanted.has(a.address_no) && sameAddress(a, d.fields),
      )?.address_no ??
      [...wanted.entries()].find(
        ([no, f]) => no > 0 && f !== null && !liveAddresses.has(no) && sameAddress(f, d.fields),
      )?.[0];
    if (same !== undefined) {
      wanted.set(same, d.fields);
      deliveryNos.push(same);
      deliveryAdded.push(false);
    } else {
      const no = nextNo++;
      wanted.set(no, d.fields);
      deliveryNos.push(no);
      deliveryAdded.push(true);
    }
  }
  if (whole) {
    for (const no of liveAddresses.keys()) if (no > 0 && !wanted.has(no)) wanted.set(no, null);
  }
  if (nextNo - 1 > MAX_DELIVERY_ADDRESSES) {
    throw CUSTOMERS_ERRORS.TOO_MANY_ADDRESSES(
      `Customer ${customerNo} has used all ${MAX_DELIVERY_ADDRESSES} delivery address numbers.`,
    );
  }
  const addressWrites: AddressRow[] = [];
  for (const [no, fields] of wanted) {
    const current = liveAddresses.get(no);
    const prior = storedAddresses.find((a) => a.address_no === no);
    if (fields === null) {
      if (current) addressWrites.push({ ...current, deleted: 1, updated_at: at });
    } else if (!current || !sameAddress(current, fields)) {
      addressWrites.push({
        customer_no: customerNo,
        address_no: no,
        ...fields,
        deleted: 0,
        scn: 0,
        created_at: prior?.created_at ?? at,
        updated_at: at,
      });
    }
  }
  // A re-created customer starts without the addresses it had.
  if (stored && !live) {
    for (const a of storedAddresses) {
      if (a.deleted === 0 && !wanted.has(a.address_no))
        addressWrites.push({ ...a, deleted: 1, updated_at: at });
    }
  }

  const customerChanged = !live || CUSTOMER_CONTENT.some((k) => row[k] !== stored?.[k]);
  return {
    customerNo,
    created: !live,
    row,
    customerChanged,
    addressWrites,
    deliveryNos,
    deliveryAdded,
    // A deleted customer keeps its membership row until it is re-created with another representative.
    representative: { from: stored?.representative_code ?? null, to: row.representative_code },
    changed: customerChanged || addressWrites.length > 0,
  };
}
