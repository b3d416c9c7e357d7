import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { expectProblem, tendersContext } from './tenders-context.ts';

const ctx = tendersContext();
let cardCounter = 40_000_000 + Math.floor(Math.random() * 1_000_000);

const update = (body: Record<string, unknown>, token = ctx.shop) =>
  ctx.t.call('POST', 'B2C_UpdateBonusCardValue', { token, body: { DATE: '2026-11-26', ...body } });
const value = (cardNo: number, token = ctx.shop) =>
  ctx.t.call('GET', 'B2C_GetBonusCardValue', { token, query: { strcardno: String(cardNo) } });
const history = (cardNo: number, token = ctx.shop, query: Record<string, string> = {}) =>
  ctx.t.call('GET', 'B2C_BonuscardHistory', { token, query: { strcardno: String(cardNo), ...query } });

async function clientWithEmail(): Promise<{ clientNo: number; email: string }> {
  const email = `${ctx.unique('card')}@example.nl`;
  const { clientNo } = await ctx.t.services.clients.profiles.saveClient({ email, lastName: 'Card' });
  return { clientNo, email };
}

describe(`bonus cards (${ENGINE})`, () => {
  it('adds signed CARDVALUEs once per (CARDNO, WEBORDER); value and history always agree', async () => {
    const { clientNo, email } = await clientWithEmail();
    const cardNo = ++cardCounter;
    const first = await update({ CARDNO: cardNo, CARDVALUE: 5, EMAIL: email, WEBORDER: 'WEB-1' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().B2CUPDATEBONUSCARDVALUE).toEqual({
      CARDNO: cardNo,
      CARDVALUE: 5,
      CHANGE: 5,
      CURRENCY: 'EUR',
      VALIDUNTIL: '9999-12-31',
      DATE: '2026-11-26',
      WEBORDER: 'WEB-1',
      CREATED: true,
    });
    expect(
      (await update({ CARDNO: cardNo, CARDVALUE: 2.5, WEBORDER: 'WEB-2' })).json().B2CUPDATEBONUSCARDVALUE
        .CARDVALUE,
    ).toBe(7.5);
    const spend = await update({ CARDNO: cardNo, CARDVALUE: -4, WEBORDER: 'WEB-3' });
    expect(spend.json().B2CUPDATEBONUSCARDVALUE).toMatchObject({ CARDVALUE: 3.5, CHANGE: -4, CREATED: true });
    // A repeat answers the first update; another amount under the same WEBORDER is refused.
    const again = await update({ CARDNO: cardNo, CARDVALUE: -4, WEBORDER: 'WEB-3' });
    expect(again.json().B2CUPDATEBONUSCARDVALUE).toEqual({
      ...spend.json().B2CUPDATEBONUSCARDVALUE,
      CREATED: false,
    });
    expectProblem(
      await update({ CARDNO: cardNo, CARDVALUE: -3, WEBORDER: 'WEB-3' }),
      409,
      'TENDER_KEY_REUSED',
    );
    expectProblem(
      await update({ CARDNO: cardNo, CARDVALUE: -3.51, WEBORDER: 'WEB-4' }),
      409,
      'BONUS_VALUE_REFUSED',
    );
    expectProblem(
      await update({ CARDNO: cardNo, CARDVALUE: 0, WEBORDER: 'WEB-5' }),
      400,
      'VALIDATION_FAILED',
    );

    const v = (await value(cardNo)).json().B2CGETBONUSCARDVALUE;
    expect(v).toMatchObject({
      CARDNO: cardNo,
      CARDVALUE: 3.5,
      CLIENT: clientNo,
      VALIDUNTIL: '9999-12-31',
      BLOCKED: false,
    });
    const h = (await history(cardNo)).json().B2CBONUSCARDHISTORY;
    expect(h.CARDVALUE).toBe(3.5);
    expect(h.ENTRIES.map((e: { CHANGE: number; CARDVALUE: number }) => [e.CHANGE, e.CARDVALUE])).toEqual([
      [5, 5],
      [2.5, 7.5],
      [-4, 3.5],
    ]);
    expect(h.NEXTOFFSET).toBeNull();
    const paged = (await history(cardNo, ctx.shop, { strlimit: '2' })).json().B2CBONUSCARDHISTORY;
    expect(paged.ENTRIES).toHaveLength(2);
    const rest = (
      await history(cardNo, ctx.shop, { strlimit: '2', stroffset: String(paged.NEXTOFFSET) })
    ).json().B2CBONUSCARDHISTORY;
    expect(rest.ENTRIES.map((e: { WEBORDER: string }) => e.WEBORDER)).toEqual(['WEB-3']);
  });

  it('never creates a card from a spending, and refuses an unknown EMAIL and unknown cards', async () => {
    const cardNo = ++cardCounter;
    expectProblem(await update({ CARDNO: cardNo, CARDVALUE: -1, WEBORDER: 'W' }), 409, 'BONUS_VALUE_REFUSED');
    expectProblem(await value(cardNo), 404, 'BONUS_CARD_NOT_FOUND');
    expectProblem(
      await update({ CARDNO: cardNo, CARDVALUE: 1, EMAIL: 'nobody@example.nl', WEBORDER: 'W' }),
      404,
      'CLIENT_NOT_FOUND',
    );
    expectProblem(await history(cardNo), 404, 'BONUS_CARD_NOT_FOUND');
  });

  it('shows a confined token its own card only, and lets it change no value', async () => {
    const mine = await clientWithEmail();
    const other = await clientWithEmail();
    const myCard = ++cardCounter;
    const theirCard = ++cardCounter;
    await update({ CARDNO: myCard, CARDVALUE: 3, EMAIL: mine.email, WEBORDER: 'W1' });
    await update({ CARDNO: theirCard, CARDVALUE: 3, EMAIL: other.email, WEBORDER: 'W1' });
    const app = await ctx.t.tokenFor(['B2C'], { clientNo: mine.clientNo });
    expect((await value(myCard, app)).json().B2CGETBONUSCARDVALUE.CARDVALUE).toBe(3);
    expect((await history(myCard, app)).statusCode).toBe(200);
    expectProblem(await value(theirCard, app), 403, 'OUTSIDE_SCOPE');
    expectProblem(await history(theirCard, app), 403, 'OUTSIDE_SCOPE');
    expectProblem(await value(++cardCounter, app), 403, 'OUTSIDE_SCOPE');
    expectProblem(
      await update({ CARDNO: myCard, CARDVALUE: 100, WEBORDER: 'SELF' }, app),
      403,
      'TENDER_ISSUE_NOT_PERMITTED',
    );
  });

  it('keeps a blocked card’s value as it is', async () => {
    const cardNo = ++cardCounter;
    await update({ CARDNO: cardNo, CARDVALUE: 4, WEBORDER: 'W1' });
    await ctx.t.send(ctx.admin, 'PUT', `/TV2/Admin/vouchers/${cardNo}/blocked`, { BLOCKED: true });
    expectProblem(await update({ CARDNO: cardNo, CARDVALUE: 1, WEBORDER: 'W2' }), 409, 'BONUS_VALUE_REFUSED');
    expect((await value(cardNo)).json().B2CGETBONUSCARDVALUE).toMatchObject({ CARDVALUE: 4, BLOCKED: true });
  });
});
