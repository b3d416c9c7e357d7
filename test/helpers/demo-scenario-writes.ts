import type { LightMyRequestResponse } from 'fastify';

/**
 * The writes of the demo scenario (test/helpers/demo-scenario.ts): every admin route and every
 * operation that changes something, on records the scenario makes (deleted at the end) or on the
 * demo world's own (a wholesale order taken through its states and invoiced, a web order paid with a
 * voucher and returned, vouchers, cheques, the bonus card).
 */
export interface ScenarioCall {
  /** The route as the document names it: `GET /TV2/Execute/APIPACK.B2B_GetArticle`, `PUT /TV2/Admin/articles/{article}`. */
  route: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** A raw (binary) body and its media type, for the image uploads. */
  raw?: { type: string; data: Buffer };
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely here; the tests check their shapes
export type Json = any;

const OP = 'GET /TV2/Execute/APIPACK.';
const LANGS = (nl: string, en: string) => ({ LANGUAGE_1: nl, LANGUAGE_2: en });

export interface Steps {
  call(c: ScenarioCall): Promise<LightMyRequestResponse>;
  need(c: ScenarioCall): Promise<Json>;
  get(op: string, query?: Record<string, string>): Promise<Json>;
  post(op: string, body: unknown): Promise<Json>;
  admin(route: string, params?: Record<string, string>, body?: unknown): Promise<Json>;
  article: string;
  size: { SIZEX: string; BARCODE: string };
  image: LightMyRequestResponse;
  customer: string;
  client: string;
  card: string;
  actions: Json;
  cheques: Json;
}

export async function writes(s: Steps): Promise<void> {
  const { get, post, admin, article, size, client } = s;
  // Catalog.
  await admin(
    'PUT /TV2/Admin/sizetables/{sizetable}',
    { sizetable: 'EXAMPLE' },
    {
      SIZETABLE: 'EXAMPLE',
      DESCRIPTION: LANGS('Voorbeeld', 'Example'),
      SIZES: ['S', 'M', 'L'],
    },
  );
  await admin(
    'PUT /TV2/Admin/articles/{article}',
    { article: 'EX100-010' },
    {
      ARTICLE: 'EX100-010',
      MODEL: 'EX100',
      COLOUR: '010',
      COLOURDESCRIPTION: LANGS('wit', 'white'),
      ARTICLEDESCRIPTION: LANGS('Voorbeeldshirt wit', 'Example shirt white'),
      BRAND: 'NORDWIND',
      PERCVAT: 21,
      SIZETABLE: 'EXAMPLE',
      ACTIVE: true,
      RETAIL: true,
      SIZES: [
        { SIZEX: 'S', BARCODE: '2990000000019' },
        { SIZEX: 'M', BARCODE: '2990000000026' },
      ],
    },
  );
  const png = s.image.statusCode === 200 ? s.image.rawPayload : undefined;
  if (png) {
    const type = String(s.image.headers['content-type']).split(';')[0] as string;
    await s.need({
      route: 'PUT /TV2/Admin/articles/{article}/images/{imageno}',
      params: { article: 'EX100-010', imageno: '1' },
      raw: { type, data: png },
    });
    await s.need({
      route: 'PUT /TV2/Admin/shops/{location}/images/{imageno}',
      params: { location: 'AMS', imageno: '9' },
      raw: { type, data: png },
    });
  }

  // Stock.
  await admin(
    'PUT /TV2/Admin/locations/{location}',
    { location: 'POPUP' },
    {
      LOCATION: 'POPUP',
      NAME: 'Pop-up store Rotterdam',
      KIND: 'SHOP',
      WHOLESALE: false,
      RETAIL: true,
      ADDRESS: 'Lijnbaan',
      HOUSENUMBER: '10',
      POSTALCODE: '3012 EL',
      CITY: 'Rotterdam',
      COUNTRY: 'NL',
    },
  );
  await admin(
    'POST /TV2/Admin/stock/movements',
    {},
    {
      TYPE: 'RECEIPT',
      LOCATION: 'WH',
      ARTICLE: article,
      SIZEX: size.SIZEX,
      QUANTITY: 10,
      REASON: 'Delivery from the supplier',
    },
  );
  await admin(
    'PUT /TV2/Admin/stock/levels',
    {},
    {
      REASON: 'Stock take',
      LEVELS: [{ LOCATION: 'WH', ARTICLE: 'EX100-010', SIZEX: 'S', ONHAND: 40 }],
    },
  );

  // Shops.
  await admin(
    'PUT /TV2/Admin/shops/{location}',
    { location: 'POPUP' },
    {
      LOCATION: 'POPUP',
      PHONE: '+31105550100',
      EMAIL: 'rotterdam@nordwind.example',
      LATITUDE: 51.92,
      LONGITUDE: 4.475,
      PICKUP: true,
      TIMEZONE: 'Europe/Amsterdam',
      DESCRIPTION: LANGS('Tijdelijke winkel', 'Pop-up store'),
      OPENINGHOURS: [{ WEEKDAY: 1, HOURS: [{ OPENS: '10:00', CLOSES: '18:00' }] }],
    },
  );
  await admin(
    'PUT /TV2/Admin/shops/{location}/assistants/{assistant}',
    { location: 'POPUP', assistant: '1' },
    {
      LOCATION: 'POPUP',
      ASSISTANT: 1,
      NAME: 'Sem de Boer',
      ROLE: LANGS('Verkoopadviseur', 'Sales adviser'),
    },
  );
  await admin(
    'PUT /TV2/Admin/pickuppoints/{point}',
    { point: 'PP-ROT-1' },
    {
      LOCATION: 'PP-ROT-1',
      NAME: 'Parcel point Rotterdam Centraal',
      CITY: 'Rotterdam',
      COUNTRY: 'NL',
      LATITUDE: 51.9244,
      LONGITUDE: 4.4695,
    },
  );
  await admin(
    'PUT /TV2/Admin/homepages/{page}/blocks/{block}',
    { page: 'HOME', block: '9' },
    {
      PAGE: 'HOME',
      BLOCK: 9,
      POSITION: 90,
      TITLE: LANGS('Nieuw in Rotterdam', 'New in Rotterdam'),
      LINK: 'tv2app://shops/POPUP',
    },
  );
  await admin(
    'PUT /TV2/Admin/regexes/{name}',
    { name: 'WEBORDER' },
    {
      NAME: 'WEBORDER',
      PATTERN: '^WEB-[0-9]{1,12}$',
      DESCRIPTION: LANGS('Webordernummer', 'Web order number'),
    },
  );
  await admin(
    'PUT /TV2/Admin/regexes/{name}/{country}',
    { name: 'VATNO', country: 'NL' },
    {
      NAME: 'VATNO',
      COUNTRY: 'NL',
      PATTERN: '^NL[0-9]{9}B[0-9]{2}$',
    },
  );

  // Pricing.
  await admin(
    'PUT /TV2/Admin/customers/{customer}',
    { customer: '10099' },
    {
      CUSTOMER: 10099,
      NAME: 'Boutique Voorbeeld',
      PRICEGROUP: 1,
      CURRENCY: 'EUR',
    },
  );
  const price = { ARTICLE: 'EX100-010', PRICETYPE: 'SELLING', PRICEGROUP: 1, CURRENCY: 'EUR', SIZEX: 'S' };
  await admin(
    'PUT /TV2/Admin/prices',
    {},
    {
      PRICES: [
        { ...price, PRICE: 19.95 },
        { ...price, SIZEX: 'M', PRICE: 19.95 },
      ],
    },
  );
  await admin('POST /TV2/Admin/prices/delete', {}, { PRICES: [{ ...price, SIZEX: 'M' }] });
  const agreement = {
    CUSTOMER: 10099,
    ARTICLE: 'EX100-010',
    MINQUANTITY: 1,
    VALIDFROM: '2026-01-01',
    VALIDTO: '2026-12-31',
    NETPRICES: [{ CURRENCY: 'EUR', PRICE: 15.5 }],
  };
  const made = await admin('POST /TV2/Admin/agreements', {}, agreement);
  const agreementId = String(made.ID);
  await admin('PUT /TV2/Admin/agreements/{id}', { id: agreementId }, { ...agreement, VALIDTO: '2027-06-30' });
  const line = { CUSTOMER: 10099, MODEL: 'EX100', DISCOUNTPERC: 5, VALIDFROM: '2026-01-01', VALIDTO: null };
  const discount = await admin('POST /TV2/Admin/linediscounts', {}, line);
  const discountId = String(discount.ID);
  await admin('PUT /TV2/Admin/linediscounts/{id}', { id: discountId }, { ...line, DISCOUNTPERC: 7.5 });
  const act = {
    ARTICLE: 'EX100-010',
    SIZEX: null,
    CURRENCY: 'EUR',
    PRICE: 14.95,
    STARTDATE: '2026-06-01',
    ENDDATE: '2026-06-30',
  };
  const actionPrice = await admin('POST /TV2/Admin/actionprices', {}, act);
  const actionId = String(actionPrice.ID);
  await admin('PUT /TV2/Admin/actionprices/{id}', { id: actionId }, { ...act, PRICE: 12.95 });
  await admin('DELETE /TV2/Admin/actionprices/{id}', { id: actionId });
  await admin('DELETE /TV2/Admin/linediscounts/{id}', { id: discountId });
  await admin('DELETE /TV2/Admin/agreements/{id}', { id: agreementId });

  // Customers.
  const address = {
    ADDRESS: 'Coolsingel',
    HOUSENUMBER: '40',
    POSTALCODE: '3011 AD',
    CITY: 'Rotterdam',
    COUNTRYPOST: 'NL',
    MAPAREA: '',
    POSTBOX: '',
  };
  await post('B2B_PostCustomer', {
    CUSTOMERDATA: {
      CUSTOMER: 10099,
      NAME: 'Boutique Voorbeeld',
      LANGUAGE: 'LANGUAGE_1',
      CURRENCY: 'EUR',
      PRICEGROUP: 1,
      PAYMENTDAYS: 30,
      REPRESENTATIVE: 'JDV',
      'INVOICE ADDRESSES': [{ ...address, EXTRAADDRESSNO: 0, VATNO: '' }],
    },
  });
  await post('B2B_PostDeliveryAddress', { DELIVERYADDRESSDATA: { CUSTOMER: 10099, ...address } });
  await admin(
    'PUT /TV2/Admin/customers/{customer}/details',
    { customer: '10099' },
    {
      CUSTOMER: 10099,
      NAME: 'Boutique Voorbeeld B.V.',
      CURRENCY: 'EUR',
      PRICEGROUP: 1,
      'DELIVERY ADDRESSES': [
        { ...address, EXTRAADDRESSNO: 1 },
        { ...address, HOUSENUMBER: '42', EXTRAADDRESSNO: 2 },
      ],
    },
  );
  await admin(
    'PUT /TV2/Admin/representatives/{representative}',
    { representative: 'EXR' },
    {
      REPRESENTATIVE: 'EXR',
      NAME: 'Eva Ramaekers',
      EMAIL: 'eva.ramaekers@example.com',
    },
  );
  const link = { CUSTOMER: 10099, ARTICLE: 'EX100-010' };
  await admin(
    'PUT /TV2/Admin/customerarticlelinks',
    {},
    { ARTICLELINKS: [{ ...link, CUSTOMERARTICLE: 'BV-0001', CUSTOMERDESCRIPTION: 'Shirt wit' }] },
  );
  await admin('POST /TV2/Admin/customerarticlelinks/delete', {}, { ARTICLELINKS: [link] });

  // Clients.
  const madeClient = await post('B2C_PostClient', {
    CLIENTDATA: {
      EMAIL: 'lotte.example@example.com',
      FIRSTNAME: 'Lotte',
      LASTNAME: 'Voorbeeld',
      POSTALCODE: '3011 AD',
      CITY: 'Rotterdam',
      COUNTRY: 'NL',
      LANGUAGE: 'LANGUAGE_1',
      CONSENTS: { NEWSLETTER: true, SMS: false, PROFILING: false },
    },
  });
  const newClient = String(madeClient.B2CPOSTCLIENT.CLIENT);
  if (png) {
    await post('B2C_PostProfilePhotoBase64', {
      PROFILEPHOTODATA: { CLIENT: Number(client), PHOTO: png.toString('base64'), CONTENTTYPE: 'image/png' },
    });
    await get('B2C_GetProfilePhotoBase64', { strclient: client });
    await get('B2C_GetMemberCardPhotoBase64', { strclient: client });
  }
  const claimable = s.actions.ACTIONS[0]?.ACTION;
  if (claimable !== undefined)
    await get('B2C_ClaimClientAction', { strclient: client, straction: String(claimable) });
  await admin(
    'PUT /TV2/Admin/clients/{client}',
    { client },
    { CLIENT: Number(client), PHONE: '+31612340000' },
  );
  await admin(
    'PUT /TV2/Admin/clients/{client}/onaccount/{documentno}',
    { client, documentno: 'OA-EXAMPLE-1' },
    {
      DOCUMENTTYPE: 'INVOICE',
      DOCUMENTDATE: '2026-03-01',
      DUEDATE: '2026-03-31',
      DESCRIPTION: 'Alterations',
      CURRENCY: 'EUR',
      AMOUNT: 25,
      OPEN: 25,
    },
  );
  await admin(
    'POST /TV2/Admin/clients/{client}/messages',
    { client },
    { SUBJECT: 'Your order is ready', BODY: 'Pick it up at the shop.' },
  );
  // The client's on-account items and messages, now that it has some.
  await get('B2C_GetClient_OpenOnAccount', { strclient: client });
  await get('B2C_GetClient_OnAccountDetail', { strclient: client, strlimit: '2' });
  await get('B2C_GetClient_OnAccountDetail', { strclient: client, strdocumentno: 'OA-EXAMPLE-1' });
  const messages = await get('B2C_GetUserMessages', { strclient: client, strlimit: '2' });
  const message = messages.B2CGETUSERMESSAGES.MESSAGES[0];
  await get('B2C_GetUserMessages', { strclient: client, strmessage: String(message.MESSAGENO) });
  await get('B2C_GetUserMessages', { strclient: client, strunread: '1' });
  await admin(
    'PUT /TV2/Admin/clientactions/{action}',
    { action: 'SPRING' },
    {
      DESCRIPTION: LANGS('Lentekorting', 'Spring discount'),
      VALIDFROM: '2026-03-01',
      VALIDTO: '2026-05-31',
      ACTIVE: true,
    },
  );
  await get('B2C_UpdateMarkedForDeletion', { strclient: newClient, strflag: '1' });

  await orderFlows(s);
}

async function orderFlows(s: Steps): Promise<void> {
  const { get, post, admin, size, customer, client, card } = s;
  // A wholesale order taken through its states, invoiced, credited and paid.
  const ordered = await post('B2B_PostOrdCus', {
    ORDERREQUEST: {
      ORDERHEADER: { CUSTOMER: customer, WEBORDER: 'PO-2026-0001', CURRENCY: 'EUR' },
      ORDERLINES: [{ BARCODE: size.BARCODE, QUANTITY: 2 }],
    },
  });
  const order = String(ordered.B2BPOSTORDCUS.ORDERNO);
  await admin('POST /TV2/Admin/orders/{order}/confirm', { order });
  await admin('POST /TV2/Admin/orders/{order}/start-picking', { order });
  const delivered = await admin(
    'POST /TV2/Admin/orders/{order}/deliveries',
    { order },
    {
      LINES: [{ LINE: 1, QUANTITY: 1 }],
      REFERENCE: 'DN-2026-0001',
    },
  );
  await admin('POST /TV2/Admin/orders/{order}/close', { order }, { CANCELREST: true });
  const deliveryNo = Number(delivered.DELIVERYNO);
  const invoice = await admin(
    'POST /TV2/Admin/billing/invoices',
    {},
    { CUSTOMER: Number(customer), DELIVERIES: [deliveryNo] },
  );
  const number = String(invoice.NUMBER);
  await admin('GET /TV2/Admin/billing/documents/{number}', { number });
  await s.call({ route: 'GET /TV2/Admin/billing/documents/{number}/pdf', params: { number } });
  await s.call({ route: 'GET /TV2/Admin/billing/documents/{number}/ubl', params: { number } });
  await s.call({ route: `${OP}B2B_GetInvoicePDF`, query: { strnumber: number, strcustomer: customer } });
  await get('B2B_GetInvoiceHistory', { strcustomer: customer, strscn: '0', strlimit: '2' });
  await get('B2B_GetUnsettledItems', { strcustomer: customer, strlimit: '2' });
  await admin(
    'POST /TV2/Admin/billing/invoices/{number}/credit-notes',
    { number },
    { LINES: [{ LINE: 1, QUANTITY: 1 }] },
  );
  await admin('POST /TV2/Admin/billing/credit-notes/run', {}, { CUSTOMER: Number(customer) });
  await admin(
    'POST /TV2/Admin/billing/payments',
    {},
    {
      DATE: '2026-03-15',
      AMOUNT: 10,
      CURRENCY: 'EUR',
      REFERENCE: `+++${number}+++`,
      EXTERNALID: 'BANK-2026-0001',
    },
  );

  // A second order cancelled; a third delivered and its delivery cancelled.
  const place = async (ref: string) => {
    const placed = await post('B2B_PostOrdCus', {
      ORDERREQUEST: {
        ORDERHEADER: { CUSTOMER: customer, WEBORDER: ref },
        ORDERLINES: [{ BARCODE: size.BARCODE, QUANTITY: 1 }],
      },
    });
    return String(placed.B2BPOSTORDCUS.ORDERNO);
  };
  await admin('POST /TV2/Admin/orders/{order}/cancel', { order: await place('PO-2026-0002') });
  const third = await place('PO-2026-0003');
  await admin('POST /TV2/Admin/orders/{order}/confirm', { order: third });
  await admin('POST /TV2/Admin/orders/{order}/start-picking', { order: third });
  const sent = await admin('POST /TV2/Admin/orders/{order}/deliveries', { order: third }, {});
  await admin('POST /TV2/Admin/deliveries/{delivery}/cancel', { delivery: String(sent.DELIVERYNO) });

  // A web order paid in part with a gift voucher, delivered, returned and received.
  const gift = await post('B2C_PostNewGiftVoucher', {
    GIFTVOUCHERDATA: { AMOUNT: 10, CURRENCY: 'EUR', EMAIL: 'gift@example.com', WEBID: 'GIFT-2026-0001' },
  });
  const giftCode = String(gift.B2CPOSTNEWGIFTVOUCHER.VOUCHER.CODE);
  await get('B2C_ValidateVoucher', { strcode: giftCode });
  await get('B2C_ValidateVoucher', { strcode: giftCode, strcurrency: 'EUR' });
  const web = await post('B2C_PostWebOrder', {
    WEBORDERDATA: {
      CLIENT: Number(client),
      WEBORDER: 'WEB-2026-0001',
      CURRENCY: 'EUR',
      PAYMENTREFERENCE: 'PSP-2026-0001',
      DELIVERY: 'PICKUP',
      PICKUPLOCATION: 'AMS',
      TENDERS: [{ TYPE: 'VOUCHER', CODE: giftCode, AMOUNT: 5 }],
      ORDERLINES: [{ BARCODE: size.BARCODE, QUANTITY: 1 }],
    },
  });
  const webOrder = String(web.B2CPOSTWEBORDER.ORDERNO);
  await admin('POST /TV2/Admin/orders/{order}/confirm', { order: webOrder });
  await admin('POST /TV2/Admin/orders/{order}/start-picking', { order: webOrder });
  await admin('POST /TV2/Admin/orders/{order}/deliveries', { order: webOrder }, {});
  const returned = await post('B2C_GetReturnLocation', {
    RETURNREQUEST: {
      CLIENT: Number(client),
      ORDERNO: Number(webOrder),
      LINES: [{ LINE: 1, QUANTITY: 1 }],
      REASON: 'Too small',
    },
  });
  const returnNo = String(returned.B2CGETRETURNLOCATION.RETURNNO);
  await admin('POST /TV2/Admin/returns/{return}/receive', { return: returnNo });
  await get('B2C_GetClient_Purchase', { strclient: client, strlimit: '2' });
  await post('B2C_CloseClientOrder', {
    CLOSECLIENTORDER: { CLIENT: Number(client), ORDERNO: Number(webOrder) },
  });

  // Vouchers, cheques, bonus card.
  await post('B2C_PostCashedVoucher', {
    CASHEDVOUCHERDATA: { CODE: giftCode, AMOUNT: 2.5, CURRENCY: 'EUR', REFERENCE: 'POS-2026-0001' },
  });
  await post('B2C_PostNewCreditNoteVoucher', {
    CREDITVOUCHERDATA: { AMOUNT: 15, CLIENT: Number(client), CURRENCY: 'EUR', WEBID: 'CN-2026-0001' },
  });
  const cheque = s.cheques.CHEQUES[0];
  if (cheque?.CODE) {
    await post('B2C_PostCashedClientCheque', {
      CASHEDCLIENTCHEQUEDATA: {
        CLIENT: Number(client),
        CODE: cheque.CODE,
        AMOUNT: 1,
        CURRENCY: 'EUR',
        REFERENCE: 'POS-2026-0002',
      },
    });
  }
  await post('B2C_UpdateBonusCardValue', {
    CARDNO: Number(card),
    CARDVALUE: 2.5,
    DATE: '2026-03-15',
    WEBORDER: 'WEB-2026-0001',
  });
  const voucher = await admin(
    'POST /TV2/Admin/vouchers',
    {},
    {
      KIND: 'GIFT_VOUCHER',
      AMOUNT: 20,
      CURRENCY: 'EUR',
      WEBID: 'SHOP-GIFT-0001',
      VALIDUNTIL: '2027-12-31',
    },
  );
  const code = String(voucher.VOUCHER.CODE);
  await admin('GET /TV2/Admin/vouchers/{code}', { code });
  await admin('PUT /TV2/Admin/vouchers/{code}/blocked', { code }, { BLOCKED: true });
  await admin('PUT /TV2/Admin/vouchers/{code}/validuntil', { code }, { VALIDUNTIL: '2028-06-30' });
  await admin('GET /TV2/Admin/tenderliability');
  await admin('POST /TV2/Admin/tenders/expire');
}
