import { Type } from 'typebox';
import { type AdminRoute, adminRoute, pathNumber } from '../../kernel/admin-route.ts';
import { MAX_INT32 } from '../../kernel/int-limits.ts';
import type { Delivered } from './delivery-service.ts';
import { moveToWire } from './move-core.ts';
import { MoveAnswerSchema, RefundSchema } from './move-schemas.ts';
import { settlementToWire } from './order-settlement.ts';
import type { OrderAction } from './rules/lifecycle.ts';

const OrderParams = Type.Object({ order: pathNumber(MAX_INT32, 'Our order number.') });
const DeliveryParams = Type.Object({ delivery: pathNumber(MAX_INT32, 'The delivery number.') });
const ReturnParams = Type.Object({ return: pathNumber(MAX_INT32, 'The return number.') });

const DeliveryLines = Type.Array(
  Type.Object(
    {
      LINE: Type.Integer({ minimum: 1, maximum: 10_000 }),
      QUANTITY: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
    },
    { additionalProperties: false },
  ),
  { minItems: 1, maxItems: 5000 },
);

/** A delivery's answer: the move, with the delivery's number and lines. */
const DeliveryAnswer = Type.Object({
  DELIVERYNO: Type.Integer(),
  DELIVERED: Type.Array(Type.Object({ LINE: Type.Integer(), QUANTITY: Type.Integer() })),
  ORDER: MoveAnswerSchema,
});
const deliveryAnswer = (d: Delivered) => ({
  DELIVERYNO: d.deliveryNo,
  DELIVERED: d.delivered.map((l) => ({ LINE: l.line, QUANTITY: l.quantity })),
  ORDER: moveToWire(d),
});

const CloseBody = Type.Object(
  {
    CANCELREST: Type.Optional(
      Type.Boolean({ description: 'Cancel what is still open (else 409 ORDER_HAS_OPEN_QUANTITY).' }),
    ),
  },
  { additionalProperties: false },
);

/** One route per plain move of the back office: confirm, start picking, cancel (no body). */
function moveRoute(path: string, summary: string, action: OrderAction) {
  return adminRoute({
    method: 'POST',
    url: `/TV2/Admin/orders/:order/${path}`,
    summary,
    description:
      'A lifecycle move (docs/orders.md, "Lifecycle"): a move the table does not have from the order state is ' +
      '409 ORDER_MOVE_NOT_ALLOWED and the order is unchanged.',
    params: OrderParams,
    response: MoveAnswerSchema,
    async handler({ params, services }) {
      return moveToWire(await services.orders.moves.move(Number(params.order), action, 'BACK_OFFICE'));
    },
  });
}

/** The back office of orders: moves, deliveries and returns (docs/orders.md, "Back office"). */
export const ORDERS_ADMIN_ROUTES: AdminRoute[] = [
  moveRoute('confirm', 'Confirm an order (NEW to CONFIRMED)', { name: 'confirm' }),
  moveRoute('start-picking', 'Start picking an order (CONFIRMED to PICKING)', { name: 'startPicking' }),
  moveRoute('cancel', 'Cancel an order: what is open is cancelled and its reservation released', {
    name: 'cancel',
  }),
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/orders/:order/close',
    summary: 'Close a delivered order (CANCELREST: cancel what is still open)',
    description: 'The order is named by its number in the path.',
    params: OrderParams,
    body: CloseBody,
    response: MoveAnswerSchema,
    async handler({ params, body, services }) {
      const action: OrderAction = { name: 'close', cancelRest: body.CANCELREST === true };
      return moveToWire(await services.orders.moves.move(Number(params.order), action, 'BACK_OFFICE'));
    },
  }),
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/orders/:order/deliveries',
    summary: 'Deliver from the order location: the pieces per line given, or every open piece (no LINES)',
    description:
      'One delivery with its own number and lines; stock leaves the order location by the delivered pieces ' +
      '(out of the reservation first, a back-order beyond it from what is available). More than a line has ' +
      'open is 409 ORDER_LINE_OVER_DELIVERED; nothing to deliver 409 ORDER_DELIVERY_EMPTY; an order not ' +
      'confirmed, or final, 409 ORDER_MOVE_NOT_ALLOWED. Nothing is written on a refusal.',
    params: OrderParams,
    body: Type.Object(
      {
        LINES: Type.Optional(DeliveryLines),
        REFERENCE: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      },
      { additionalProperties: false },
    ),
    response: DeliveryAnswer,
    async handler({ params, body, services }) {
      const delivered = await services.orders.moves.deliveries.deliver(Number(params.order), {
        lines: body.LINES?.map((l) => ({ line: l.LINE, quantity: l.QUANTITY })),
        reference: body.REFERENCE,
      });
      return deliveryAnswer(delivered);
    },
  }),
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/deliveries/:delivery/cancel',
    summary: 'Cancel a delivery (a correction: the goods did not leave); once',
    description:
      'Its pieces are open on their lines again and reserved again at the location. A delivery cancelled ' +
      'already is 409 DELIVERY_ALREADY_CANCELLED (stock is never given back twice); pieces that came back ' +
      'as a return 409 ORDER_LINE_OVER_RETURNED; a final order 409 ORDER_MOVE_NOT_ALLOWED.',
    params: DeliveryParams,
    response: DeliveryAnswer,
    async handler({ params, services }) {
      return deliveryAnswer(await services.orders.moves.deliveries.cancel(Number(params.delivery)));
    },
  }),
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/returns/:return/receive',
    summary: 'Receive a return in full: stock back at its location, RETURNED on the order lines; once',
    description:
      'A return received already is 409 RETURN_NOT_AUTHORISED (counted once, also when concurrent). For a ' +
      'web order paid with tenders, REFUND says what was given back: what vouchers and cheques paid for the ' +
      'pieces as one credit-note voucher of the client, bonus value back to its card, and OTHER, what the ' +
      'shop refunds outside tv2 (docs/orders.md, "Paying with tenders").',
    params: ReturnParams,
    response: Type.Object({
      RETURNNO: Type.Integer(),
      ORDERNO: Type.Integer(),
      LOCATION: Type.String(),
      SCN: Type.Integer(),
      LINES: Type.Array(Type.Object({ LINE: Type.Integer(), QUANTITY: Type.Integer() })),
      REFUND: Type.Optional(RefundSchema),
    }),
    async handler({ params, services }) {
      const r = await services.orders.moves.returns.receive(Number(params.return));
      return {
        RETURNNO: r.returnNo,
        ORDERNO: r.orderNo,
        LOCATION: r.locationCode,
        SCN: r.scn,
        LINES: r.lines.map((l) => ({ LINE: l.line, QUANTITY: l.quantity })),
        ...(r.refund ? { REFUND: settlementToWire(r.refund) } : {}),
      };
    },
  }),
];
