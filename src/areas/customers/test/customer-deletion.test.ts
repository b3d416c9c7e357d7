import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, sizeTable } from '../../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.tokenFor(['B2B', 'ADMIN']);
  await t.services.catalog.saveSizeTable(sizeTable('CONF', ['S']));
  await t.services.catalog.saveArticle(article('Y1-1', { sizes: [] }));
  await t.services.customers.representatives.saveRepresentative({ code: 'REP1', name: 'Rep One' });
  await t.services.customers.customers.saveCustomerDetails({
    customerNo: 30001,
    name: 'Leaving Ltd',
    priceGroup: 2,
    currency: 'EUR',
    representative: 'REP1',
  });
  await t.services.customers.articleLinks.saveArticleLinks([
    { customerNo: 30001, articleNo: 'Y1-1', customerArticleNo: 'L-1' },
  ]);
});
afterAll(() => t.close());

const get = async (op: string, query: Record<string, string>) =>
  (await t.call('GET', op, { token, query })).json();

describe('deleting a customer', () => {
  it('takes its article links and its place with its representative with it, in every feed', async () => {
    const since = String((await get('B2B_GetAllCustomers', {})).B2BGETALLCUSTOMERS.SCN);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/TV2/Admin/customers/30001',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(204);
    expect((await get('B2B_GetAllCustomers', { strscn: since })).B2BGETALLCUSTOMERS.DELETED).toEqual([30001]);
    expect(
      (await get('B2B_GetAllCustomerArticleLink', { strscn: since })).B2BGETALLCUSTOMERARTICLELINK.DELETED,
    ).toEqual([{ CUSTOMER: 30001, ARTICLE: 'Y1-1' }]);
    const ofRep = (await get('B2B_GetRepresentativeCustomers', { strrepresentative: 'REP1', strscn: since }))
      .B2BGETREPRESENTATIVECUSTOMERS;
    expect(ofRep.DELETED).toEqual([30001]);
    const again = await t.app.inject({
      method: 'DELETE',
      url: '/TV2/Admin/customers/30001',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(again.json().code).toBe('CUSTOMER_NOT_FOUND');
  });
});
