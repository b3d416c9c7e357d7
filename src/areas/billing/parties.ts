import type { SellerSettings } from '../../config.ts';
import type { DocumentBuyer, DocumentSeller } from './document.ts';
import { BILLING_ERRORS } from './errors.ts';
import { enterpriseNumberFromVat } from './rules/enterprise-number.ts';

/**
 * The parties of a document as they stand at issue (frozen into its snapshot): the seller from the
 * settings, the buyer from the customers area.
 */

/** The seller of the settings; a Belgian VAT number gives its enterprise number (scheme 0208). */
export function sellerOf(settings: SellerSettings): DocumentSeller {
  const enterprise = settings.countryCode === 'BE' ? enterpriseNumberFromVat(settings.vatNumber) : undefined;
  if (enterprise && !enterprise.ok)
    throw new Error(
      `TV2_SELLER_VAT "${settings.vatNumber}" ${enterprise.reason}: set a valid Belgian VAT number`,
    );
  return {
    name: settings.name,
    street: settings.street,
    postalCode: settings.postalCode,
    city: settings.city,
    countryCode: settings.countryCode,
    vatNumber: settings.vatNumber,
    ...(enterprise?.ok ? { enterpriseNumber: enterprise.value } : {}),
    ...(settings.email ? { email: settings.email } : {}),
    iban: settings.iban,
    ...(settings.bic ? { bic: settings.bic } : {}),
  };
}

/** What billing reads of a customer (B2B_GetCustomer's answer: services.customers.customers.getCustomer). */
export interface CustomerFacts {
  CUSTOMER: number;
  NAME: string;
  NAME2: string;
  VATNO: string;
  LANGUAGE: string;
  PAYMENTDAYS: number;
  'INVOICE ADDRESSES': ReadonlyArray<{
    ADDRESS: string;
    HOUSENUMBER: string;
    POSTBOX?: string;
    POSTALCODE: string;
    CITY: string;
    COUNTRYPOST: string;
  }>;
}

/** The buyer of a customer: its invoice address, VAT number and (Belgian) enterprise number. */
export function buyerOf(customer: CustomerFacts): DocumentBuyer {
  const address = customer['INVOICE ADDRESSES'][0];
  const missing = !address
    ? ['an invoice address']
    : (['ADDRESS', 'POSTALCODE', 'CITY', 'COUNTRYPOST'] as const).filter((f) => !address[f]?.trim());
  if (!address || missing.length > 0)
    throw BILLING_ERRORS.BUYER_INCOMPLETE(`Customer ${customer.CUSTOMER} has no ${missing.join(', ')}.`);
  const vatNumber = customer.VATNO.replace(/[\s.]/g, '').toUpperCase();
  const countryCode = address.COUNTRYPOST.trim().toUpperCase();
  const enterprise = vatNumber.startsWith('BE') ? enterpriseNumberFromVat(vatNumber) : undefined;
  const street = [address.ADDRESS, address.HOUSENUMBER, address.POSTBOX ? `bus ${address.POSTBOX}` : '']
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(' ');
  return {
    customerNo: customer.CUSTOMER,
    name: [customer.NAME, customer.NAME2].filter((s) => s?.trim()).join(' '),
    street,
    postalCode: address.POSTALCODE.trim(),
    city: address.CITY.trim(),
    countryCode,
    ...(vatNumber ? { vatNumber } : {}),
    ...(enterprise?.ok ? { enterpriseNumber: enterprise.value } : {}),
  };
}
