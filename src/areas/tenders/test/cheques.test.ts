import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { expectProblem, tendersContext } from './tenders-context.ts';

const ctx = tendersContext();

async function cheque(clientNo: number, amount: number): Promise<string> {
  const res = await ctx.t.send(ctx.admin, 'POST', '/TV2/Admin/vouchers', {
    KIND: 'CLIENT_CHEQUE',
    AMOUNT: amount,
    CLIENT: clientNo,
    WEBID: ctx.unique('CHQ'),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().VOUCHER.CODE;
}

const cashCheque = (body: Record<string, unknown>, token = ctx.shop) =>
  ctx.t.call('POST', 'B2C_PostCashedClientCheque', { token, body: { CASHEDCLIENTCHEQUEDATA: body } });

describe(`client cheques (${ENGINE})`, () => {
  it('are issued by the back office to one client and listed while open', async () => {
    const clientNo = await ctx.newClient();
    const noClient = await ctx.t.send(ctx.admin, 'POST', '/TV2/Admin/vouchers', {
      KIND: 'CLIENT_CHEQUE',
      AMOUNT: 5,
      WEBID: ctx.unique('CHQ'),
    });
    expectProblem(noClient, 400, 'VALIDATION_FAILED');
    const code = await cheque(clientNo, 5);
    const list = await ctx.t.call('GET', 'B2C_GetOpenClientCheque', {
      token: ctx.shop,
      query: { strclient: String(clientNo) },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().B2CGETOPENCLIENTCHEQUE).toMatchObject({
      CLIENT: clientNo,
      CHEQUES: [{ CODE: code, KIND: 'CLIENT_CHEQUE', CLIENT: clientNo, BALANCE: 5 }],
    });
    expect(list.json().B2CGETOPENCLIENTCHEQUE.CHEQUES[0].VALIDUNTIL).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('are cashed once per reference, by their client only, and never as a voucher', async () => {
    const mine = await ctx.newClient();
    const other = await ctx.newClient();
    const code = await cheque(mine, 5);
    const reference = ctx.unique('POS');
    const first = await cashCheque({ CLIENT: mine, CODE: code, AMOUNT: 2, REFERENCE: reference });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().B2CPOSTCASHEDCLIENTCHEQUE).toMatchObject({
      KIND: 'CLIENT_CHEQUE',
      BALANCE: 3,
      CREATED: true,
    });
    const again = await cashCheque({ CLIENT: mine, CODE: code, AMOUNT: 2, REFERENCE: reference });
    expect(again.json().B2CPOSTCASHEDCLIENTCHEQUE).toEqual({
      ...first.json().B2CPOSTCASHEDCLIENTCHEQUE,
      CREATED: false,
    });
    expectProblem(
      await cashCheque({ CLIENT: other, CODE: code, AMOUNT: 1, REFERENCE: ctx.unique('POS') }),
      409,
      'VOUCHER_NOT_USABLE',
    );
    expectProblem(await ctx.cash(code, 1, ctx.unique('POS')), 409, 'VOUCHER_NOT_USABLE');
    expectProblem(
      await cashCheque({ CLIENT: mine, CODE: code, AMOUNT: 4, REFERENCE: ctx.unique('POS') }),
      409,
      'VOUCHER_BALANCE_INSUFFICIENT',
    );
    expectProblem(
      await cashCheque({ CODE: code, AMOUNT: 1, REFERENCE: ctx.unique('POS') }),
      400,
      'VALIDATION_FAILED',
    );
    expect((await ctx.ledger(code)).balance).toBe(3);
  });

  it('are seen and used by a confined token only when its own', async () => {
    const mine = await ctx.newClient();
    const other = await ctx.newClient();
    const app = await ctx.t.tokenFor(['B2C'], { clientNo: mine });
    const own = await cheque(mine, 4);
    const theirs = await cheque(other, 4);
    const list = await ctx.t.call('GET', 'B2C_GetOpenClientCheque', { token: app });
    expect(list.json().B2CGETOPENCLIENTCHEQUE.CHEQUES.map((c: { CODE: string }) => c.CODE)).toEqual([own]);
    expectProblem(
      await ctx.t.call('GET', 'B2C_GetOpenClientCheque', { token: app, query: { strclient: String(other) } }),
      403,
      'OUTSIDE_SCOPE',
    );
    expect((await cashCheque({ CODE: own, AMOUNT: 4, REFERENCE: ctx.unique('APP') }, app)).statusCode).toBe(
      200,
    );
    expectProblem(
      await cashCheque({ CODE: theirs, AMOUNT: 1, REFERENCE: ctx.unique('APP') }, app),
      409,
      'VOUCHER_NOT_USABLE',
    );
    expectProblem(
      await cashCheque({ CLIENT: other, CODE: theirs, AMOUNT: 1, REFERENCE: ctx.unique('APP') }, app),
      403,
      'OUTSIDE_SCOPE',
    );
  });
});
