import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B', 'ADMIN']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S', 'M']));
  await t.services.catalog.saveArticle(article('Z1-1'));
  await t.services.stock.locations.createLocation({
    code: 'WH',
    name: 'Warehouse',
    kind: 'WAREHOUSE',
    servesWholesale: true,
    servesRetail: true,
  });
  await t.services.stock.ledger.receive({
    locationCode: 'WH',
    articleNo: 'Z1-1',
    sizex: 'S',
    quantity: 3,
    reference: 'receipt',
  });
  await t.services.pricing.listPrices.setListPrices([
    { articleNo: 'Z1-1', priceType: 'SELLING', priceGroup: 2, currency: 'EUR', sizex: 'S', priceMinor: 1000 },
    { articleNo: 'Z1-1', priceType: 'SELLING', priceGroup: 2, currency: 'EUR', sizex: 'M', priceMinor: 1000 },
  ]);
});
afterAll(() => t.close());

const deleteArticle = () =>
  t.app.inject({
    method: 'DELETE',
    url: '/TV2/Admin/articles/Z1-1',
    headers: { authorization: `Bearer ${token}` },
  });

describe('deleting an article', () => {
  it('is refused while stock of it is on hand or reserved', async () => {
    const res = await deleteArticle();
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ARTICLE_HAS_STOCK', detail: expect.stringContaining('WH') });
    await t.services.stock.stockTake.correct({
      locationCode: 'WH',
      articleNo: 'Z1-1',
      sizex: 'S',
      setTo: 0,
      reference: 'write-off',
    });
    await t.services.stock.ledger.receive({ locationCode: 'WH', articleNo: 'Z1-1', sizex: 'M', quantity: 1 });
    await t.services.stock.ledger.reserve({ locationCode: 'WH', articleNo: 'Z1-1', sizex: 'M', quantity: 1 });
    await t.services.stock.ledger.ship({ locationCode: 'WH', articleNo: 'Z1-1', sizex: 'M', quantity: 1 });
  });

  it('takes its list prices with it, reported as deleted by the price feeds', async () => {
    const before = (await t.call('GET', 'B2B_GetPriceChanges', { token, query: { strscn: '0' } })).json()
      .B2BGETPRICECHANGES.SCN;
    expect((await deleteArticle()).statusCode).toBe(204);
    const changes = (
      await t.call('GET', 'B2B_GetPriceChanges', { token, query: { strscn: String(before) } })
    ).json().B2BGETPRICECHANGES;
    expect(changes.PRICES).toEqual([]);
    expect(changes.DELETED.map((d: { SIZEX: string }) => d.SIZEX).sort()).toEqual(['M', 'S']);
    const all = (await t.call('GET', 'B2B_GetAllPrices', { token, query: { strscn: String(before) } })).json()
      .B2BGETPRICE;
    expect(all.DELETED).toEqual(['Z1-1']);
  });
});
