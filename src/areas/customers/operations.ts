import { Type } from 'typebox';
import type { Principal } from '../../kernel/access/principal.ts';
import {
  assertOwnCustomerKey,
  assertOwnRepresentative,
  confinedCustomer,
  customerScope,
} from '../../kernel/access.ts';
import { ValidationError, withRoot } from '../../kernel/errors.ts';
import { FeedSchema, feedAnswer } from '../../kernel/feed-page.ts';
import { operation } from '../../kernel/operation.ts';
import { digits, type PageLimits, pageParams, queryObject, text, toPage } from '../../kernel/params.ts';
import { rooted } from '../../kernel/schemas.ts';
import {
  CustomerDataBody,
  customerPatch,
  DeliveryAddressDataBody,
  deliveryAddressInput,
} from './customer-input.ts';
import {
  AddressSchema,
  ArticleLinkKeySchema,
  ArticleLinkSchema,
  CustomerNoSchema,
  CustomerSchema,
  RepresentativeSchema,
} from './schemas.ts';

const CUSTOMER_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
const REPRESENTATIVE_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
const LINK_PAGE: PageLimits = { defaultLimit: 500, maxLimit: 5000 };

const SYNC_NOTE =
  'Pages by stable position: a page is the records from position stroffset (1: the start), at most ' +
  'strlimit, and NEXTOFFSET is the position of the next page (not stroffset + strlimit; null on the last ' +
  'page); a full list skips deleted records, so its pages are full. With strscn > 0 only what changed after ' +
  'that SCN comes back, and DELETED lists what was deleted since. Keep the SCN of the first page of a ' +
  'pass and pass it as strscn next time.';
const SCOPE_NOTE =
  'A token confined to one customer sees only that customer: naming another is 403 OUTSIDE_SCOPE.';

function requiredCustomer(principal: Principal | null, requested: number | undefined, field: string): number {
  const customerNo = customerScope(principal, requested, field);
  if (customerNo === undefined)
    throw new ValidationError([{ name: field, message: 'give the customer number' }]);
  return customerNo;
}

const optionalNumber = (v: string | number | undefined) => (v === undefined ? undefined : Number(v));

export const B2B_GetAllCustomers = operation({
  name: 'B2B_GetAllCustomers',
  method: 'GET',
  audience: 'B2B',
  area: 'Customers',
  summary: 'All customers',
  description:
    'Wholesale customers in position order (creation order), each with its invoice address and numbered delivery ' +
    "addresses. A customer's SCN moves whenever the customer or one of its addresses changes; in a feed a " +
    `changed customer comes back whole. ${CUSTOMER_PAGE.defaultLimit} per page by default, at most ` +
    `${CUSTOMER_PAGE.maxLimit}. ${SYNC_NOTE} ${SCOPE_NOTE} (it gets a list of its own customer only).`,
  query: queryObject(pageParams(CUSTOMER_PAGE)),
  response: rooted(
    'B2BGETALLCUSTOMERS',
    FeedSchema('CUSTOMERS', CustomerSchema, Type.Integer(), {
      deleted: { description: 'Customers deleted since strscn.' },
    }),
  ),
  async handler({ query, principal, services }) {
    const page = await services.customers.customers.listCustomers(toPage(query, CUSTOMER_PAGE), {
      customerNo: customerScope(principal, undefined),
    });
    return feedAnswer('B2BGETALLCUSTOMERS', 'CUSTOMERS', page);
  },
});

export const B2B_GetCustomer = operation({
  name: 'B2B_GetCustomer',
  method: 'GET',
  audience: 'B2B',
  area: 'Customers',
  summary: 'One customer',
  description:
    'One customer by number (strcustomer) or by its external key (strexternalkey), as a one-element ' +
    'CUSTOMERS list, with its invoice address and delivery addresses. 404 CUSTOMER_NOT_FOUND for an unknown ' +
    `or deleted customer. ${SCOPE_NOTE} It may leave strcustomer out.`,
  query: queryObject({
    strcustomer: Type.Optional(digits('Customer number (optional for a token confined to one customer).')),
    strexternalkey: Type.Optional(
      text('External key of the customer, instead of strcustomer: give either one, not both.'),
    ),
  }),
  response: rooted(
    'B2BGETCUSTOMER',
    Type.Object({ CUSTOMERS: Type.Array(CustomerSchema, { minItems: 1, maxItems: 1 }) }),
  ),
  async handler({ query, principal, services }) {
    if (query.strcustomer !== undefined && query.strexternalkey !== undefined) {
      throw new ValidationError([
        { name: 'strexternalkey', message: 'give either strcustomer or strexternalkey' },
      ]);
    }
    let customerNo: number;
    if (query.strexternalkey !== undefined) {
      const own = confinedCustomer(principal);
      if (own !== null) {
        // Confined: only its own key; nothing is looked up for any other.
        const mine = await services.customers.customers.getCustomer(own);
        assertOwnCustomerKey(own, mine.EXTERNALKEY === query.strexternalkey);
        return { B2BGETCUSTOMER: { CUSTOMERS: [mine] } };
      }
      customerNo = await services.customers.customers.customerNoByExternalKey(query.strexternalkey);
    } else {
      customerNo = requiredCustomer(principal, optionalNumber(query.strcustomer), 'strcustomer');
    }
    return { B2BGETCUSTOMER: { CUSTOMERS: [await services.customers.customers.getCustomer(customerNo)] } };
  },
});

export const B2B_PostCustomer = operation({
  name: 'B2B_PostCustomer',
  method: 'POST',
  audience: 'B2B',
  area: 'Customers',
  summary: 'Create or change a customer',
  description:
    'CUSTOMERDATA holds one customer in the form B2B_GetCustomer answers (a customer read can be posted ' +
    'back as it is). With CUSTOMER: that customer is changed (or created with that number); without it: the ' +
    'customer with EXTERNALKEY is changed, or a new customer is created with the next free number (NAME, ' +
    'PRICEGROUP and CURRENCY are then required). Fields left out keep their value; "INVOICE ADDRESSES" ' +
    '(at most one) replaces the invoice address ([] removes it); each of "DELIVERY ADDRESSES" with ' +
    'EXTRAADDRESSNO changes that address, one without it is added (unless it equals a live one). Addresses ' +
    'are given whole. VAT number, postal codes and the rest are checked; every bad field is named as a JSON ' +
    'pointer (/CUSTOMERDATA/VATNO). Numbers may be JSON numbers or numeric strings. 409 EXTERNAL_KEY_TAKEN ' +
    'when the key is another customer’s. A token confined to one customer changes only its own (403 ' +
    'OUTSIDE_SCOPE otherwise) and cannot change its commercial terms (EXTERNALKEY, CURRENCY, PRICEGROUP, ' +
    'CUSTOMERGROUP, DISCOUNTPERC, PAYMENTDAYS, CREDITLIMIT, REPRESENTATIVE, ACTIVE): posting them as they ' +
    'are is fine. Safe to retry with an Idempotency-Key header.',
  body: Type.Object({ CUSTOMERDATA: CustomerDataBody }, { additionalProperties: false }),
  response: rooted(
    'B2BPOSTCUSTOMER',
    Type.Object({
      CUSTOMER: CustomerNoSchema,
      CREATED: Type.Boolean({ description: 'True when this call created the customer.' }),
      CHANGED: Type.Boolean({ description: 'False when the customer already was as posted.' }),
      CUSTOMERS: Type.Array(CustomerSchema, { minItems: 1, maxItems: 1 }),
    }),
  ),
  async handler({ body, principal, services }) {
    const patch = customerPatch(body.CUSTOMERDATA);
    const own = confinedCustomer(principal);
    if (own !== null) patch.customerNo = customerScope(principal, patch.customerNo, '/CUSTOMERDATA/CUSTOMER');
    const posted = await withRoot('/CUSTOMERDATA', () =>
      services.customers.customers.postCustomer(patch, { confinedTo: own }),
    );
    return {
      B2BPOSTCUSTOMER: {
        CUSTOMER: posted.customerNo,
        CREATED: posted.created,
        CHANGED: posted.scn !== null,
        CUSTOMERS: [posted.customer],
      },
    };
  },
});

export const B2B_PostDeliveryAddress = operation({
  name: 'B2B_PostDeliveryAddress',
  method: 'POST',
  audience: 'B2B',
  area: 'Customers',
  summary: 'Add or change a delivery address',
  description:
    'DELIVERYADDRESSDATA: CUSTOMER and one address with the fields of "DELIVERY ADDRESSES" (given whole). ' +
    'With EXTRAADDRESSNO that delivery address is changed (404 ADDRESS_NOT_FOUND when the customer has no ' +
    'such live address); without it, one is added with the next number, which the answer gives as ' +
    'EXTRAADDRESSNO (pass it as DELEXTRAADDRESSNO in B2B_PostOrdCus). Numbers are never given out twice. ' +
    'Adding an address equal to a live one answers that one (CREATED false), and with an Idempotency-Key ' +
    'header a retry answers the first result. The invoice address (number 0) is changed with ' +
    `B2B_PostCustomer. Every bad field is named as a JSON pointer. ${SCOPE_NOTE} It may leave CUSTOMER out.`,
  body: Type.Object({ DELIVERYADDRESSDATA: DeliveryAddressDataBody }, { additionalProperties: false }),
  response: rooted(
    'B2BPOSTDELIVERYADDRESS',
    Type.Object({
      CUSTOMER: CustomerNoSchema,
      EXTRAADDRESSNO: Type.Integer({ minimum: 1, description: 'The number of the address.' }),
      CREATED: Type.Boolean({ description: 'True when this call added the address.' }),
      CHANGED: Type.Boolean({ description: 'False when the address already was as posted.' }),
      'DELIVERY ADDRESSES': Type.Array(AddressSchema, { minItems: 1, maxItems: 1 }),
    }),
  ),
  async handler({ body, principal, services }) {
    const data = body.DELIVERYADDRESSDATA;
    const customerNo = requiredCustomer(
      principal,
      optionalNumber(data.CUSTOMER),
      '/DELIVERYADDRESSDATA/CUSTOMER',
    );
    const posted = await withRoot('/DELIVERYADDRESSDATA', () =>
      services.customers.customers.postDeliveryAddress(customerNo, deliveryAddressInput(data), {
        confinedTo: confinedCustomer(principal),
      }),
    );
    return {
      B2BPOSTDELIVERYADDRESS: {
        CUSTOMER: posted.customerNo,
        EXTRAADDRESSNO: posted.addressNo,
        CREATED: posted.created,
        CHANGED: posted.scn !== null,
        'DELIVERY ADDRESSES': [posted.address],
      },
    };
  },
});

export const B2B_GetRepresentatives = operation({
  name: 'B2B_GetRepresentatives',
  method: 'GET',
  audience: 'B2B',
  area: 'Customers',
  summary: 'Representatives',
  description:
    'Sales representatives in position order (creation order): code, name, e-mail, phone, active. ' +
    `${REPRESENTATIVE_PAGE.defaultLimit} per page by default, at most ${REPRESENTATIVE_PAGE.maxLimit}. ` +
    `${SYNC_NOTE} A token confined to one customer gets only its customer's representative (one it no ` +
    'longer has comes under DELETED in a feed).',
  query: queryObject(pageParams(REPRESENTATIVE_PAGE)),
  response: rooted(
    'B2BGETREPRESENTATIVES',
    FeedSchema('REPRESENTATIVES', RepresentativeSchema, Type.String(), {
      deleted: { description: 'Representative codes deleted since strscn.' },
    }),
  ),
  async handler({ query, principal, services }) {
    const page = await services.customers.representatives.listRepresentatives(
      toPage(query, REPRESENTATIVE_PAGE),
      {
        customerNo: customerScope(principal, undefined),
      },
    );
    return feedAnswer('B2BGETREPRESENTATIVES', 'REPRESENTATIVES', page);
  },
});

export const B2B_GetRepresentativeCustomers = operation({
  name: 'B2B_GetRepresentativeCustomers',
  method: 'GET',
  audience: 'B2B',
  area: 'Customers',
  summary: 'Customers of a representative',
  description:
    'The customers of one representative (strrepresentative), in the form of B2B_GetAllCustomers. In a ' +
    'feed (strscn > 0), a customer that moved to another representative or was deleted since comes under ' +
    'DELETED. 404 REPRESENTATIVE_NOT_FOUND for an unknown code. ' +
    `${CUSTOMER_PAGE.defaultLimit} per page by default, at most ${CUSTOMER_PAGE.maxLimit}. ${SYNC_NOTE} ` +
    "A token confined to one customer may ask only for its customer's representative (403 OUTSIDE_SCOPE " +
    'otherwise) and gets its own customer only.',
  query: queryObject({
    strrepresentative: text('Representative code.', 20),
    ...pageParams(CUSTOMER_PAGE),
  }),
  response: rooted(
    'B2BGETREPRESENTATIVECUSTOMERS',
    FeedSchema('CUSTOMERS', CustomerSchema, Type.Integer(), {
      head: { REPRESENTATIVE: Type.String() },
      deleted: { description: 'Customers no longer of this representative (moved or deleted) since strscn.' },
    }),
  ),
  async handler({ query, principal, services }) {
    const code = query.strrepresentative.trim().toUpperCase();
    const own = customerScope(principal, undefined);
    if (own !== undefined) {
      assertOwnRepresentative(own, code, await services.customers.customers.representativeOf(own));
    }
    const page = await services.customers.customers.listRepresentativeCustomers(
      code,
      toPage(query, CUSTOMER_PAGE),
      {
        customerNo: own,
      },
    );
    return feedAnswer('B2BGETREPRESENTATIVECUSTOMERS', 'CUSTOMERS', page, { REPRESENTATIVE: code });
  },
});

const linksAnswer = (head: Record<string, ReturnType<typeof Type.Integer>> = {}) =>
  FeedSchema('ARTICLELINKS', ArticleLinkSchema, ArticleLinkKeySchema, {
    head,
    deleted: { description: 'Links deleted since strscn.' },
  });

export const B2B_GetAllCustomerArticleLink = operation({
  name: 'B2B_GetAllCustomerArticleLink',
  method: 'GET',
  audience: 'B2B',
  area: 'Customers',
  summary: 'All customer-article links',
  description:
    "Customers' own article numbers, descriptions and barcodes for our articles (CUSTOMERARTICLE, " +
    'CUSTOMERDESCRIPTION, CUSTOMERBARCODE), in position order (creation order). strcustomer > 0: that customer ' +
    `only. ${LINK_PAGE.defaultLimit} per page by default, at most ${LINK_PAGE.maxLimit}. ${SYNC_NOTE} ` +
    `${SCOPE_NOTE} (it gets its own links only).`,
  query: queryObject({
    strcustomer: Type.Optional(digits('0 (default): all customers; > 0: that customer only.', '0')),
    ...pageParams(LINK_PAGE),
  }),
  response: rooted('B2BGETALLCUSTOMERARTICLELINK', linksAnswer()),
  async handler({ query, principal, services }) {
    const customerNo = customerScope(principal, optionalNumber(query.strcustomer));
    const page = await services.customers.articleLinks.listArticleLinks(toPage(query, LINK_PAGE), {
      customerNo,
    });
    return feedAnswer('B2BGETALLCUSTOMERARTICLELINK', 'ARTICLELINKS', page);
  },
});

export const B2B_GetCustomerArticleLink = operation({
  name: 'B2B_GetCustomerArticleLink',
  method: 'GET',
  audience: 'B2B',
  area: 'Customers',
  summary: 'Customer-article links of one customer',
  description:
    'The article links of one customer (strcustomer), optionally only the one for our article ' +
    "(strarticle) or for the customer's own article number (strcustomerarticle): an empty list when there " +
    'is none. 404 CUSTOMER_NOT_FOUND for an unknown customer. ' +
    `${LINK_PAGE.defaultLimit} per page by default, at most ${LINK_PAGE.maxLimit}. ${SYNC_NOTE} ` +
    `${SCOPE_NOTE} It may leave strcustomer out.`,
  query: queryObject({
    strcustomer: Type.Optional(digits('Customer number (optional for a token confined to one customer).')),
    strarticle: Type.Optional(text('Only the link for this article of ours.')),
    strcustomerarticle: Type.Optional(text("Only the link with this customer's own article number.", 40)),
    ...pageParams(LINK_PAGE),
  }),
  response: rooted('B2BGETCUSTOMERARTICLELINK', linksAnswer({ CUSTOMER: CustomerNoSchema })),
  async handler({ query, principal, services }) {
    const customerNo = requiredCustomer(principal, optionalNumber(query.strcustomer), 'strcustomer');
    const page = await services.customers.articleLinks.listArticleLinks(toPage(query, LINK_PAGE), {
      customerNo,
      articleNo: query.strarticle,
      customerArticleNo: query.strcustomerarticle,
    });
    return feedAnswer('B2BGETCUSTOMERARTICLELINK', 'ARTICLELINKS', page, { CUSTOMER: customerNo });
  },
});
