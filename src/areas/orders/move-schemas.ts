import { Type } from 'typebox';
import { ORDER_STATES } from './rules/states.ts';

const State = Type.Union(
  ORDER_STATES.map((s) => Type.Literal(s)),
  { description: 'An order state (docs/orders.md, "States").' },
);

/** What a move answers (moveToWire): the order's state before and after, and its lines' counters now. */
export const MoveAnswerSchema = Type.Object({
  ORDERNO: Type.Integer(),
  WEBORDER: Type.String(),
  ACTION: Type.String({
    description: 'The lifecycle action done (confirm, startPicking, deliver, cancelDelivery, close, cancel).',
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
});
