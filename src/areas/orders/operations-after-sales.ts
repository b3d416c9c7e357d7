import { planned } from '../../kernel/operation.ts';

/** Deliveries, closing and returns (built by issue 11's after-sales part). */
export const ORDER_AFTER_SALES_OPERATIONS = [
  planned('POST', 'B2C_CloseClientOrder', 'Orders', 'Close a client order'),
  planned('POST', 'B2C_GetReturnLocation', 'Orders', 'Return location'),
  planned('GET', 'B2B_GetDeliveryHistory', 'Orders', 'Delivery history'),
];
