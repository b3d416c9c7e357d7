import { planned } from '../../kernel/operation.ts';

/** The order reads and the order state feeds (built by issue 11's read part). */
export const ORDER_READ_OPERATIONS = [
  planned('GET', 'B2C_GetOrderStateChanges', 'Orders', 'Order state changes'),
  planned('GET', 'B2C_GetOrderState', 'Orders', 'State of one order'),
  planned('GET', 'B2B_GetOrderHistory', 'Orders', 'Order history'),
  planned('GET', 'B2B_GetOrderStateChanges', 'Orders', 'Order state changes'),
  planned('GET', 'B2B_GetOrderState', 'Orders', 'State of one order'),
  planned('GET', 'B2B_GetOrder', 'Orders', 'One order'),
];
