import { Type } from 'typebox';
import { adminRoute, pathNumber, samePathKey } from '../../kernel/admin-route.ts';
import { withRoot } from '../../kernel/errors.ts';
import { MAX_INT32 } from '../../kernel/int-limits.ts';
import {
  ArticleLinkBody,
  articleLinkInput,
  CustomerDetailsBody,
  customerDetailsInput,
  RepresentativeBody,
  representativeInput,
} from './customer-input.ts';

const WriteAnswer = Type.Object({
  SCN: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The SCN of the change; null when nothing changed.',
  }),
  CHANGED: Type.Integer(),
});
const answer = (r: { scn: number | null; changed: number }) => ({ SCN: r.scn, CHANGED: r.changed });
const RepresentativeParam = Type.String({
  minLength: 1,
  maxLength: 20,
  description: 'The representative code (REPRESENTATIVE), in any case.',
});
const CustomerParam = pathNumber(MAX_INT32, 'The customer number (CUSTOMER).');

/**
 * Back-office routes of the customers area (docs/customers.md): whole customers with their
 * addresses, representatives and customer-article links. The pricing terms alone stay writable
 * through `PUT /TV2/Admin/customers/:customer` (pricing-admin.ts).
 */
export const CUSTOMERS_ADMIN_ROUTES = [
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/customers/:customer/details',
    summary: 'Create or replace a whole wholesale customer with its addresses',
    description:
      'The body is a customer in the form B2B_GetCustomer answers. Fields left out take their defaults; ' +
      'delivery addresses not given are deleted; one given with EXTRAADDRESSNO keeps (or gets) that number, ' +
      'one without gets the next (or the number of an equal live one). ' +
      "The body's CUSTOMER must equal the path's key (a 400 naming the field otherwise).",
    params: Type.Object({ customer: CustomerParam }),
    body: CustomerDetailsBody,
    response: WriteAnswer,
    async handler({ params, body, services }) {
      samePathKey(params.customer, body.CUSTOMER, 'CUSTOMER', Number);
      return answer(
        await withRoot(
          '',
          () => services.customers.customers.saveCustomerDetails(customerDetailsInput(body)),
          {
            single: true,
          },
        ),
      );
    },
  }),
  adminRoute({
    method: 'DELETE',
    url: '/TV2/Admin/customers/:customer/addresses/:address',
    summary: 'Delete a delivery address of a customer (its number is not given out again)',
    description: 'The address is named by the customer and the address number (EXTRAADDRESSNO) in the path.',
    params: Type.Object({
      customer: CustomerParam,
      address: pathNumber(9999, 'The number of the delivery address (EXTRAADDRESSNO).'),
    }),
    async handler({ params, services }) {
      await services.customers.customers.deleteDeliveryAddress(
        Number(params.customer),
        Number(params.address),
      );
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/representatives/:representative',
    summary: 'Create or replace a sales representative',
    description: "The body's REPRESENTATIVE must equal the path's key (a 400 naming the field otherwise).",
    params: Type.Object({ representative: RepresentativeParam }),
    body: RepresentativeBody,
    response: WriteAnswer,
    async handler({ params, body, services }) {
      samePathKey(params.representative, body.REPRESENTATIVE, 'REPRESENTATIVE', (v) =>
        String(v).trim().toUpperCase(),
      );
      return answer(
        await withRoot(
          '',
          () => services.customers.representatives.saveRepresentative(representativeInput(body)),
          {
            single: true,
          },
        ),
      );
    },
  }),
  adminRoute({
    method: 'DELETE',
    url: '/TV2/Admin/representatives/:representative',
    summary: 'Delete a sales representative (409 REPRESENTATIVE_IN_USE while customers have it)',
    description: 'The representative is named by its code in the path.',
    params: Type.Object({ representative: RepresentativeParam }),
    async handler({ params, services }) {
      await services.customers.representatives.deleteRepresentative(params.representative);
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/customerarticlelinks',
    summary: "Set customers' own article numbers for our articles, all or none",
    description:
      'Every CUSTOMER and ARTICLE must exist, and a link (CUSTOMER, ARTICLE) and a CUSTOMERARTICLE of one ' +
      'customer may each be given once; every record that breaks a rule is named (a 400), and nothing is written.',
    body: Type.Object(
      { ARTICLELINKS: Type.Array(ArticleLinkBody, { minItems: 1, maxItems: 10_000 }) },
      { additionalProperties: false },
    ),
    response: WriteAnswer,
    async handler({ body, services }) {
      const links = body.ARTICLELINKS.map(articleLinkInput);
      return answer(
        await withRoot('/ARTICLELINKS', () => services.customers.articleLinks.saveArticleLinks(links)),
      );
    },
  }),
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/customerarticlelinks/delete',
    summary: 'Delete customer-article links (they show up as deleted in the link feeds)',
    description: 'Each link is named by CUSTOMER and ARTICLE; the answer counts the links deleted.',
    body: Type.Object(
      {
        ARTICLELINKS: Type.Array(
          Type.Object(
            {
              CUSTOMER: Type.Integer({ minimum: 1, maximum: MAX_INT32 }),
              ARTICLE: Type.String({ minLength: 1 }),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: 10_000 },
        ),
      },
      { additionalProperties: false },
    ),
    response: WriteAnswer,
    async handler({ body, services }) {
      return answer(
        await services.customers.articleLinks.deleteArticleLinks(
          body.ARTICLELINKS.map((l) => ({ customerNo: l.CUSTOMER, articleNo: l.ARTICLE })),
        ),
      );
    },
  }),
];
