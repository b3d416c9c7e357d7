import { checkRecord } from '../domain/catalog/catalog-input.ts';
import {
  ArticleLinkBody,
  articleLinkInput,
  CustomerDetailsBody,
  customerDetailsInput,
  customerDetailsRecordFromCsv,
  flatRecordFromCsv,
  RepresentativeBody,
  representativeInput,
  withCustomerWireNames,
} from '../domain/customers/customer-input.ts';
import type { ImportKind } from './kinds.ts';
import type { RecordFormat } from './records.ts';

/**
 * `tv2 import` kinds of the customers area. Import representatives before the customers that name
 * them, and customers (and articles) before article links.
 */

function fromCsv(
  record: unknown,
  format: RecordFormat,
  toRecord: (row: Record<string, string>) => unknown,
): unknown {
  return format === 'csv' ? toRecord(record as Record<string, string>) : record;
}

const written = (r: { changed: number }, total: number) => ({
  written: r.changed,
  unchanged: total - r.changed,
});

export const representatives: ImportKind<ReturnType<typeof representativeInput>> = {
  name: 'representatives',
  description: 'sales representatives: REPRESENTATIVE (code), NAME, EMAIL, PHONE, ACTIVE',
  parse: (record, format) =>
    representativeInput(
      checkRecord<RepresentativeBody>(RepresentativeBody, fromCsv(record, format, flatRecordFromCsv)),
    ),
  save: async (services, inputs) =>
    written(
      await withCustomerWireNames(() => services.representatives.saveRepresentatives(inputs), {
        single: inputs.length === 1,
      }),
      inputs.length,
    ),
};

export const customerarticlelinks: ImportKind<ReturnType<typeof articleLinkInput>> = {
  name: 'customerarticlelinks',
  description:
    "customers' own article numbers for our articles: CUSTOMER, ARTICLE, CUSTOMERARTICLE, CUSTOMERDESCRIPTION, CUSTOMERBARCODE",
  parse: (record, format) =>
    articleLinkInput(
      checkRecord<ArticleLinkBody>(ArticleLinkBody, fromCsv(record, format, flatRecordFromCsv)),
    ),
  save: async (services, inputs) =>
    written(
      await withCustomerWireNames(() => services.articleLinks.saveArticleLinks(inputs), {
        single: inputs.length === 1,
      }),
      inputs.length,
    ),
};

export const customerdetails: ImportKind<ReturnType<typeof customerDetailsInput>> = {
  name: 'customerdetails',
  description:
    'whole wholesale customers with addresses, in the form of B2B_GetCustomer: CUSTOMER, NAME, NAME2, VATNO, LANGUAGE, CURRENCY, PRICEGROUP, CUSTOMERGROUP, DISCOUNTPERC, PAYMENTDAYS, CREDITLIMIT, REPRESENTATIVE, ACTIVE, EXTERNALKEY; CSV: the invoice address as INVOICE_ADDRESS, INVOICE_HOUSENUMBER, INVOICE_POSTALCODE, INVOICE_CITY, INVOICE_COUNTRYPOST, ...; delivery address n as DELIVERY<n>_ADDRESS, ... (fields left out take their defaults; delivery addresses not given are deleted)',
  parse: (record, format) =>
    customerDetailsInput(
      checkRecord<CustomerDetailsBody>(
        CustomerDetailsBody,
        fromCsv(record, format, customerDetailsRecordFromCsv),
      ),
    ),
  save: async (services, inputs) =>
    written(
      await withCustomerWireNames(() => services.customers.saveCustomersDetails(inputs), {
        single: inputs.length === 1,
      }),
      inputs.length,
    ),
};

/** The kinds of this file by name, for registering beside IMPORT_KINDS. */
// biome-ignore lint/suspicious/noExplicitAny: kinds differ in their input type; each is typed above
export const CUSTOMER_IMPORT_KINDS: Record<string, ImportKind<any>> = {
  [representatives.name]: representatives,
  [customerarticlelinks.name]: customerarticlelinks,
  [customerdetails.name]: customerdetails,
};
