import type { Area } from '../../kernel/area.ts';
import { CUSTOMERS_ADMIN_ROUTES } from './admin.ts';
import { type CustomersServices, createCustomersServices } from './customer-services.ts';
import { seedCustomers } from './demo.ts';
import { CUSTOMERS_ERRORS } from './errors.ts';
import { CUSTOMER_IMPORT_KINDS } from './import-kinds.ts';
import * as m0007 from './migrations/0007_customers.ts';
import * as m0013 from './migrations/0013_customer_positions.ts';
import {
  B2B_GetAllCustomerArticleLink,
  B2B_GetAllCustomers,
  B2B_GetCustomer,
  B2B_GetCustomerArticleLink,
  B2B_GetRepresentativeCustomers,
  B2B_GetRepresentatives,
  B2B_PostCustomer,
  B2B_PostDeliveryAddress,
} from './operations.ts';
import './tables.ts';

declare module '../../kernel/services.ts' {
  interface Services {
    customers: CustomersServices;
  }
}

/** The customers area: wholesale customers, their addresses, representatives and customer article links (docs/customers.md). */
export const customersArea: Area = {
  name: 'customers',
  docs: 'docs/customers.md',
  errors: CUSTOMERS_ERRORS,
  operations: [
    B2B_GetAllCustomerArticleLink,
    B2B_GetAllCustomers,
    B2B_GetCustomerArticleLink,
    B2B_GetCustomer,
    B2B_GetRepresentativeCustomers,
    B2B_GetRepresentatives,
    B2B_PostCustomer,
    B2B_PostDeliveryAddress,
  ],
  adminRoutes: CUSTOMERS_ADMIN_ROUTES,
  importKinds: CUSTOMER_IMPORT_KINDS,
  migrations: { '0007_customers': m0007, '0013_customer_positions': m0013 },
  services: (_config, database) => ({ customers: createCustomersServices(database) }),
  seedDemo: (services) => seedCustomers(services, {}),
};
export {
  type CustomerTerms,
  type CustomerTermsInput,
  customerTermsFragment,
  liveCustomerTerms,
  liveTermsOf,
  saveCustomerTermsIn,
} from './customer-terms.ts';
export { FIRST_DEMO_CUSTOMER } from './demo.ts';
