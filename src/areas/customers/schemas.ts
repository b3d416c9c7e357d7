import { Type } from 'typebox';
import { LANGUAGE_SLOTS } from '../../kernel/language.ts';

/**
 * Answers of the customers area. The address objects are exactly those of B2B_GetOrder's
 * "DELIVERY ADDRESSES" and "INVOICE ADDRESSES" (every field a string), so orders can reuse them.
 */
const addressFields = {
  ADDRESS: Type.String({ description: 'Street.' }),
  CITY: Type.String(),
  COUNTRYPOST: Type.String({ description: 'ISO 3166-1 alpha-2 country code.' }),
  EXTRAADDRESSNO: Type.String({
    description:
      'The address number: "0" the invoice address, "1", "2", ... delivery addresses (DELEXTRAADDRESSNO / FACEXTRAADDRESSNO of B2B_PostOrdCus).',
  }),
  HOUSENUMBER: Type.String(),
  MAPAREA: Type.String({ description: 'Region or delivery area.' }),
  POSTALCODE: Type.String(),
  POSTBOX: Type.String(),
};

export const AddressSchema = Type.Object(addressFields, { title: 'Address', additionalProperties: false });
export const InvoiceAddressSchema = Type.Object(
  { ...addressFields, VATNO: Type.String({ description: "The customer's VAT number ('' for none)." }) },
  { title: 'InvoiceAddress', additionalProperties: false },
);

export const CustomerNoSchema = Type.Integer({ minimum: 1, description: 'Customer number.' });

export const CustomerSchema = Type.Object(
  {
    CUSTOMER: CustomerNoSchema,
    EXTERNALKEY: Type.Union([Type.String(), Type.Null()], {
      description: "A client's own unique key for the customer, null for none.",
    }),
    NAME: Type.String(),
    NAME2: Type.String({ description: 'Name 2 / trade name.' }),
    VATNO: Type.String({ description: "VAT number with country prefix, normalised ('' for none)." }),
    LANGUAGE: Type.Union(
      LANGUAGE_SLOTS.map((s) => Type.Literal(s)),
      { description: 'The language slot the customer reads.' },
    ),
    CURRENCY: Type.String({ description: 'ISO 4217.' }),
    PRICEGROUP: Type.Integer(),
    CUSTOMERGROUP: Type.Union([Type.String(), Type.Null()]),
    DISCOUNTPERC: Type.Number({ description: 'Customer discount, percent.' }),
    PAYMENTDAYS: Type.Integer({ description: 'Payment terms in days.' }),
    CREDITLIMIT: Type.Number({ description: 'Credit limit in CURRENCY (two decimals).' }),
    REPRESENTATIVE: Type.Union([Type.String(), Type.Null()], { description: 'Representative code.' }),
    ACTIVE: Type.Boolean(),
    'INVOICE ADDRESSES': Type.Array(InvoiceAddressSchema, { maxItems: 1 }),
    'DELIVERY ADDRESSES': Type.Array(AddressSchema),
    SCN: Type.Integer({ description: 'SCN of the last change of the customer or one of its addresses.' }),
  },
  { title: 'Customer', additionalProperties: false },
);

export const RepresentativeSchema = Type.Object(
  {
    REPRESENTATIVE: Type.String({ description: 'Code.' }),
    NAME: Type.String(),
    EMAIL: Type.String(),
    PHONE: Type.String({ description: 'E.164, or empty.' }),
    ACTIVE: Type.Boolean(),
    SCN: Type.Integer(),
  },
  { title: 'Representative', additionalProperties: false },
);

export const ArticleLinkSchema = Type.Object(
  {
    CUSTOMER: CustomerNoSchema,
    ARTICLE: Type.String({ description: 'Our article number.' }),
    CUSTOMERARTICLE: Type.String({ description: "The customer's own article number." }),
    CUSTOMERDESCRIPTION: Type.String({ description: "The customer's description." }),
    CUSTOMERBARCODE: Type.Union([Type.String(), Type.Null()], { description: "The customer's own barcode." }),
    SCN: Type.Integer(),
  },
  { title: 'CustomerArticleLink', additionalProperties: false },
);

export const ArticleLinkKeySchema = Type.Object(
  { CUSTOMER: CustomerNoSchema, ARTICLE: Type.String() },
  { title: 'CustomerArticleLinkKey', additionalProperties: false },
);
