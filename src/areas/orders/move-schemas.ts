import { Type } from 'typebox';
import { ORDER_STATES } from './rules/states.ts';

const State = Type.Union(
  ORDER_STATES.map((s) => Type.Literal(s)),
  { description: 'An order state (docs/orders.md, "States").' },
);

/**
 * What a change of a web order did to its money (docs/orders.md, "Paying with tenders"): present
 * when it gave anything back or changed the bonus card.
 */
export const RefundSchema = Type.Object(
  {
    TENDERS: Type.Array(Type.Object({ KIND: Type.String(), CODE: Type.String(), AMOUNT: Type.Number() }), {
      description: 'Tenders given back what they paid for cancelled pieces.',
    }),
    CREDITNOTE: Type.Union(
      [Type.Object({ CODE: Type.String(), AMOUNT: Type.Number(), VALIDUNTIL: Type.String() }), Type.Null()],
      { description: 'A return: the credit-note voucher for what vouchers and cheques paid for the pieces.' },
    ),
    BONUS: Type.Union([Type.Object({ CARDNO: Type.String(), CHANGE: Type.Number() }), Type.Null()], {
      description: 'What the bonus card earned (positive) or gave back (negative) by this change.',
    }),
    OTHER: Type.Number({
      description:
        'What was paid outside tv2 for the pieces given up: the shop refunds it (PAYMENTREFERENCE).',
    }),
  },
  { title: 'Refund', description: 'Refunds and bonus of a web order change.' },
);

/** What a move answers (moveToWire): the order's state before and after, and its lines' counters now. */
export const MoveAnswerSchema = Type.Object(
  {
    ORDERNO: Type.Integer(),
    WEBORDER: Type.String(),
    ACTION: Type.String({
      description:
        'The lifecycle action done (confirm, startPicking, deliver, cancelDelivery, close, cancel).',
    }),
    FROM: State,
    STATE: State,
    SCN: Type.Integer({ description: 'The SCN of the move (its history row).' }),
    LINES: Type.Array(
      Type.Object({
        LINE: Type.Integer(),
        ARTICLE: Type.String(),
        SIZEX: Type.String(),
        BARCODE: Type.String(),
        ORDERED: Type.Integer(),
        CANCELLED: Type.Integer(),
        RESERVED: Type.Integer(),
        DELIVERED: Type.Integer(),
        RETURNED: Type.Integer(),
        OPEN: Type.Integer({ description: 'Still to deliver: ORDERED − CANCELLED − DELIVERED.' }),
      }),
    ),
    REFUND: Type.Optional(RefundSchema),
  },
  { title: 'OrderMove' },
);
