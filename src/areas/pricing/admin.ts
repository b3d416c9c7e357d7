import { Type } from 'typebox';
import { adminRoute, pathNumber, samePathKey } from '../../kernel/admin-route.ts';
import { withRoot } from '../../kernel/errors.ts';
import { MAX_INT32, MAX_SAFE_INT } from '../../kernel/int-limits.ts';
import {
  ActionPriceBody,
  AgreementBody,
  actionPriceInput,
  agreementInput,
  CustomerBody,
  customerInput,
  LineDiscountBody,
  ListPriceBody,
  lineDiscountInput,
  listPriceInput,
  MAX_PRICE_GROUP,
} from './pricing-input.ts';

const WriteAnswer = Type.Object({
  SCN: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The SCN of the change; null when nothing changed.',
  }),
  CHANGED: Type.Integer(),
});
const CreatedAnswer = Type.Object({
  ID: Type.Integer(),
  SCN: Type.Union([Type.Integer(), Type.Null()]),
  CHANGED: Type.Integer(),
});
const Id = (name: string, what: string) =>
  Type.Object({
    [name]: pathNumber(MAX_SAFE_INT, `The id of the ${what}, as answered when it was created.`),
  });
const answer = (r: { scn: number | null; changed: number }) => ({ SCN: r.scn, CHANGED: r.changed });

/** The CRUD routes of one kind of pricing record that has a generated id. */
function idRecords<B extends typeof AgreementBody | typeof LineDiscountBody | typeof ActionPriceBody, I>(
  path: string,
  label: string,
  body: B,
  toInput: (b: never) => I,
  ops: {
    create(
      services: import('../../kernel/services.ts').Services,
      input: I,
    ): Promise<{ id: number; scn: number | null; changed: number }>;
    update(
      services: import('../../kernel/services.ts').Services,
      id: number,
      input: I,
    ): Promise<{ scn: number | null; changed: number }>;
    remove(services: import('../../kernel/services.ts').Services, id: number): Promise<unknown>;
  },
) {
  const params = Id('id', label);
  return [
    adminRoute({
      method: 'POST',
      url: `/TV2/Admin/${path}`,
      summary: `Create a ${label}`,
      description: `The body has the form of a ${label} as the feeds answer it (without its id); the answer gives the new id (ID).`,
      body,
      response: CreatedAnswer,
      async handler({ body: b, services }) {
        const r = await ops.create(services, toInput(b as never));
        return { ID: r.id, SCN: r.scn, CHANGED: r.changed };
      },
    }),
    adminRoute({
      method: 'PUT',
      url: `/TV2/Admin/${path}/:id`,
      summary: `Replace the terms of a ${label}`,
      description: `The body has the form of a ${label} as the feeds answer it; read-only keys (its id, SCN) are ignored. 404 when no ${label} has this id.`,
      params,
      body,
      response: WriteAnswer,
      async handler({ params: p, body: b, services }) {
        const id = Number((p as { id: string }).id);
        return answer(await ops.update(services, id, toInput(b as never)));
      },
    }),
    adminRoute({
      method: 'DELETE',
      url: `/TV2/Admin/${path}/:id`,
      summary: `Delete a ${label}`,
      description: `It stays as a tombstone, so the price feeds report it deleted. 404 when no ${label} has this id.`,
      params,
      async handler({ params: p, services }) {
        await ops.remove(services, Number((p as { id: string }).id));
      },
    }),
  ];
}

export const PRICING_ADMIN_ROUTES = [
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/customers/:customer',
    summary: 'Create or change a wholesale customer (the pricing terms: price group, currency, discount)',
    description: "The body's CUSTOMER must equal the path's key (a 400 naming the field otherwise).",
    params: Type.Object({ customer: pathNumber(MAX_INT32, 'The customer number (CUSTOMER).') }),
    body: CustomerBody,
    response: WriteAnswer,
    async handler({ params, body, services }) {
      samePathKey(params.customer, body.CUSTOMER, 'CUSTOMER', Number);
      return answer(
        await withRoot('', () => services.pricing.customers.saveCustomer(customerInput(body)), {
          single: true,
        }),
      );
    },
  }),
  adminRoute({
    method: 'DELETE',
    url: '/TV2/Admin/customers/:customer',
    summary: 'Delete a wholesale customer, with its article links and representative membership',
    description:
      'The customer stays as a tombstone, so the feeds report it deleted. 404 when it does not exist.',
    params: Type.Object({ customer: pathNumber(MAX_INT32, 'The customer number (CUSTOMER).') }),
    async handler({ params, services }) {
      await services.customers.customers.deleteCustomer(Number(params.customer));
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/prices',
    summary: 'Set list prices (selling or recommended, per price group, currency and size), all or none',
    description:
      'Every ARTICLE with its SIZEX must exist and each price may be given once; every record that breaks a rule is named (a 400), and nothing is written.',
    body: Type.Object(
      { PRICES: Type.Array(ListPriceBody, { minItems: 1, maxItems: 10_000 }) },
      { additionalProperties: false },
    ),
    response: WriteAnswer,
    async handler({ body, services }) {
      const prices = body.PRICES.map((p, i) => listPriceInput(p, `/PRICES/${i}`));
      return answer(await withRoot('/PRICES', () => services.pricing.listPrices.setListPrices(prices)));
    },
  }),
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/prices/delete',
    summary: 'Delete list prices (they show up as deleted in B2B_GetPriceChanges)',
    description: 'Prices that do not exist are skipped; the answer counts the ones deleted (CHANGED).',
    body: Type.Object(
      {
        PRICES: Type.Array(
          Type.Object(
            {
              ARTICLE: Type.String({ minLength: 1 }),
              PRICETYPE: Type.Union([Type.Literal('SELLING'), Type.Literal('RECOMMENDED')]),
              PRICEGROUP: Type.Integer({ minimum: 1, maximum: MAX_PRICE_GROUP }),
              CURRENCY: Type.String({ pattern: '^[A-Z]{3}$' }),
              SIZEX: Type.String({ minLength: 1 }),
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
        await services.pricing.listPrices.deleteListPrices(
          body.PRICES.map((p) => ({
            articleNo: p.ARTICLE,
            priceType: p.PRICETYPE,
            priceGroup: p.PRICEGROUP,
            currency: p.CURRENCY,
            sizex: p.SIZEX,
          })),
        ),
      );
    },
  }),
  ...idRecords('agreements', 'price agreement', AgreementBody, (b: AgreementBody) => agreementInput(b), {
    create: (s, i) => s.pricing.agreements.createAgreement(i),
    update: (s, id, i) => s.pricing.agreements.updateAgreement(id, i),
    remove: (s, id) => s.pricing.agreements.deleteAgreement(id),
  }),
  ...idRecords(
    'linediscounts',
    'customer line discount',
    LineDiscountBody,
    (b: LineDiscountBody) => lineDiscountInput(b),
    {
      create: (s, i) => s.pricing.agreements.createLineDiscount(i),
      update: (s, id, i) => s.pricing.agreements.updateLineDiscount(id, i),
      remove: (s, id) => s.pricing.agreements.deleteLineDiscount(id),
    },
  ),
  ...idRecords(
    'actionprices',
    'retail action price',
    ActionPriceBody,
    (b: ActionPriceBody) => actionPriceInput(b),
    {
      create: (s, i) => s.pricing.actionPrices.createActionPrice(i),
      update: (s, id, i) => s.pricing.actionPrices.updateActionPrice(id, i),
      remove: (s, id) => s.pricing.actionPrices.deleteActionPrice(id),
    },
  ),
];
