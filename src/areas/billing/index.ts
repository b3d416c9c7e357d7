import type { Area } from '../../kernel/area.ts';
import { planned } from '../../kernel/operation.ts';

/**
 * The billing area: invoices, credit notes, their PDF and Peppol forms, open items. Not built yet:
 * its operations are listed so they answer 501 NOT_IMPLEMENTED (issue 12 builds them here).
 */
export const billingArea: Area = {
  name: 'billing',
  operations: [
    planned('GET', 'B2B_GetInvoicePDF', 'Invoices', 'Invoice as PDF'),
    planned('GET', 'B2B_GetInvoiceHistory', 'Invoices', 'Invoice history'),
    planned('GET', 'B2B_GetUnsettledItems', 'Invoices', 'Unsettled items'),
  ],
};
