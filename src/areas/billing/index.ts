import type { Area } from '../../kernel/area.ts';
import { planned } from '../../kernel/operation.ts';
import { BILLING_ADMIN_ROUTES } from './admin.ts';
import { type BillingServices, createBillingServices } from './billing-services.ts';
import { BILLING_ERRORS } from './errors.ts';
import * as m0031 from './migrations/0031_billing.ts';
import './tables.ts';

declare module '../../kernel/services.ts' {
  interface Services {
    billing: BillingServices;
  }
}

/**
 * The billing area: invoices issued from deliveries and credit notes, gapless per series, frozen
 * with a content hash, their PDF and Peppol forms (docs/billing.md, docs/billing-issuing.md). Its
 * three TV2 operations are not built yet: they answer 501 NOT_IMPLEMENTED.
 */
export const billingArea: Area = {
  name: 'billing',
  docs: 'docs/billing-issuing.md',
  errors: BILLING_ERRORS,
  operations: [
    planned('GET', 'B2B_GetInvoicePDF', 'Invoices', 'Invoice as PDF'),
    planned('GET', 'B2B_GetInvoiceHistory', 'Invoices', 'Invoice history'),
    planned('GET', 'B2B_GetUnsettledItems', 'Invoices', 'Unsettled items'),
  ],
  adminRoutes: BILLING_ADMIN_ROUTES,
  migrations: { '0031_billing': m0031 },
  services: (config, database, all) => ({ billing: createBillingServices(config, database, all) }),
};
