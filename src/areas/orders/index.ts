import type { Area } from '../../kernel/area.ts';
import { ORDERS_ADMIN_ROUTES } from './admin.ts';
import { AFTER_SALES_ERRORS } from './after-sales-errors.ts';
import { seedOrders } from './demo.ts';
import { ORDERS_ERRORS } from './errors.ts';
import { ORDERS_IMPORT_KINDS } from './import-kinds.ts';
import * as m0018 from './migrations/0018_orders.ts';
import * as m0020 from './migrations/0020_delivery_party.ts';
import * as m0037 from './migrations/0037_order_tenders.ts';
import * as m0043 from './migrations/0043_order_party_indexes.ts';
import { ORDER_AFTER_SALES_OPERATIONS } from './operations-after-sales.ts';
import { B2B_PostOrdCus, B2C_PostWebOrder } from './operations-placement.ts';
import { ORDER_READ_OPERATIONS } from './operations-read.ts';
import { createOrdersServices, type OrdersServices } from './order-services.ts';
import { ORDER_RULE_ERRORS } from './rules/refusals.ts';
import './tables.ts';

declare module '../../kernel/services.ts' {
  interface Services {
    orders: OrdersServices;
  }
}

/**
 * The orders area: wholesale and web orders with their reservations, a table-driven lifecycle,
 * deliveries and returns (docs/orders.md).
 */
export const ordersArea: Area = {
  name: 'orders',
  docs: 'docs/orders.md',
  errors: { ...ORDER_RULE_ERRORS, ...ORDERS_ERRORS, ...AFTER_SALES_ERRORS },
  operations: [B2B_PostOrdCus, B2C_PostWebOrder, ...ORDER_READ_OPERATIONS, ...ORDER_AFTER_SALES_OPERATIONS],
  adminRoutes: ORDERS_ADMIN_ROUTES,
  importKinds: ORDERS_IMPORT_KINDS,
  migrations: {
    '0018_orders': m0018,
    '0020_delivery_party': m0020,
    '0037_order_tenders': m0037,
    '0043_order_party_indexes': m0043,
  },
  services: (config, database, all) => ({ orders: createOrdersServices(config, database, all) }),
  seedDemo: (services) => seedOrders(services),
};
