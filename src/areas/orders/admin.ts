import type { AdminRoute } from '../../kernel/admin-route.ts';

/** The back office of orders: moves, deliveries and returns (docs/orders.md, "Back office"). */
export const ORDERS_ADMIN_ROUTES: AdminRoute[] = [];
