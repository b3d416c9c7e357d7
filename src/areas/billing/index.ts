import type { Area } from '../../kernel/area.ts';
import { BILLING_ADMIN_ROUTES } from './admin.ts';
import { type BillingServices, createBillingServices } from './billing-services.ts';
import { BILLING_ERRORS } from './errors.ts';
import { BILLING_IMPORT_KINDS } from './import-kinds.ts';
import * as m0031 from './migrations/0031_billing.ts';
import * as m0036 from './migrations/0036_billing_payments.ts';
import * as m0038 from './migrations/0038_billing_credit_run.ts';
import { BILLING_OPERATIONS } from './operations.ts';
import './tables.ts';

declare module '../../kernel/services.ts' {
  interface Services {
    billing: BillingServices;
  }
}

/**
 * The billing area: invoices issued from deliveries and credit notes, gapless per series, frozen
 * with a content hash, their PDF and Peppol forms (docs/billing.md, docs/billing-issuing.md); payments
 * allocated to them, and a customer's account over TV2 (history feed, open items, PDF).
 */
export const billingArea: Area = {
  name: 'billing',
  docs: 'docs/billing-issuing.md',
  errors: BILLING_ERRORS,
  operations: BILLING_OPERATIONS,
  importKinds: BILLING_IMPORT_KINDS,
  adminRoutes: BILLING_ADMIN_ROUTES,
  migrations: {
    '0031_billing': m0031,
    '0036_billing_payments': m0036,
    '0038_billing_credit_run': m0038,
  },
  services: (config, database, all) => ({ billing: createBillingServices(config, database, all) }),
};
