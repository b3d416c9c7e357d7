import { describe, expect, it } from 'vitest';
import { clientsContext } from './clients-context.ts';

/**
 * Paging by stable position (docs/clients.md): a client's purchases page by purchase number and its
 * messages by a position that grows from the newest message to the oldest, so walking NEXTOFFSET
 * gives every record exactly once with full pages, and a message read during a pass of the unread
 * ones never shifts an unread one into a page already read.
 */

const ctx = clientsContext();
const { create, get } = ctx;

/** Follows NEXTOFFSET from stroffset `from` to the end: the keys of the records and the page sizes. */
async function walk(op: string, list: string, key: string, query: Record<string, string>, from = 1) {
  const keys: number[] = [];
  const sizes: number[] = [];
  let offset: number | null = from;
  while (offset !== null) {
    const body = Object.values(await get(op, { ...query, stroffset: String(offset) }))[0] as Record<
      string,
      unknown
    >;
    const records = body[list] as Array<Record<string, number>>;
    keys.push(...records.map((r) => r[key] as number));
    sizes.push(records.length);
    const next = body.NEXTOFFSET as number | null;
    if (next !== null) expect(next).toBeGreaterThan(offset);
    offset = next;
  }
  return { keys, sizes };
}

const line = { articleNo: 'A100-010', sizex: 'M', quantity: 1, unitPriceMinor: 1000, amountMinor: 1000 };

describe('paging by stable position', () => {
  it("walks a client's purchases once each, in full pages, whatever other clients bought in between", async () => {
    const mine = await create();
    const other = await create();
    const bought: number[] = [];
    for (let i = 1; i <= 7; i++) {
      const record = (clientNo: number, reference: string) =>
        ctx.t.services.clients.purchases.recordPurchase({
          clientNo,
          source: 'SHOP',
          shopCode: 'AMS',
          reference,
          purchasedAt: '2026-03-01T10:15:00Z',
          currency: 'EUR',
          lines: [line],
        });
      bought.push((await record(mine, `P-${mine}-${i}`)).purchaseNo);
      await record(other, `P-${other}-${i}`);
    }
    const walked = await walk('B2C_GetClient_Purchase', 'PURCHASES', 'PURCHASENO', {
      strclient: String(mine),
      strlimit: '3',
    });
    expect(walked.keys).toEqual(bought);
    expect(walked.sizes).toEqual([3, 3, 1]);
    // NEXTOFFSET is a purchase number, not a count: the second page starts at the fourth purchase.
    const first = (await get('B2C_GetClient_Purchase', { strclient: String(mine), strlimit: '3' }))
      .B2CGETCLIENTPURCHASE;
    expect(first.NEXTOFFSET).toBe(bought[3]);
  });

  it('walks messages newest first once each; reading some during a pass of the unread ones shifts nothing', async () => {
    const no = await create();
    const sent: number[] = [];
    for (let i = 1; i <= 8; i++) {
      sent.push(
        (await ctx.t.services.clients.messages.sendMessage(no, { subject: `M${i}`, body: 'x' })).messageNo,
      );
    }
    const newestFirst = [...sent].reverse();
    const all = await walk('B2C_GetUserMessages', 'MESSAGES', 'MESSAGENO', {
      strclient: String(no),
      strlimit: '3',
    });
    expect(all.keys).toEqual(newestFirst);
    expect(all.sizes).toEqual([3, 3, 2]);

    const first = (await get('B2C_GetUserMessages', { strclient: String(no), strunread: '1', strlimit: '3' }))
      .B2CGETUSERMESSAGES;
    expect(first.MESSAGES.map((m: { MESSAGENO: number }) => m.MESSAGENO)).toEqual(newestFirst.slice(0, 3));
    // The app opens two of the messages it listed: they are read now, no longer unread.
    for (const m of newestFirst.slice(0, 2)) await ctx.t.services.clients.messages.readMessage(no, m);
    const rest = await walk(
      'B2C_GetUserMessages',
      'MESSAGES',
      'MESSAGENO',
      { strclient: String(no), strunread: '1', strlimit: '3' },
      first.NEXTOFFSET,
    );
    // The fourth newest is still the next one: none was skipped.
    expect(rest.keys).toEqual(newestFirst.slice(3));
    expect(rest.sizes).toEqual([3, 2]);
  });
});
