import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type Json, type ScenarioCall, type Steps, writes } from './demo-scenario-writes.ts';

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
  await get('B2B_GetArticle', { strbarcode: size.BARCODE });
  await get('B2C_GetAllArticles', { strlimit: '2' });
  await get('B2C_GetArticle', { strbarcode: size.BARCODE });
  await get('B2C_GetArticle', { strarticle: article });
  await get('B2C_GetAllArticlesImages', { strlimit: '2' });
  const image = await call({
    route: `${OP}B2C_GetArticleImage`,
    query: { strarticle: article, strimageno: '1' },
  });
  await get('GetSizeTables', { strlimit: '2' });

  // Stock reads.
  await get('B2B_GetArticleStock', { strarticle: article });
  await get('B2B_GetArticleStock', { strarticle: article, strlocation: 'WH' });
  await get('B2C_GetArticleStock', { strarticle: article });
  await get('B2C_GetArticleStock', { strarticle: article, strlocation: 'AMS' });
  await get('B2B_GetStocks', { strlimit: '2' });
  await get('B2B_GetStocks', { strlocation: 'WH', strlimit: '2' });
  await get('B2C_GetStocks', { strlimit: '2' });
  await get('B2C_GetStocks', { strlocation: 'AMS', strlimit: '2' });
  await get('B2B_GetStockChanges', { strscn: '0', strlimit: '2' });
  await get('B2B_GetStockChanges', { strscn: '0', strlocation: 'WH', strlimit: '2' });
  await get('B2C_GetStockChanges', { strscn: '0', strlimit: '2' });
  await get('B2C_GetStockChanges', { strscn: '0', strlocation: 'AMS', strlimit: '2' });

  // Shops.
  await get('B2C_GetAllShops', { strlimit: '2' });
  await get('B2C_GetAllShopImages', { strlimit: '2' });
  await get('B2C_GetCompanyRegEx', { strlimit: '2' });
  await get('B2C_GetHomePages', { strpage: 'HOME' });
  await get('B2C_GetHomePages', { strlimit: '2' });
  await get('B2C_GetPickUpLocations', { strlat: '52.37', strlon: '4.89', strlimit: '2' });
  await get('B2C_GetShopAssistants', { strlocation: 'AMS' });
  await get('B2C_GetShopAssistants', { strlimit: '2' });
  await call({ route: `${OP}B2C_GetShopImage`, query: { strlocation: 'AMS', strimageno: '1' } });

  // Pricing.
  const customer = '10001';
  await get('B2C_GetAllActionPrice', { strlimit: '2' });
  const action = (await get('B2C_GetAllActionPrice', { strlimit: '1' })).B2CGETALLACTIONPRICE.ACTIONPRICES[0];
  const day = action.STARTDATE as string;
  await get('B2C_GetAllActionPrice', { strdate: day, strlimit: '2' });
  await get('B2C_GetAllActionPrice', { strall: '1', strlimit: '2' });
  await get('B2C_GetArticleACTIONPrice', { strarticle: action.ARTICLE });
  const onAction = (await get('B2C_GetArticle', { strarticle: action.ARTICLE })).B2CGETARTICLE.ARTICLES[0];
  await get('B2C_GetArticleACTIONPrice', {
    strarticle: action.ARTICLE,
    strsize: onAction.SIZES[0].SIZEX,
    strcurrency: 'EUR',
    strdate: day,
    strall: '0',
  });
  // The first demo customer has no line discounts; the second has.
  await get('B2B_GetCustomerLineDiscounts', { strcustomer: '10002', strlimit: '2' });
  await get('B2B_GetAllPriceAgreements', { strlimit: '2' });
  await get('B2B_GetAllPriceAgreements', { strcustomer: '10008', strlimit: '2' });
  await get('B2B_GetPriceAgreement', { stragreement: '1' });
  await get('B2B_GetAllPrices', { strlimit: '2' });
  await get('B2B_GetArticlePrice', { strcustomer: customer, strarticle: article, strsize: size.SIZEX });
  await get('B2B_GetArticlePrice', {
    strcustomer: customer,
    strarticle: article,
    strsize: size.SIZEX,
    strquantity: '12',
    strdate: day,
    strcurrency: 'EUR',
  });
  await get('B2B_GetPriceChanges', { strscn: '0', strlimit: '2' });

  // Customers.
  await get('B2B_GetAllCustomers', { strlimit: '2' });
  await get('B2B_GetCustomer', { strcustomer: customer });
  await get('B2B_GetCustomer', { strexternalkey: 'DEMO-10001' });
  await get('B2B_GetAllCustomerArticleLink', { strcustomer: customer, strlimit: '2' });
  await get('B2B_GetAllCustomerArticleLink', { strlimit: '2' });
  const links = await get('B2B_GetCustomerArticleLink', { strcustomer: customer, strlimit: '2' });
  const link = links.B2BGETCUSTOMERARTICLELINK.ARTICLELINKS[0];
  await get('B2B_GetCustomerArticleLink', { strcustomer: customer, strarticle: link.ARTICLE });
  await get('B2B_GetCustomerArticleLink', {
    strcustomer: customer,
    strcustomerarticle: link.CUSTOMERARTICLE,
  });
  await get('B2B_GetRepresentatives');
  await get('B2B_GetRepresentatives', { strlimit: '2' });
  await get('B2B_GetRepresentativeCustomers', { strrepresentative: 'JDV', strlimit: '2' });

  // Clients.
  const client = '100001';
  const profile = (await get('B2C_GetClient', { strclient: client })).B2CGETCLIENT.CLIENTS[0];
  await get('B2C_GetClient', { stremail: profile.EMAIL });
  const actions = (await get('B2C_GetClientActions', { strclient: client })).B2CGETCLIENTACTIONS;
  await get('B2C_GetClientMemberCardInfo', { strclient: client });

  // Orders.
  const states = await get('B2B_GetOrderState', { strcustomer: customer, strscn: '0', strlimit: '2' });
  const order = states.B2BGETORDERSTATE.ORDERS[0];
  await get('B2B_GetOrderState', {
    strcustomer: customer,
    strscn: '0',
    strorderno: String(order.ORDERNO),
    strorderstatus: order.STATE,
  });
  await get('B2B_GetOrder', { strcustomer: customer, strlimit: '2' });
  await get('B2B_GetOrder', { strcustomer: customer, strorderno: String(order.ORDERNO), strscn: '0' });
  await get('B2B_GetOrderHistory', { strcustomer: customer, strlimit: '2' });
  await get('B2B_GetOrderStateChanges', { strcustomer: customer, strscn: '0', strlimit: '2' });
  const deliveries = await get('B2B_GetDeliveryHistory', { strcustomer: customer, strlimit: '2' });
  const delivered = deliveries.B2BGETDELIVERYHISTORY.DELIVERIES[0];
  await get('B2B_GetDeliveryHistory', { strcustomer: customer, strorderno: String(delivered.ORDERNO) });
  const webOrders = await get('B2C_GetOrderState', { strclient: client, strlimit: '2' });
  const webOrder = webOrders.B2CGETORDERSTATE.ORDERS[0];
  await get('B2C_GetOrderState', { strclient: client, strorderno: String(webOrder.ORDERNO) });
  await get('B2C_GetOrderState', { strclient: client, strweborder: webOrder.WEBORDER });
  await get('B2C_GetOrderStateChanges', { strclient: client, strscn: '0', strlimit: '2' });

  // Tenders.
  const card = '40000001';
  await get('B2C_GetBonusCardValue', { strcardno: card });
  await get('B2C_BonuscardHistory', { strcardno: card, strlimit: '2' });
  await get('B2C_GetALLOpenCreditNotes', { strclient: client });
  const cheques = (await get('B2C_GetOpenClientCheque', { strclient: client })).B2CGETOPENCLIENTCHEQUE;

  const steps: Steps = {
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
  };
  await writes(steps);
  await deletions(steps);
}

/** The deletions, last: of the records the scenario made. */
async function deletions(s: Steps): Promise<void> {
  const del = (route: string, params: Record<string, string>) => s.admin(`DELETE ${route}`, params);
  await del('/TV2/Admin/customers/{customer}/addresses/{address}', { customer: '10099', address: '2' });
  await del('/TV2/Admin/articles/{article}/images/{imageno}', { article: 'EX100-010', imageno: '1' });
  await del('/TV2/Admin/shops/{location}/images/{imageno}', { location: 'AMS', imageno: '9' });
  await del('/TV2/Admin/shops/{location}/assistants/{assistant}', { location: 'POPUP', assistant: '1' });
  await del('/TV2/Admin/pickuppoints/{point}', { point: 'PP-ROT-1' });
  await del('/TV2/Admin/homepages/{page}/blocks/{block}', { page: 'HOME', block: '9' });
  await del('/TV2/Admin/regexes/{name}/{country}', { name: 'VATNO', country: 'NL' });
  await del('/TV2/Admin/regexes/{name}', { name: 'WEBORDER' });
  await del('/TV2/Admin/representatives/{representative}', { representative: 'EXR' });
  await del('/TV2/Admin/locations/{location}', { location: 'POPUP' });
  // Booked out first: an article with stock is not deleted (409 ARTICLE_HAS_STOCK).
  await s.admin(
    'PUT /TV2/Admin/stock/levels',
    {},
    {
      REASON: 'Sold out',
      LEVELS: [{ LOCATION: 'WH', ARTICLE: 'EX100-010', SIZEX: 'S', ONHAND: 0 }],
    },
  );
  await del('/TV2/Admin/articles/{article}', { article: 'EX100-010' });
  await del('/TV2/Admin/sizetables/{sizetable}', { sizetable: 'EXAMPLE' });
  await del('/TV2/Admin/customers/{customer}', { customer: '10099' });
}
