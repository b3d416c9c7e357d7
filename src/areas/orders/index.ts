import type { Area } from '../../kernel/area.ts';
import { planned } from '../../kernel/operation.ts';

/**
 * The orders area: wholesale and web orders, their states, deliveries and returns. Not built yet:
 * its operations are listed so they answer 501 NOT_IMPLEMENTED (issue 11 builds them here).
 */
export const ordersArea: Area = {
  name: 'orders',
  operations: [
    planned('POST', 'B2C_CloseClientOrder', 'Orders', 'Close a client order'),
    planned('GET', 'B2C_GetOrderStateChanges', 'Orders', 'Order state changes'),
    planned('GET', 'B2C_GetOrderState', 'Orders', 'State of one order'),
    planned('POST', 'B2C_GetReturnLocation', 'Orders', 'Return location'),
    planned('POST', 'B2C_PostWebOrder', 'Orders', 'Post a web order'),
    planned('GET', 'B2B_GetDeliveryHistory', 'Orders', 'Delivery history'),
    planned('GET', 'B2B_GetOrderHistory', 'Orders', 'Order history'),
    planned('GET', 'B2B_GetOrderStateChanges', 'Orders', 'Order state changes'),
    planned('GET', 'B2B_GetOrderState', 'Orders', 'State of one order'),
    planned('GET', 'B2B_GetOrder', 'Orders', 'One order'),
    planned('POST', 'B2B_PostOrdCus', 'Orders', 'Post an order for a customer'),
  ],
};
