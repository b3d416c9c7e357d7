import { billingArea } from './areas/billing/index.ts';
import { catalogArea } from './areas/catalog/index.ts';
import { clientsArea } from './areas/clients/index.ts';
import { customersArea } from './areas/customers/index.ts';
import { generalArea } from './areas/general/index.ts';
import { ordersArea } from './areas/orders/index.ts';
import { pricingArea } from './areas/pricing/index.ts';
import { shopsArea } from './areas/shops/index.ts';
import { stockArea } from './areas/stock/index.ts';
import { tendersArea } from './areas/tenders/index.ts';
import { type Area, adminRoutesOf, importKindsOf, migrationsOf, operationsOf } from './kernel/area.ts';

/**
 * Every business area, in the order the reference documentation lists them and the demo data is
 * loaded (an area's demo data may use the areas before it). Everything else is derived from this
 * list: the operations served, the back-office routes, the services, the migrations and the kinds
 * of `tv2 import`. A new area is a folder under src/areas/ and one line here.
 */
export const AREAS: readonly Area[] = [
  catalogArea,
  stockArea,
  shopsArea,
  pricingArea,
  customersArea,
  clientsArea,
  ordersArea,
  billingArea,
  tendersArea,
  generalArea,
];

/** The migrations of the kernel and every area, in the order they run. */
export const MIGRATIONS = migrationsOf(AREAS);

/** The kinds of `tv2 import`, by name. */
export const IMPORT_KINDS = importKindsOf(AREAS);

/** Every TV2 operation (GetToken, the 75th, is the general area's own route). */
export const OPERATIONS = operationsOf(AREAS);

/** Every back-office route. */
export const ADMIN_ROUTES = adminRoutesOf(AREAS);
