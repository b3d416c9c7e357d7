import { Type } from 'typebox';
import { clientScope, customerScope } from '../../kernel/access.ts';
import { DIGITS_MAX, MAX_INT32 } from '../../kernel/int-limits.ts';
import { operation } from '../../kernel/operation.ts';
import { digits, type PageLimits, pageParams, queryObject, toPage } from '../../kernel/params.ts';
import { NextOffsetSchema, rooted, ScnSchema } from '../../kernel/schemas.ts';
import { moveToWire } from './move-core.ts';
import { MoveAnswerSchema } from './move-schemas.ts';

const DELIVERY_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };

const Number32 = (description: string) =>
  Type.Union(
    [
      Type.Integer({ minimum: 0, maximum: MAX_INT32 }),
      Type.String({ pattern: '^\\s*[0-9]{1,10}\\s*$', [DIGITS_MAX]: MAX_INT32 }),
    ],
    { description: `${description} (a JSON number or digits).` },
  );
const num = (v: string | number | undefined) =>
  v === undefined ? undefined : typeof v === 'number' ? v : Number(v.trim());
const OrderNo = Number32('Our order number (ORDERNO of B2C_PostWebOrder)');
const ClientNo = Number32('Client number; a confined token may leave it out or give 0 for its own');

export const B2C_CloseClientOrder = operation({
  name: 'B2C_CloseClientOrder',
  method: 'POST',
  audience: 'B2C',
  area: 'Orders',
  summary: 'Close a client order',
  description:
    'The client is done with its web order. Nothing delivered yet (NEW, CONFIRMED): the order is cancelled ' +
    '(ACTION cancel) and its reservation released. Something delivered (PARTIALLY_DELIVERED, DELIVERED): the ' +
    'client confirms the order complete as it is (ACTION close): what is still open is cancelled and its ' +
    'reservation released, the delivered pieces stay the client’s (returns: B2C_GetReturnLocation). Once the ' +
    'warehouse is picking (PICKING) the client can no longer cancel alone, and a CLOSED or CANCELLED order is ' +
    'final: 409 ORDER_MOVE_NOT_ALLOWED, the order unchanged. Another client’s order, or an unknown one, is ' +
    '404 ORDER_NOT_FOUND. A token confined to a client closes only its own orders. For an order paid with ' +
    'TENDERS, REFUND says what the cancelled pieces gave back: each tender what it paid for them (the last ' +
    'named first; an expired one as a new credit-note voucher), and OTHER, what the shop refunds outside tv2.',
  body: Type.Object(
    {
      CLOSECLIENTORDER: Type.Object(
        { CLIENT: Type.Optional(ClientNo), ORDERNO: OrderNo },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  response: rooted('B2CCLOSECLIENTORDER', MoveAnswerSchema),
  async handler({ body, principal, services }) {
    const req = body.CLOSECLIENTORDER;
    const clientNo = clientScope(principal, num(req.CLIENT), '/CLOSECLIENTORDER/CLIENT');
    const moved = await services.orders.moves.closeForClient(clientNo, num(req.ORDERNO)!);
    return { B2CCLOSECLIENTORDER: moveToWire(moved) };
  },
});

const ReturnLine = Type.Object(
  {
    LINE: Type.Integer({ minimum: 1, maximum: 10_000, description: 'The order line (LINE of the order).' }),
    QUANTITY: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Pieces to return.' }),
  },
  { additionalProperties: false },
);

export const B2C_GetReturnLocation = operation({
  name: 'B2C_GetReturnLocation',
  method: 'POST',
  audience: 'B2C',
  area: 'Orders',
  summary: 'Return location',
  description:
    'A return authorisation: the client names its order and the lines with the pieces it sends back (only ' +
    'delivered pieces that are neither returned nor authorised for return already: 409 RETURN_OVER_DELIVERED ' +
    'otherwise) and gets the authorisation’s own number (RETURNNO, to put on the parcel or show at the shop) ' +
    'and where and how to return them: LOCATION if given (an active shop or warehouse serving retail; 400 ' +
    'otherwise), else the shop the order was picked up at, else the order’s warehouse. HOWTO is BRING_TO_SHOP ' +
    'for a shop and SEND_TO_WAREHOUSE for a warehouse. Each call makes a new authorisation; the back office ' +
    'receives it (stock back at that location, RETURNED on the order lines). A token confined to a client ' +
    'returns only from its own orders.',
  body: Type.Object(
    {
      RETURNREQUEST: Type.Object(
        {
          CLIENT: Type.Optional(ClientNo),
          ORDERNO: OrderNo,
          LINES: Type.Array(ReturnLine, { minItems: 1, maxItems: 500 }),
          LOCATION: Type.Optional(
            Type.String({ minLength: 1, maxLength: 20, description: 'A location code.' }),
          ),
          REASON: Type.Optional(Type.String({ maxLength: 200, description: 'Why the goods come back.' })),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  response: rooted(
    'B2CGETRETURNLOCATION',
    Type.Object({
      RETURNNO: Type.Integer(),
      ORDERNO: Type.Integer(),
      WEBORDER: Type.String(),
      HOWTO: Type.Union([Type.Literal('BRING_TO_SHOP'), Type.Literal('SEND_TO_WAREHOUSE')]),
      LOCATION: Type.Object({
        LOCATION: Type.String(),
        NAME: Type.String(),
        KIND: Type.String(),
        ADDRESS: Type.Union([Type.String(), Type.Null()]),
        HOUSENUMBER: Type.Union([Type.String(), Type.Null()]),
        POSTALCODE: Type.Union([Type.String(), Type.Null()]),
        CITY: Type.Union([Type.String(), Type.Null()]),
        COUNTRY: Type.Union([Type.String(), Type.Null()]),
      }),
      LINES: Type.Array(
        Type.Object({
          LINE: Type.Integer(),
          BARCODE: Type.String(),
          ARTICLE: Type.String(),
          SIZEX: Type.String(),
          QUANTITY: Type.Integer(),
        }),
      ),
    }),
  ),
  async handler({ body, principal, services }) {
    const req = body.RETURNREQUEST;
    const clientNo = clientScope(principal, num(req.CLIENT), '/RETURNREQUEST/CLIENT');
    const r = await services.orders.moves.returns.authorise({
      orderNo: num(req.ORDERNO)!,
      party: { clientNo },
      lines: req.LINES.map((l) => ({ line: l.LINE, quantity: l.QUANTITY })),
      location: req.LOCATION,
      reason: req.REASON ?? '',
      pointer: '/RETURNREQUEST',
    });
    const l = r.location;
    return {
      B2CGETRETURNLOCATION: {
        RETURNNO: r.returnNo,
        ORDERNO: r.orderNo,
        WEBORDER: r.weborder,
        HOWTO: r.how,
        LOCATION: {
          LOCATION: l.code,
          NAME: l.name,
          KIND: l.kind,
          ADDRESS: l.address,
          HOUSENUMBER: l.houseNumber,
          POSTALCODE: l.postalCode,
          CITY: l.city,
          COUNTRY: l.country,
        },
        LINES: r.lines.map((x) => ({
          LINE: x.line,
          BARCODE: x.barcode,
          ARTICLE: x.articleNo,
          SIZEX: x.sizex,
          QUANTITY: x.quantity,
        })),
      },
    };
  },
});

export const B2B_GetDeliveryHistory = operation({
  name: 'B2B_GetDeliveryHistory',
  method: 'GET',
  audience: 'B2B',
  area: 'Orders',
  summary: 'Delivery history',
  description:
    'Deliveries of wholesale orders with their lines, by delivery number (each delivery has its own, in the ' +
    'order they were made): of one customer (strcustomer; 0 or absent: all) and of one order (strorderno; 0 or ' +
    'absent: all). A cancelled delivery (a correction: the goods did not leave) is listed with CANCELLED true ' +
    'and gave its pieces back to the order. Pages by position: stroffset is a delivery number (1: the start) and ' +
    `NEXTOFFSET the number of the first delivery not shown (null on the last page); ${DELIVERY_PAGE.defaultLimit} ` +
    `per page by default, at most ${DELIVERY_PAGE.maxLimit}. A token confined to a customer sees its own deliveries only.`,
  query: queryObject({
    strcustomer: Type.Optional(digits('Customer number; 0 (default) for all.', '0')),
    strorderno: Type.Optional(digits('Order number; 0 (default) for all.', '0')),
    stroffset: pageParams(DELIVERY_PAGE).stroffset,
    strlimit: pageParams(DELIVERY_PAGE).strlimit,
  }),
  response: rooted(
    'B2BGETDELIVERYHISTORY',
    Type.Object({
      SCN: ScnSchema,
      NEXTOFFSET: NextOffsetSchema,
      DELIVERIES: Type.Array(
        Type.Object({
          DELIVERYNO: Type.Integer(),
          ORDERNO: Type.Integer(),
          WEBORDER: Type.String(),
          CUSTOMER: Type.Integer(),
          LOCATION: Type.String(),
          REFERENCE: Type.Union([Type.String(), Type.Null()]),
          CANCELLED: Type.Boolean(),
          DELIVERED: Type.String({ description: 'When it was made (ISO 8601).' }),
          SCN: Type.Integer(),
          LINES: Type.Array(
            Type.Object({
              LINE: Type.Integer(),
              BARCODE: Type.String(),
              ARTICLE: Type.String(),
              SIZEX: Type.String(),
              QUANTITY: Type.Integer(),
            }),
          ),
        }),
      ),
    }),
  ),
  async handler({ query, principal, services }) {
    const customer = Number(query.strcustomer ?? '0');
    const orderNo = Number(query.strorderno ?? '0');
    const customerNo = customerScope(principal, customer === 0 ? undefined : customer);
    const page = toPage({ stroffset: query.stroffset, strlimit: query.strlimit }, DELIVERY_PAGE);
    const found = await services.orders.moves.deliveries.history(
      { customerNo, orderNo: orderNo === 0 ? undefined : orderNo },
      page,
    );
    return {
      B2BGETDELIVERYHISTORY: {
        SCN: found.scn,
        NEXTOFFSET: found.nextOffset,
        DELIVERIES: found.deliveries.map((d) => ({
          DELIVERYNO: Number(d.delivery_no),
          ORDERNO: Number(d.order_no),
          WEBORDER: d.weborder,
          CUSTOMER: Number(d.customer_no),
          LOCATION: d.location_code,
          REFERENCE: d.reference,
          CANCELLED: Number(d.cancelled) === 1,
          DELIVERED: d.created_at,
          SCN: Number(d.scn),
          LINES: d.lines.map((l) => ({
            LINE: l.line_no,
            BARCODE: l.barcode,
            ARTICLE: l.article_no,
            SIZEX: l.sizex,
            QUANTITY: l.quantity,
          })),
        })),
      },
    };
  },
});

/** Deliveries, closing and returns (docs/orders.md, "Deliveries", "Returns"). */
export const ORDER_AFTER_SALES_OPERATIONS = [
  B2C_CloseClientOrder,
  B2C_GetReturnLocation,
  B2B_GetDeliveryHistory,
];
