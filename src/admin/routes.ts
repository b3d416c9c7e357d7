import type { AdminRoute } from './admin-route.ts';
import { CATALOG_ADMIN_ROUTES } from './catalog-admin.ts';
import { CLIENTS_ADMIN_ROUTES } from './clients-admin.ts';
import { CUSTOMERS_ADMIN_ROUTES } from './customers-admin.ts';
import { PRICING_ADMIN_ROUTES } from './pricing-admin.ts';
import { SHOPS_ADMIN_ROUTES } from './shops-admin.ts';
import { STOCK_ADMIN_ROUTES } from './stock-admin.ts';

/** Every route of the back-office area, one table per area. */
export const ADMIN_ROUTES: AdminRoute[] = [
  ...CATALOG_ADMIN_ROUTES,
  ...STOCK_ADMIN_ROUTES,
  ...PRICING_ADMIN_ROUTES,
  ...SHOPS_ADMIN_ROUTES,
  ...CLIENTS_ADMIN_ROUTES,
  ...CUSTOMERS_ADMIN_ROUTES,
];
