import { type Static, Type } from 'typebox';
import { withRoot } from '../../kernel/errors.ts';
import {
  checkRecord,
  fromCsv,
  type ImportKind,
  inOneTransaction,
  type SaveResult,
} from '../../kernel/import/import-kind.ts';
import { DeliveryService } from './delivery-service.ts';

/** One record: pieces of one order line to deliver, or every open piece of the order (no LINE). */
const DeliveryRecord = Type.Object(
  {
    ORDERNO: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    LINE: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    QUANTITY: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    REFERENCE: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
type DeliveryRecord = Static<typeof DeliveryRecord>;

const whole = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : Number(v.trim()));

/** A CSV row (ORDERNO,LINE,QUANTITY,REFERENCE) in the JSON form; an empty cell is left out. */
function fromCsvRow(row: Record<string, string>): unknown {
  const out: Record<string, unknown> = { ORDERNO: whole(row.ORDERNO) };
  if (whole(row.LINE) !== undefined) out.LINE = whole(row.LINE);
  if (whole(row.QUANTITY) !== undefined) out.QUANTITY = whole(row.QUANTITY);
  if (row.REFERENCE?.trim()) out.REFERENCE = row.REFERENCE.trim();
  return out;
}

/**
 * Bulk deliveries (`tv2 import deliveries file.csv`): the records of one order in a batch, with the
 * same REFERENCE, are one delivery of that order (docs/orders.md, "Back office"); a record without
 * LINE delivers every open piece of its order. The batch is one transaction: a refusal (more than
 * open, an order not confirmed) names its record and nothing of the batch is written.
 */
const deliveries: ImportKind<DeliveryRecord & { index: number }> = {
  name: 'deliveries',
  description:
    'deliveries from the order location: ORDERNO, LINE, QUANTITY (LINE empty: every open piece of the order), REFERENCE (the delivery note)',
  parse: (record, format) => {
    const checked = checkRecord<DeliveryRecord>(DeliveryRecord, fromCsv(record, format, fromCsvRow));
    if ((checked.LINE === undefined) !== (checked.QUANTITY === undefined)) {
      checkRecord(Type.Object({ LINE: Type.Integer(), QUANTITY: Type.Integer() }), checked);
    }
    return { ...checked, index: 0 };
  },
  save: (services, inputs) =>
    withRoot(
      '',
      () =>
        inOneTransaction(services, async (database): Promise<SaveResult> => {
          const service = new DeliveryService(database, services);
          const groups = new Map<string, Array<DeliveryRecord & { index: number }>>();
          for (const [index, input] of inputs.entries()) {
            const key = `${input.ORDERNO}\u0000${input.REFERENCE ?? ''}`;
            groups.set(key, [...(groups.get(key) ?? []), { ...input, index }]);
          }
          for (const records of groups.values()) {
            const first = records[0]!;
            const all = records.some((r) => r.LINE === undefined);
            await withRoot(`/${first.index}`, () =>
              service.deliver(first.ORDERNO, {
                lines: all ? undefined : records.map((r) => ({ line: r.LINE!, quantity: r.QUANTITY! })),
                reference: first.REFERENCE,
                pointer: '',
              }),
            );
          }
          return { written: inputs.length, unchanged: 0 };
        }),
      { single: inputs.length === 1 },
    ),
};

/** The orders' `tv2 import` kinds (bulk deliveries). */
// biome-ignore lint/suspicious/noExplicitAny: kinds differ in their input type; each is typed where declared
export const ORDERS_IMPORT_KINDS: ImportKind<any>[] = [deliveries];
