/**
 * How the typed client pages and follows feeds (docs/architecture.md "Paging"), against a fake
 * server that records each query: NEXTOFFSET is passed back as it is; within a pass a list feed
 * keeps the pass's strscn and the next pass starts from the first page's SCN; the order state
 * feeds are cursors, each page passing its own SCN with its NEXTOFFSET.
 */
import { describe, expect, it } from 'vitest';
import { createTv2Client } from '../client/index.ts';

/** Answers `pages` in turn under `root`, and records each query it was asked. */
function scripted(root: string, pages: Array<Record<string, unknown>>) {
  const queries: Array<Record<string, string>> = [];
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    if (url.pathname === '/TV2/GetToken') {
      return Response.json({ GETTOKEN: { TOKEN: 't', TOKEN_TYPE: 'Bearer', EXPIRES_IN: 3600, EXPIRES: '' } });
    }
    queries.push(Object.fromEntries(url.searchParams));
    const page = pages.shift() ?? { SCN: 99, NEXTOFFSET: null, PRICES: [], CHANGES: [], DELETED: [] };
    return Response.json({ [root]: page });
  };
  return { queries, client: createTv2Client({ baseUrl: 'http://tv2.test', user: 'u', secret: 's', fetch }) };
}

const price = (SIZEX: string) => ({
  ARTICLE: 'A',
  PRICETYPE: 'SELLING',
  PRICEGROUP: 1,
  CURRENCY: 'EUR',
  SIZEX,
});

describe('the typed client pages', () => {
  it('follows NEXTOFFSET to the last page and keeps the first page SCN for the next pass', async () => {
    const { queries, client } = scripted('B2BGETPRICECHANGES', [
      { SCN: 10, NEXTOFFSET: 7, PRICES: [price('S')], DELETED: [] },
      { SCN: 12, NEXTOFFSET: 31, PRICES: [price('M')], DELETED: [price('L')] },
      { SCN: 13, NEXTOFFSET: null, PRICES: [], DELETED: [] },
    ]);
    const all = await client.listAll('B2B_GetPriceChanges', { strscn: '5', strlimit: '1' });
    expect(queries).toEqual([
      { strscn: '5', strlimit: '1' },
      { strscn: '5', strlimit: '1', stroffset: '7' },
      { strscn: '5', strlimit: '1', stroffset: '31' },
    ]);
    expect(all.records.map((p) => p.SIZEX)).toEqual(['S', 'M']);
    expect(all.deleted).toEqual([price('L')]);
    expect(all.scn).toBe(10);
  });

  it('follows a list feed pass after pass from the first page SCN of each', async () => {
    const { queries, client } = scripted('B2BGETPRICECHANGES', [
      { SCN: 10, NEXTOFFSET: 7, PRICES: [price('S')], DELETED: [] },
      { SCN: 12, NEXTOFFSET: null, PRICES: [price('M')], DELETED: [] },
      { SCN: 15, NEXTOFFSET: null, PRICES: [price('L')], DELETED: [] },
    ]);
    const batches = [];
    for await (const batch of client.follow('B2B_GetPriceChanges', { scn: 5, intervalMs: 0 })) {
      batches.push({ sizes: batch.records.map((p) => p.SIZEX), scn: batch.scn, caughtUp: batch.caughtUp });
      if (batches.length === 3) break;
    }
    expect(batches).toEqual([
      { sizes: ['S'], scn: 5, caughtUp: false },
      { sizes: ['M'], scn: 10, caughtUp: true },
      { sizes: ['L'], scn: 15, caughtUp: true },
    ]);
    expect(queries.map((q) => [q.strscn, q.stroffset])).toEqual([
      ['5', undefined],
      ['5', '7'],
      ['10', undefined],
    ]);
  });

  it('follows an order state feed as a cursor: each page passes its own SCN', async () => {
    const { queries, client } = scripted('B2BGETORDERSTATECHANGES', [
      { SCN: 20, NEXTOFFSET: 101, CHANGES: [{ CHANGE: 100 }] },
      { SCN: 23, NEXTOFFSET: null, CHANGES: [{ CHANGE: 101 }] },
    ]);
    const all = await client.listAll('B2B_GetOrderStateChanges', { strscn: '0', strlimit: '1' });
    expect(queries.map((q) => [q.strscn, q.stroffset])).toEqual([
      ['0', undefined],
      ['20', '101'],
    ]);
    expect(all.records).toHaveLength(2);
    expect(all.scn).toBe(23);
  });
});
