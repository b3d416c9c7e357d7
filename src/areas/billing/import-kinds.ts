import { withRoot } from '../../kernel/errors.ts';
import {
  checkRecord,
  fromCsv,
  type ImportKind,
  inOneTransaction,
  type SaveResult,
} from '../../kernel/import/import-kind.ts';
import { PaymentRecord, paymentInputOf } from './payment-input.ts';
import { type PaymentInput, PaymentService } from './payment-service.ts';

/** A CSV row (DATE,AMOUNT,REFERENCE,EXTERNALID[,CURRENCY]) in the JSON form; an empty CURRENCY is left out. */
function fromCsvRow(row: Record<string, string>): unknown {
  const out: Record<string, unknown> = {
    DATE: row.DATE?.trim(),
    AMOUNT: row.AMOUNT?.trim(),
    REFERENCE: row.REFERENCE,
    EXTERNALID: row.EXTERNALID?.trim(),
  };
  if (row.CURRENCY?.trim()) out.CURRENCY = row.CURRENCY.trim();
  return out;
}

/**
 * Bank payments in bulk (`tv2 import payments file.csv`, docs/billing-issuing.md): each matched by
 * its reference and allocated as the back office's registration does; a payment whose EXTERNALID
 * is registered already is counted unchanged (allocated once). A malformed structured
 * communication refuses its row, naming REFERENCE.
 */
const payments: ImportKind<PaymentInput> = {
  name: 'payments',
  description:
    'bank payments: DATE, AMOUNT (two decimals; below 0 paid out), REFERENCE (structured communication or document number), EXTERNALID (the bank’s id: once), CURRENCY (default EUR)',
  parse: (record, format) =>
    paymentInputOf(checkRecord<PaymentRecord>(PaymentRecord, fromCsv(record, format, fromCsvRow))),
  save: (services, inputs) =>
    withRoot(
      '',
      () =>
        inOneTransaction(services, async (database): Promise<SaveResult> => {
          const service = new PaymentService(database);
          let written = 0;
          for (const [index, input] of inputs.entries()) {
            const outcome = await withRoot(`/${index}`, () => service.register(input));
            if (!outcome.repeated) written += 1;
          }
          return { written, unchanged: inputs.length - written };
        }),
      { single: inputs.length === 1 },
    ),
};

/** The billing area's `tv2 import` kinds. */
// biome-ignore lint/suspicious/noExplicitAny: kinds differ in their input type; each is typed where declared
export const BILLING_IMPORT_KINDS: ImportKind<any>[] = [payments];
