import { type Static, Type } from 'typebox';
import { ValidationError } from '../../kernel/errors.ts';
import { CURRENCY, toMinor } from '../../kernel/money.ts';
import { readPaymentReference } from './payment-rules.ts';
import type { PaymentInput, PaymentOutcome } from './payment-service.ts';

/**
 * A payment as the back office and `tv2 import payments` give it (docs/billing-issuing.md,
 * "Payments and open items"): the same record either way, so both refuse the same things.
 */
export const PaymentRecord = Type.Object(
  {
    DATE: Type.String({
      pattern: '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$',
      description: 'Payment date, YYYY-MM-DD.',
    }),
    AMOUNT: Type.Union([Type.Number(), Type.String({ maxLength: 20 })], {
      description:
        'At most two decimals: above 0 received (settles an invoice), below 0 paid out (refunds a credit note).',
    }),
    CURRENCY: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217; default EUR.' })),
    REFERENCE: Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'The structured communication (+++123/4567/89012+++, with *** or none, slashes or not) or the document number; a malformed structured communication is 400.',
    }),
    EXTERNALID: Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'The bank’s reference of the payment: the same one twice is registered and allocated once.',
    }),
  },
  { additionalProperties: false },
);
export type PaymentRecord = Static<typeof PaymentRecord>;

/** The service's input from a checked record; a bad amount, date or reference is a 400 naming its field. */
export function paymentInputOf(record: PaymentRecord, pointer = ''): PaymentInput {
  const errors: Array<{ name: string; message: string }> = [];
  let amount = 0;
  try {
    amount = toMinor(record.AMOUNT, `${pointer}/AMOUNT`);
    if (amount === 0) errors.push({ name: `${pointer}/AMOUNT`, message: 'must not be 0' });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    errors.push(...error.errors);
  }
  if (Number.isNaN(Date.parse(`${record.DATE}T00:00:00Z`)))
    errors.push({ name: `${pointer}/DATE`, message: 'is not a date' });
  const currency = record.CURRENCY ?? 'EUR';
  if (!CURRENCY.test(currency)) errors.push({ name: `${pointer}/CURRENCY`, message: 'must be ISO 4217' });
  const reference = readPaymentReference(record.REFERENCE);
  if ('refused' in reference) errors.push({ name: `${pointer}/REFERENCE`, message: reference.refused });
  if (errors.length > 0 || 'refused' in reference) throw new ValidationError(errors);
  return { date: record.DATE, amount, currency, reference, externalRef: record.EXTERNALID.trim() };
}

/** A payment's outcome on the wire (money in minor units, as the back office's other answers). */
export function paymentAnswer(o: PaymentOutcome) {
  return {
    PAYMENTID: o.paymentId,
    EXTERNALID: o.externalRef,
    REPEATED: o.repeated,
    DATE: o.date,
    AMOUNT: o.amount,
    CURRENCY: o.currency,
    REFERENCE: o.reference,
    CUSTOMER: o.customerNo,
    ALLOCATIONS: o.allocations.map((a) => ({ NUMBER: a.number, AMOUNT: a.amount })),
    UNALLOCATED: o.unallocated,
    REASON: o.reason,
  };
}

export const PaymentAnswer = Type.Object({
  PAYMENTID: Type.Integer(),
  EXTERNALID: Type.String(),
  REPEATED: Type.Boolean({
    description:
      'The external id was registered before: this answer is the first registration’s, nothing was allocated now.',
  }),
  DATE: Type.String(),
  AMOUNT: Type.Integer({ description: 'Minor units; negative when paid out.' }),
  CURRENCY: Type.String(),
  REFERENCE: Type.String({ description: 'As matched: the canonical structured communication, or as given.' }),
  CUSTOMER: Type.Union([Type.Integer(), Type.Null()]),
  ALLOCATIONS: Type.Array(
    Type.Object({ NUMBER: Type.String(), AMOUNT: Type.Integer({ description: 'Minor units.' }) }),
  ),
  UNALLOCATED: Type.Integer({ description: 'Minor units not allocated.' }),
  REASON: Type.Union([Type.String(), Type.Null()], {
    description:
      'Why something is unallocated: NO_MATCH, CURRENCY_MISMATCH, WRONG_DIRECTION, ALREADY_SETTLED, OVERPAYMENT; null when all is allocated.',
  }),
});
