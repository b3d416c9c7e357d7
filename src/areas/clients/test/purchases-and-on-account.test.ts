import { describe, expect, it } from 'vitest';
import { clientsContext } from './clients-context.ts';

const ctx = clientsContext();
const { create, get } = ctx;

describe('purchases', () => {
  it('is an empty list until purchases are recorded, then lists them with lines; recording is idempotent', async () => {
    const no = await create();
    const empty = (await get('B2C_GetClient_Purchase', { strclient: String(no) })).B2CGETCLIENTPURCHASE;
    expect(empty).toMatchObject({ CLIENT: no, PURCHASES: [], NEXTOFFSET: null, DELETED: [] });

    const purchase = {
      clientNo: no,
      source: 'SHOP' as const,
      shopCode: 'AMS',
      reference: `R-${no}-1`,
      purchasedAt: '2026-03-01T10:15:00Z',
      currency: 'EUR',
      lines: [
        { articleNo: 'A100-010', sizex: 'M', quantity: 2, unitPriceMinor: 1999, amountMinor: 3598 },
        { articleNo: 'A200-010', sizex: 'L', quantity: 1, unitPriceMinor: 4995, amountMinor: 4495 },
      ],
    };
    const first = await ctx.t.services.clients.purchases.recordPurchase(purchase);
    expect(first.recorded).toBe(true);
    expect(await ctx.t.services.clients.purchases.recordPurchase(purchase)).toEqual({
      purchaseNo: first.purchaseNo,
      recorded: false,
    });
    const web = await ctx.t.services.clients.purchases.recordPurchase({
      ...purchase,
      source: 'WEB',
      shopCode: null,
      reference: `W-${no}`,
    });

    const list = (await get('B2C_GetClient_Purchase', { strclient: String(no), strlimit: '1' }))
      .B2CGETCLIENTPURCHASE;
    // The purchase number is the paging position: NEXTOFFSET names the next purchase.
    expect(list.NEXTOFFSET).toBe(web.purchaseNo);
    expect(list.PURCHASES).toEqual([
      {
        PURCHASENO: first.purchaseNo,
        SOURCE: 'SHOP',
        SHOP: 'AMS',
        REFERENCE: `R-${no}-1`,
        DATE: '2026-03-01T10:15:00Z',
        CURRENCY: 'EUR',
        TOTAL: 80.93,
        LINES: [
          { LINENO: 1, ARTICLE: 'A100-010', SIZEX: 'M', QUANTITY: 2, PRICE: 19.99, AMOUNT: 35.98 },
          { LINENO: 2, ARTICLE: 'A200-010', SIZEX: 'L', QUANTITY: 1, PRICE: 49.95, AMOUNT: 44.95 },
        ],
        SCN: expect.any(Number),
      },
    ]);
    const second = (
      await get('B2C_GetClient_Purchase', { strclient: String(no), stroffset: String(list.NEXTOFFSET) })
    ).B2CGETCLIENTPURCHASE;
    expect(second.PURCHASES.map((p: { SOURCE: string }) => p.SOURCE)).toEqual(['WEB']);
    const since = (
      await get('B2C_GetClient_Purchase', { strclient: String(no), strscn: String(list.PURCHASES[0].SCN) })
    ).B2CGETCLIENTPURCHASE;
    expect(since.PURCHASES.map((p: { SOURCE: string }) => p.SOURCE)).toEqual(['WEB']);

    const other = await create();
    await expect(
      ctx.t.services.clients.purchases.recordPurchase({ ...purchase, clientNo: other }),
    ).rejects.toMatchObject({
      code: 'PURCHASE_REFERENCE_TAKEN',
    });
  });
});

describe('on-account entries', () => {
  it('lists open items with totals per currency, and the detail of every entry', async () => {
    const no = await create();
    const entry = {
      clientNo: no,
      documentType: 'INVOICE' as const,
      currency: 'EUR',
    };
    await ctx.t.services.clients.purchases.saveOnAccountEntry({
      ...entry,
      documentNo: `INV-${no}-1`,
      documentDate: '2026-01-10',
      dueDate: '2026-02-10',
      description: 'Order 1',
      amountMinor: 12_550,
      openMinor: 12_550,
    });
    await ctx.t.services.clients.purchases.saveOnAccountEntry({
      ...entry,
      documentNo: `INV-${no}-2`,
      documentDate: '2026-01-20',
      amountMinor: 5000,
      openMinor: 0,
    });
    await ctx.t.services.clients.purchases.saveOnAccountEntry({
      ...entry,
      documentNo: `CN-${no}-1`,
      documentType: 'CREDITNOTE',
      documentDate: '2026-01-25',
      amountMinor: -1001,
      openMinor: -1001,
    });
    await ctx.t.services.clients.purchases.saveOnAccountEntry({
      ...entry,
      documentNo: `INV-${no}-3`,
      documentDate: '2026-01-26',
      currency: 'GBP',
      amountMinor: 700,
      openMinor: 300,
    });

    const open = (await get('B2C_GetClient_OpenOnAccount', { strclient: String(no) }))
      .B2CGETCLIENTOPENONACCOUNT;
    expect(open.TOTALS).toEqual([
      { CURRENCY: 'EUR', OPEN: 115.49 },
      { CURRENCY: 'GBP', OPEN: 3 },
    ]);
    expect(open.ITEMS.map((i: { DOCUMENTNO: string }) => i.DOCUMENTNO)).toEqual([
      `INV-${no}-1`,
      `CN-${no}-1`,
      `INV-${no}-3`,
    ]);
    expect(open.ITEMS[0]).toMatchObject({
      DOCUMENTTYPE: 'INVOICE',
      DATE: '2026-01-10',
      DUEDATE: '2026-02-10',
      DESCRIPTION: 'Order 1',
      AMOUNT: 125.5,
      OPEN: 125.5,
      SETTLED: false,
    });

    const detail = (await get('B2C_GetClient_OnAccountDetail', { strclient: String(no), strlimit: '3' }))
      .B2CGETCLIENTONACCOUNTDETAIL;
    expect(detail.ITEMS).toHaveLength(3);
    expect(detail.ITEMS[1]).toMatchObject({ DOCUMENTNO: `INV-${no}-2`, OPEN: 0, SETTLED: true });
    expect(detail.NEXTOFFSET).toBe(4);
    const one = (
      await get('B2C_GetClient_OnAccountDetail', { strclient: String(no), strdocumentno: `CN-${no}-1` })
    ).B2CGETCLIENTONACCOUNTDETAIL;
    expect(one.ITEMS).toEqual([expect.objectContaining({ AMOUNT: -10.01, DOCUMENTTYPE: 'CREDITNOTE' })]);
    const unknown = await ctx.t.call('GET', 'B2C_GetClient_OnAccountDetail', {
      token: ctx.token,
      query: { strclient: String(no), strdocumentno: 'NOPE' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('DOCUMENT_NOT_FOUND');

    await expect(
      ctx.t.services.clients.purchases.saveOnAccountEntry({
        ...entry,
        documentNo: `X-${no}`,
        documentDate: '2026-01-01',
        amountMinor: 100,
        openMinor: 200,
      }),
    ).rejects.toMatchObject({ errors: [{ name: '/OPEN' }] });
    const other = await create();
    await expect(
      ctx.t.services.clients.purchases.saveOnAccountEntry({
        ...entry,
        clientNo: other,
        documentNo: `INV-${no}-1`,
        documentDate: '2026-01-01',
        amountMinor: 100,
        openMinor: 100,
      }),
    ).rejects.toMatchObject({ code: 'DOCUMENT_TAKEN' });
  });
});
