import { fromMinor } from '../../kernel/money.ts';
import type { AddressRow, ArticleLinkRow, CustomerRow, RepresentativeRow } from './customer-repository.ts';

/**
 * The wire forms of the customers area (docs/customers.md). Addresses have exactly the documented
 * fields of B2B_GetOrder's "DELIVERY ADDRESSES" / "INVOICE ADDRESSES" (all strings), so a client
 * handles the addresses of a customer and of an order with the same code.
 */
export interface AddressWire {
  ADDRESS: string;
  CITY: string;
  COUNTRYPOST: string;
  EXTRAADDRESSNO: string;
  HOUSENUMBER: string;
  MAPAREA: string;
  POSTALCODE: string;
  POSTBOX: string;
}

export interface InvoiceAddressWire extends AddressWire {
  VATNO: string;
}

export interface CustomerWire {
  CUSTOMER: number;
  EXTERNALKEY: string | null;
  NAME: string;
  NAME2: string;
  VATNO: string;
  LANGUAGE: string;
  CURRENCY: string;
  PRICEGROUP: number;
  CUSTOMERGROUP: string | null;
  DISCOUNTPERC: number;
  PAYMENTDAYS: number;
  CREDITLIMIT: number;
  REPRESENTATIVE: string | null;
  ACTIVE: boolean;
  'INVOICE ADDRESSES': InvoiceAddressWire[];
  'DELIVERY ADDRESSES': AddressWire[];
  SCN: number;
}

export interface RepresentativeWire {
  REPRESENTATIVE: string;
  NAME: string;
  EMAIL: string;
  PHONE: string;
  ACTIVE: boolean;
  SCN: number;
}

export interface ArticleLinkWire {
  CUSTOMER: number;
  ARTICLE: string;
  CUSTOMERARTICLE: string;
  CUSTOMERDESCRIPTION: string;
  CUSTOMERBARCODE: string | null;
  SCN: number;
}

export interface ArticleLinkKeyWire {
  CUSTOMER: number;
  ARTICLE: string;
}

export function addressToWire(a: AddressRow): AddressWire {
  return {
    ADDRESS: a.address,
    CITY: a.city,
    COUNTRYPOST: a.country,
    EXTRAADDRESSNO: String(a.address_no),
    HOUSENUMBER: a.house_number,
    MAPAREA: a.map_area,
    POSTALCODE: a.postal_code,
    POSTBOX: a.post_box,
  };
}

/** A customer with its live addresses (`addresses` may hold other customers' rows too). */
export function customerToWire(c: CustomerRow, addresses: readonly AddressRow[]): CustomerWire {
  const own = addresses.filter((a) => a.customer_no === c.customer_no && a.deleted === 0);
  const invoice = own.find((a) => a.address_no === 0);
  return {
    CUSTOMER: c.customer_no,
    EXTERNALKEY: c.external_key,
    NAME: c.name,
    NAME2: c.name2,
    VATNO: c.vat_no,
    LANGUAGE: c.language,
    CURRENCY: c.currency,
    PRICEGROUP: c.price_group,
    CUSTOMERGROUP: c.customer_group,
    DISCOUNTPERC: c.discount_bp / 100,
    PAYMENTDAYS: c.payment_days,
    CREDITLIMIT: fromMinor(c.credit_limit_minor),
    REPRESENTATIVE: c.representative_code,
    ACTIVE: c.active === 1,
    'INVOICE ADDRESSES': invoice ? [{ ...addressToWire(invoice), VATNO: c.vat_no }] : [],
    'DELIVERY ADDRESSES': own
      .filter((a) => a.address_no > 0)
      .sort((a, b) => a.address_no - b.address_no)
      .map(addressToWire),
    SCN: c.scn,
  };
}

export function representativeToWire(r: RepresentativeRow): RepresentativeWire {
  return {
    REPRESENTATIVE: r.code,
    NAME: r.name,
    EMAIL: r.email,
    PHONE: r.phone,
    ACTIVE: r.active === 1,
    SCN: r.scn,
  };
}

export function articleLinkToWire(l: ArticleLinkRow): ArticleLinkWire {
  return {
    CUSTOMER: l.customer_no,
    ARTICLE: l.article_no,
    CUSTOMERARTICLE: l.customer_article_no,
    CUSTOMERDESCRIPTION: l.customer_description,
    CUSTOMERBARCODE: l.customer_barcode,
    SCN: l.scn,
  };
}

export function articleLinkKeyToWire(
  l: Pick<ArticleLinkRow, 'customer_no' | 'article_no'>,
): ArticleLinkKeyWire {
  return { CUSTOMER: l.customer_no, ARTICLE: l.article_no };
}
