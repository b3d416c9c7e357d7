import { defineErrors } from '../../kernel/errors.ts';

/** The billing area's codes (docs/api-conventions.md lists them all; docs/billing-issuing.md explains them). */
export const BILLING_ERRORS = defineErrors('billing', {
  NOTHING_TO_INVOICE: {
    status: 409,
    meaning:
      'The customer has no delivered piece that is neither returned nor invoiced (in the deliveries named, if any): no invoice is issued and no number is used.',
  },
  BILLING_DOCUMENT_NOT_FOUND: { status: 404, meaning: 'No invoice or credit note with that number.' },
  INVOICE_LINE_NOT_FOUND: { status: 404, meaning: 'The invoice has no line with that number.' },
  CREDIT_EXCEEDS_INVOICED: {
    status: 409,
    meaning:
      'A credit note would give back more pieces of an invoice line than were invoiced less what earlier credit notes gave back (or nothing is left to credit).',
  },
  BUYER_INCOMPLETE: {
    status: 409,
    meaning:
      'The customer lacks what an invoice must name (an invoice address with street, postal code, city and country): complete the customer first.',
  },
  UBL_REFUSED: {
    status: 409,
    meaning:
      'The issued document cannot be written as Peppol BIS Billing 3.0 UBL (the detail names every problem, e.g. a buyer without a Peppol address); its PDF is still available.',
  },
  MIXED_CURRENCIES: {
    status: 409,
    meaning:
      'The deliveries to invoice are in more than one currency: invoice them by delivery, one currency each.',
  },
  PAYMENT_CONFLICT: {
    status: 409,
    meaning:
      'A payment with this external id is registered already with another date, amount, currency or reference: the same payment again is answered as registered, a different one under the same id is refused.',
  },
});
