import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type Json, type ScenarioCall, writes } from './demo-scenario-writes.ts';

export type { ScenarioCall };

/**
 * One call of every built operation and back-office route on the demo world (issue 14): reads with
 * real demo keys, then writes through the admin routes and the operations (a wholesale order taken
 * through its states, a web order returned, an invoice with a credit note and a payment, vouchers),
 * deletions last. Used by scripts/openapi-examples.ts, which keeps each route's first 2xx as the
 * example of the OpenAPI document, and by test/contract-answers.test.ts, which checks every answer
 * against its declared schema. Keys of records made on the way come from the answers before them.
 */
export type OnAnswer = (call: ScenarioCall, res: LightMyRequestResponse) => void;

const OP = 'GET /TV2/Execute/APIPACK.';
const POST_OP = 'POST /TV2/Execute/APIPACK.';

/** The concrete URL of a call: the path parameters put into the route's template. */
export function urlOf(call: ScenarioCall): string {
  const path = call.route.slice(call.route.indexOf(' ') + 1);
  return path.replace(/\{([a-z]+)\}/gi, (_m, name: string) => {
    const value = call.params?.[name];
    if (value === undefined) throw new Error(`${call.route}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

export function inject(
  app: FastifyInstance,
  token: string,
  call: ScenarioCall,
): Promise<LightMyRequestResponse> {
  const method = call.route.slice(0, call.route.indexOf(' ')) as 'GET' | 'PUT' | 'POST' | 'DELETE';
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let payload: string | Buffer | undefined;
  if (call.raw) {
    headers['content-type'] = call.raw.type;
    payload = call.raw.data;
  } else if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(call.body);
  }
  return app.inject({
    method,
    url: urlOf(call),
    ...(call.query ? { query: call.query } : {}),
    headers,
    ...(payload !== undefined ? { payload } : {}),
  });
}

/**
 * Runs the scenario as `token` (a user with the B2B, B2C and ADMIN roles and no party scope).
 * `onAnswer` sees every call and its answer; a call whose answer the next steps need and that
 * failed throws, naming it.
 */
export async function runDemoScenario(
  app: FastifyInstance,
  token: string,
  onAnswer: OnAnswer,
): Promise<void> {
  const call = async (c: ScenarioCall): Promise<LightMyRequestResponse> => {
    const res = await inject(app, token, c);
    onAnswer(c, res);
    return res;
  };
  /** A call whose answer is needed: a 2xx, its JSON body. */
  const need = async (c: ScenarioCall): Promise<Json> => {
    const res = await call(c);
    if (res.statusCode >= 300) throw new Error(`${c.route} -> ${res.statusCode} ${res.body.slice(0, 400)}`);
    return res.statusCode === 204 ? undefined : res.json();
  };
  const get = (op: string, query: Record<string, string> = {}) => need({ route: `${OP}${op}`, query });
  const post = (op: string, body: unknown) => need({ route: `${POST_OP}${op}`, body });
  const admin = (route: string, params: Record<string, string> = {}, body?: unknown) =>
    need({ route, params, ...(body !== undefined ? { body } : {}) });

  // General.
  await get('APIPing');

  // Catalog reads.
  const articles = (await get('B2B_GetAllArticles', { strlimit: '2' })).B2BGETALLARTICLES.ARTICLES;
  const article = articles[0].ARTICLE as string;
  const size = articles[0].SIZES[0] as { SIZEX: string; BARCODE: string };
  await get('B2B_GetArticle', { strarticle: article });
  await get('B2C_GetAllArticles', { strlimit: '2' });
  await get('B2C_GetArticle', { strbarcode: size.BARCODE });
  await get('B2C_GetAllArticlesImages', { strlimit: '2' });
  const image = await call({
    route: `${OP}B2C_GetArticleImage`,
    query: { strarticle: article, strimageno: '1' },
  });
  await get('GetSizeTables', { strlimit: '2' });

  // Stock reads.
  await get('B2B_GetArticleStock', { strarticle: article });
  await get('B2C_GetArticleStock', { strarticle: article });
  await get('B2B_GetStocks', { strlimit: '2' });
  await get('B2C_GetStocks', { strlimit: '2' });
  await get('B2B_GetStockChanges', { strscn: '0', strlimit: '2' });
  await get('B2C_GetStockChanges', { strscn: '0', strlimit: '2' });

  // Shops.
  await get('B2C_GetAllShops', { strlimit: '2' });
  await get('B2C_GetAllShopImages', { strlimit: '2' });
  await get('B2C_GetCompanyRegEx', { strlimit: '2' });
  await get('B2C_GetHomePages', { strpage: 'HOME' });
  await get('B2C_GetPickUpLocations', { strlat: '52.37', strlon: '4.89', strlimit: '2' });
  await get('B2C_GetShopAssistants', { strlocation: 'AMS' });
  await call({ route: `${OP}B2C_GetShopImage`, query: { strlocation: 'AMS', strimageno: '1' } });

  // Pricing.
  const customer = '10001';
  await get('B2C_GetAllActionPrice', { strlimit: '2' });
  const action = (await get('B2C_GetAllActionPrice', { strlimit: '1' })).B2CGETALLACTIONPRICE.ACTIONPRICES[0];
  await get('B2C_GetArticleACTIONPrice', { strarticle: action.ARTICLE });
  await get('B2B_GetCustomerLineDiscounts', { strcustomer: customer });
  await get('B2B_GetAllPriceAgreements', { strlimit: '2' });
  await get('B2B_GetPriceAgreement', { stragreement: '1' });
  await get('B2B_GetAllPrices', { strlimit: '2' });
  await get('B2B_GetArticlePrice', { strcustomer: customer, strarticle: article, strsize: size.SIZEX });
  await get('B2B_GetPriceChanges', { strscn: '0', strlimit: '2' });

  // Customers.
  await get('B2B_GetAllCustomers', { strlimit: '2' });
  await get('B2B_GetCustomer', { strcustomer: customer });
  await get('B2B_GetAllCustomerArticleLink', { strcustomer: customer, strlimit: '2' });
  await get('B2B_GetCustomerArticleLink', { strcustomer: customer, strlimit: '2' });
  await get('B2B_GetRepresentatives');
  await get('B2B_GetRepresentativeCustomers', { strrepresentative: 'JDV', strlimit: '2' });

  // Clients.
  const client = '100001';
  await get('B2C_GetClient', { strclient: client });
  await get('B2C_GetClient_Purchase', { strclient: client, strlimit: '2' });
  const actions = (await get('B2C_GetClientActions', { strclient: client })).B2CGETCLIENTACTIONS;
  await get('B2C_GetClientMemberCardInfo', { strclient: client });
  await get('B2C_GetClient_OpenOnAccount', { strclient: client });
  await get('B2C_GetClient_OnAccountDetail', { strclient: client, strlimit: '2' });
  await get('B2C_GetUserMessages', { strclient: client, strlimit: '2' });

  // Orders.
  await get('B2B_GetOrder', { strcustomer: customer, strlimit: '2' });
  await get('B2B_GetOrderHistory', { strcustomer: customer, strlimit: '2' });
  await get('B2B_GetOrderState', { strcustomer: customer, strscn: '0', strlimit: '2' });
  await get('B2B_GetOrderStateChanges', { strcustomer: customer, strscn: '0', strlimit: '2' });
  await get('B2B_GetDeliveryHistory', { strcustomer: customer, strlimit: '2' });
  await get('B2C_GetOrderState', { strclient: client, strlimit: '2' });
  await get('B2C_GetOrderStateChanges', { strclient: client, strscn: '0', strlimit: '2' });

  // Tenders.
  const card = '40000001';
  await get('B2C_GetBonusCardValue', { strcardno: card });
  await get('B2C_BonuscardHistory', { strcardno: card, strlimit: '2' });
  await get('B2C_GetALLOpenCreditNotes', { strclient: client });
  const cheques = (await get('B2C_GetOpenClientCheque', { strclient: client })).B2CGETOPENCLIENTCHEQUE;

  await writes({
    call,
    need,
    get,
    post,
    admin,
    article,
    size,
    image,
    customer,
    client,
    card,
    actions,
    cheques,
  });
}
