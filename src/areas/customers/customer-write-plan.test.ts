import { describe, expect, it } from 'vitest';
import { ConflictError, ForbiddenError, NotFoundError } from '../../kernel/errors.ts';
import { refusedFields } from '../../kernel/refused-fields.ts';
import type { AddressRow, CustomerRow } from './customer-repository.ts';
import {
  type CheckedPatch,
  type CustomerPatch,
  checkPatch,
  nextCustomerNo,
  planCustomerRow,
  planCustomerWrite,
  withDefaults,
} from './customer-write-plan.ts';

const AT = '2026-06-15T10:00:00.000Z';
const EARLIER = '2026-01-01T00:00:00.000Z';

const customer = (over: Partial<CustomerRow> = {}): CustomerRow => ({
  customer_no: 10001,
  name: 'Modehuis Jansen',
  price_group: 2,
  customer_group: null,
  currency: 'EUR',
  discount_bp: 0,
  active: 1,
  deleted: 0,
  scn: 7,
  created_at: EARLIER,
  updated_at: EARLIER,
  external_key: null,
  name2: '',
  vat_no: '',
  language: 'LANGUAGE_1',
  payment_days: 30,
  credit_limit_minor: 0,
  representative_code: null,
  ...over,
});

const street = {
  address: 'Kalverstraat',
  houseNumber: '1',
  postalCode: '1012 NX',
  city: 'Amsterdam',
  country: 'NL',
};
const fieldsOf = (p: CustomerPatch) => checkPatch(p).delivery?.[0]?.fields;
const addressRow = (no: number, over: Partial<AddressRow> = {}): AddressRow => ({
  customer_no: 10001,
  address_no: no,
  ...(fieldsOf({ deliveryAddresses: [street] }) as NonNullable<ReturnType<typeof fieldsOf>>),
  deleted: 0,
  scn: 3,
  created_at: EARLIER,
  updated_at: EARLIER,
  ...over,
});

/** The whole plan for a checked patch against a stored customer and its addresses. */
function plan(
  patch: CheckedPatch,
  stored: CustomerRow | undefined,
  storedAddresses: AddressRow[],
  whole = false,
  confinedTo: number | null = null,
) {
  const customerNo = patch.customerNo ?? stored?.customer_no ?? 10001;
  const { row, live } = planCustomerRow(patch, customerNo, stored, confinedTo, AT);
  return planCustomerWrite({ patch, whole, row, live, stored, storedAddresses, at: AT });
}

describe('checkPatch', () => {
  it('keeps only the fields given, in the stored form', () => {
    const checked = checkPatch({
      customerNo: 10001,
      externalKey: '  K1 ',
      representative: ' jdv ',
      customerGroup: ' ',
      active: false,
    });
    expect(checked).toEqual({
      customerNo: 10001,
      row: { external_key: 'K1', representative_code: 'JDV', customer_group: null, active: 0 },
      invoice: undefined,
      delivery: undefined,
    });
  });

  it('names every wrong field by its pointer in the record, with the path of an address', () => {
    // PRICEGROUP 0, PAYMENTDAYS 366, the invoice address's number and a missing CUSTOMER are the
    // schema's: admin-customers.test.ts ("the schema names wrong shapes ...").
    expect(
      refusedFields(() =>
        checkPatch({
          customerNo: 0,
          currency: 'EURO',
          invoiceAddress: { ...street, country: 'XQ' },
          deliveryAddresses: [
            { ...street, addressNo: 2 },
            { ...street, addressNo: 2, city: ' ' },
          ],
        }),
      ),
    ).toEqual([
      '/CUSTOMER',
      '/CURRENCY',
      '/INVOICE ADDRESSES/0/COUNTRYPOST',
      '/DELIVERY ADDRESSES/1/EXTRAADDRESSNO',
      '/DELIVERY ADDRESSES/1/CITY',
    ]);
  });

  it("takes the invoice address's VAT number as the customer's, and refuses two that differ", () => {
    expect(checkPatch({ invoiceAddress: { ...street, vatNo: 'NL000099998B57' } }).row.vat_no).toBe(
      'NL000099998B57',
    );
    expect(
      refusedFields(() =>
        checkPatch({ vatNo: 'NL000099998B57', invoiceAddress: { ...street, vatNo: 'DE136695976' } }),
      ),
    ).toEqual(['/INVOICE ADDRESSES/0/VATNO']);
  });
});

describe('withDefaults and nextCustomerNo', () => {
  it('fills in what a whole customer leaves out, and keeps what it gives', () => {
    const whole = withDefaults({
      customerNo: 5,
      name: 'N',
      priceGroup: 1,
      currency: 'EUR',
      paymentDays: undefined,
    });
    expect(whole).toMatchObject({
      paymentDays: 30,
      language: 'LANGUAGE_1',
      representative: null,
      active: true,
    });
    expect(whole.deliveryAddresses).toEqual([]);
    expect(
      withDefaults({ customerNo: 5, name: 'N', priceGroup: 1, currency: 'EUR', paymentDays: 60 }).paymentDays,
    ).toBe(60);
  });

  it('numbers new customers from 10001', () => {
    expect(nextCustomerNo(0)).toBe(10001);
    expect(nextCustomerNo(10041)).toBe(10042);
  });
});

describe('planCustomerRow', () => {
  it('needs name, price group and currency for a new customer only', () => {
    expect(
      refusedFields(() => planCustomerRow(checkPatch({ name: 'X' }), 10001, undefined, null, AT)),
    ).toEqual(['/PRICEGROUP', '/CURRENCY']);
    const { row, live } = planCustomerRow(checkPatch({ name: 'X' }), 10001, customer(), null, AT);
    expect(live).toBe(true);
    expect(row).toMatchObject({ name: 'X', price_group: 2, scn: 7 });
  });

  it('starts a re-created customer from the defaults, not from what it was', () => {
    const patch = checkPatch({ name: 'Nieuw', priceGroup: 1, currency: 'EUR' });
    const { row, live } = planCustomerRow(patch, 10001, customer({ deleted: 1, discount_bp: 500 }), null, AT);
    expect(live).toBe(false);
    expect(row).toMatchObject({ deleted: 0, discount_bp: 0, created_at: AT });
  });

  it('keeps a confined token to its own live customer and away from its commercial terms', () => {
    const own = customer();
    expect(() => planCustomerRow(checkPatch({ name: 'X' }), 10002, own, 10001, AT)).toThrow(ForbiddenError);
    expect(() => planCustomerRow(checkPatch({ name: 'X' }), 10001, undefined, 10001, AT)).toThrow(
      NotFoundError,
    );
    expect(() =>
      planCustomerRow(checkPatch({ discountBp: 100, currency: 'EUR' }), 10001, own, 10001, AT),
    ).toThrow(/commercial terms \(discountBp\)/);
    // Terms given as they already are, and the customer's own fields, are allowed.
    expect(
      planCustomerRow(checkPatch({ currency: 'EUR', name2: 'Jansen' }), 10001, own, 10001, AT).row.name2,
    ).toBe('Jansen');
  });
});

describe('planCustomerWrite', () => {
  it('changes nothing when the patch equals what is stored', () => {
    const p = plan(checkPatch({ customerNo: 10001, name: 'Modehuis Jansen' }), customer(), [addressRow(1)]);
    expect(p).toMatchObject({ created: false, customerChanged: false, addressWrites: [], changed: false });
  });

  it('gives an added delivery address the next number, never a used one', () => {
    const stored = [addressRow(1), addressRow(2, { deleted: 1 })];
    const p = plan(
      checkPatch({ customerNo: 10001, deliveryAddresses: [{ ...street, city: 'Utrecht' }] }),
      customer(),
      stored,
    );
    expect(p.deliveryNos).toEqual([3]);
    expect(p.deliveryAdded).toEqual([true]);
    expect(p.addressWrites.map((a) => [a.address_no, a.city, a.created_at])).toEqual([[3, 'Utrecht', AT]]);
    expect(p.customerChanged).toBe(false);
    expect(p.changed).toBe(true);
  });

  it('answers an added address equal to a live one with that one (a retried add adds nothing)', () => {
    const p = plan(checkPatch({ customerNo: 10001, deliveryAddresses: [street] }), customer(), [
      addressRow(1),
    ]);
    expect(p).toMatchObject({ deliveryNos: [1], deliveryAdded: [false], changed: false });
  });

  it('refuses a change to an address number the customer does not have', () => {
    expect(
      refusedFields(() =>
        plan(
          checkPatch({ customerNo: 10001, deliveryAddresses: [{ ...street, addressNo: 4 }] }),
          customer(),
          [addressRow(1)],
        ),
      ),
    ).toEqual(['/DELIVERY ADDRESSES/0/EXTRAADDRESSNO']);
  });

  it('deletes the delivery addresses a whole customer leaves out, but keeps the invoice address', () => {
    const patch = checkPatch(
      withDefaults({ customerNo: 10001, name: 'Modehuis Jansen', priceGroup: 2, currency: 'EUR' }),
    );
    const p = plan(
      { ...patch, invoice: undefined },
      customer(),
      [addressRow(0), addressRow(1), addressRow(2)],
      true,
    );
    expect(p.addressWrites.map((a) => [a.address_no, a.deleted])).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it('clears the addresses of a deleted customer that is created again', () => {
    const patch = checkPatch({ customerNo: 10001, name: 'Nieuw', priceGroup: 1, currency: 'EUR' });
    const p = plan(patch, customer({ deleted: 1 }), [addressRow(1), addressRow(2, { deleted: 1 })]);
    expect(p.created).toBe(true);
    expect(p.addressWrites.map((a) => [a.address_no, a.deleted])).toEqual([[1, 1]]);
  });

  it('stops at 999 delivery address numbers', () => {
    const p = () =>
      plan(
        checkPatch({ customerNo: 10001, deliveryAddresses: [{ ...street, city: 'Utrecht' }] }),
        customer(),
        [addressRow(999, { deleted: 1 })],
      );
    expect(p).toThrow(ConflictError);
    expect(p).toThrow(/all 999/);
  });

  it('moves the customer between representatives', () => {
    const p = plan(
      checkPatch({ customerNo: 10001, representative: 'spe' }),
      customer({ representative_code: 'JDV' }),
      [],
    );
    expect(p.representative).toEqual({ from: 'JDV', to: 'SPE' });
    expect(p.customerChanged).toBe(true);
  });
});
