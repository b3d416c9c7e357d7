import { withRoot } from '../../kernel/errors.ts';
import { checkRecord, type ImportKind, writtenOf } from '../../kernel/import/import-kind.ts';
import type { RecordFormat } from '../../kernel/import/records.ts';
import {
  ArticleLinkBody,
  articleLinkInput,
  CustomerDetailsBody,
  customerDetailsInput,
  customerDetailsRecordFromCsv,
  flatRecordFromCsv,
  RepresentativeBody,
  representativeInput,
} from './customer-input.ts';

/**
 * `tv2 import` kinds of the customers area. Import representatives before the customers that name
 * them, and customers (and articles) before article links. A record is checked by the schema of its
 * admin body; the services name a field of record i of a batch `/i/FIELD`, and of a batch of one
 * record (how the runner saves a refused batch's records again) `/FIELD`, as the record check does.
 */

function fromCsv(
  record: unknown,
  format: RecordFormat,
  toRecord: (row: Record<string, string>) => unknown,
): unknown {
  return format === 'csv' ? toRecord(record as Record<string, string>) : record;
}

export const representatives: ImportKind<ReturnType<typeof representativeInput>> = {
  name: 'representatives',
  description: 'sales representatives: REPRESENTATIVE (code), NAME, EMAIL, PHONE, ACTIVE',
  parse: (record, format) =>
    representativeInput(
      checkRecord<RepresentativeBody>(RepresentativeBody, fromCsv(record, format, flatRecordFromCsv)),
    ),
  save: async (services, inputs) =>
    writtenOf(
      await withRoot('', () => services.customers.representatives.saveRepresentatives(inputs), {
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
    writtenOf(
      await withRoot('', () => services.customers.articleLinks.saveArticleLinks(inputs), {
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
    writtenOf(
      await withRoot('', () => services.customers.customers.saveCustomersDetails(inputs), {
        single: inputs.length === 1,
      }),
      inputs.length,
    ),
};

/** The `tv2 import` kinds of the customers area: representatives before the customers that name them. */
export const CUSTOMER_IMPORT_KINDS = [representatives, customerarticlelinks, customerdetails];
