import { clientScope, customerScope } from '../../kernel/access.ts';
import { ValidationError } from '../../kernel/errors.ts';
import { operation } from '../../kernel/operation.ts';
import { rooted } from '../../kernel/schemas.ts';
import { placementFromOrdCus, placementFromWebOrder } from './placement-rules.ts';
import { PlacedOrderSchema, PostOrdCusBody, PostWebOrderBody } from './placement-schemas.ts';

const partyNo = (v: string | number | undefined) =>
  v === undefined ? undefined : typeof v === 'number' ? v : Number(v.trim());

export const B2B_PostOrdCus = operation({
  name: 'B2B_PostOrdCus',
  method: 'POST',
  audience: 'B2B',
  area: 'Orders',
  summary: 'Post an order for a customer',
  description:
    'Places a wholesale order: lines by BARCODE (a size of an article) and QUANTITY, priced by the server ' +
    '(the customer’s agreements, line discounts, discount and price group; each line answers the rule). ' +
    'PRICE, NETPRICE, DISCOUNT, CUSTOMERDISCOUNTPERC and COSTFREIGHT are optional; when sent they must equal ' +
    'the server’s, otherwise 409 ORDER_PRICE_DIFFERS names each field with the server’s value. Stock is ' +
    'reserved at the order location in the same transaction; what is not available stays open as a ' +
    'back-order (BACKORDER; TV2_ORDER_BACKORDERS=0 makes it all or nothing: 409 INSUFFICIENT_STOCK). ' +
    'DELEXTRAADDRESSNO and FACEXTRAADDRESSNO must name addresses of the customer (400 naming the field). ' +
    'The same WEBORDER posted again for the customer answers that order with CREATED false and does ' +
    'nothing again (also when posted concurrently); with other content it is 409 WEBORDER_CONFLICT. ' +
    'A token confined to a customer orders only for it.',
  body: PostOrdCusBody,
  response: rooted('B2BPOSTORDCUS', PlacedOrderSchema),
  async handler({ body, principal, services }) {
    const field = '/ORDERREQUEST/ORDERHEADER/CUSTOMER';
    const customerNo = customerScope(principal, partyNo(body.ORDERREQUEST.ORDERHEADER.CUSTOMER), field);
    if (customerNo === undefined)
      throw new ValidationError([{ name: field, message: 'give the customer number' }]);
    const placed = await services.orders.placement.placeOrder(
      placementFromOrdCus(body, customerNo),
      'CUSTOMER',
    );
    return { B2BPOSTORDCUS: placed };
  },
});

export const B2C_PostWebOrder = operation({
  name: 'B2C_PostWebOrder',
  method: 'POST',
  audience: 'B2C',
  area: 'Orders',
  summary: 'Post a web order',
  description:
    'Places a retail client’s web order: lines by BARCODE and QUANTITY at the server’s retail price (a ' +
    'running action price, else the list price; VAT included), delivered to DELIVERYADDRESS (default the ' +
    'client’s address) or picked up at PICKUPLOCATION (DELIVERY PICKUP; a LOCATION of B2C_GetPickUpLocations). ' +
    'A PRICE sent per line must equal the server’s (409 ORDER_PRICE_DIFFERS otherwise). All or nothing: ' +
    'every line is reserved in full at the order location in the same transaction, or nothing is placed ' +
    '(409 INSUFFICIENT_STOCK). TENDERS pay part or all of GROSS with vouchers, client cheques or bonus value, ' +
    'debited in the same transaction (a refused tender places nothing: 409 VOUCHER_NOT_USABLE, ' +
    'VOUCHER_BALANCE_INSUFFICIENT or BONUS_VALUE_REFUSED); TOPAY is the rest, paid outside tv2 ' +
    '(PAYMENTREFERENCE keeps the payment provider’s reference). Cancelled pieces give the tenders back what ' +
    'they paid; BONUSCARD earns when delivered (docs/orders.md, "Paying with tenders"). The same WEBORDER ' +
    'posted again for the client answers that order with CREATED false (also concurrently); with other ' +
    'content it is 409 WEBORDER_CONFLICT. A token confined to a client orders only for it.',
  body: PostWebOrderBody,
  response: rooted('B2CPOSTWEBORDER', PlacedOrderSchema),
  async handler({ body, principal, services }) {
    const clientNo = clientScope(principal, partyNo(body.WEBORDERDATA.CLIENT), '/WEBORDERDATA/CLIENT');
    const placed = await services.orders.placement.placeOrder(
      placementFromWebOrder(body, clientNo),
      'CLIENT',
      `user:${principal?.userId ?? 0}`,
    );
    return { B2CPOSTWEBORDER: placed };
  },
});
