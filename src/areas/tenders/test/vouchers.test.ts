import { describe, expect, it } from 'vitest';
import { ENGINE } from '../../../../test/helpers/test-app.ts';
import { addDays } from '../voucher-service.ts';
import { expectProblem, refusalShape, tendersContext } from './tenders-context.ts';

const ctx = tendersContext();
const today = () => new Date().toISOString().slice(0, 10);

describe(`gift and credit-note vouchers over HTTP (${ENGINE})`, () => {
  it('issues a gift voucher once per WEBID, with a long checked code and its validity stated', async () => {
    const webId = ctx.unique('GV');
    const first = await ctx.issueGift({
      AMOUNT: 25,
      CURRENCY: 'EUR',
      EMAIL: 'anna@example.nl',
      WEBID: webId,
    });
    expect(first.statusCode, first.body).toBe(200);
    const voucher = first.json().B2CPOSTNEWGIFTVOUCHER.VOUCHER;
    expect(first.json().B2CPOSTNEWGIFTVOUCHER.CREATED).toBe(true);
    expect(voucher).toMatchObject({
      KIND: 'GIFT_VOUCHER',
      CLIENT: null,
      CURRENCY: 'EUR',
      AMOUNT: 25,
      BALANCE: 25,
      BLOCKED: false,
      WEBID: webId,
      VALIDUNTIL: addDays(today(), 1095),
    });
    expect(voucher.CODE).toMatch(/^[0-9A-HJKMNP-TV-Z]{17}$/);

    const again = await ctx.issueGift({
      AMOUNT: 25,
      CURRENCY: 'EUR',
      EMAIL: 'anna@example.nl',
      WEBID: webId,
    });
    expect(again.json().B2CPOSTNEWGIFTVOUCHER).toEqual({ CREATED: false, VOUCHER: voucher });
    expectProblem(await ctx.issueGift({ AMOUNT: 30, WEBID: webId }), 409, 'TENDER_KEY_REUSED');
    expectProblem(
      await ctx.issueGift({ AMOUNT: 25, CURRENCY: 'USD', WEBID: webId }),
      409,
      'TENDER_KEY_REUSED',
    );
    const { balance, entries } = await ctx.ledger(voucher.CODE);
    expect(balance).toBe(25);
    expect(entries).toEqual([expect.objectContaining({ KIND: 'ISSUE', AMOUNT: 25, REFERENCE: webId })]);
  });

  it('refuses amounts that are not positive money, and a third decimal', async () => {
    for (const AMOUNT of [0, -5, 10.005, 2_000_000]) {
      expectProblem(await ctx.issueGift({ AMOUNT, WEBID: ctx.unique('GV') }), 400, 'VALIDATION_FAILED');
    }
  });

  it('issues a credit-note voucher to an existing client only, and lists the open ones', async () => {
    const clientNo = await ctx.newClient();
    expectProblem(await ctx.issueCredit({ AMOUNT: 10, WEBID: ctx.unique('CN') }), 400, 'VALIDATION_FAILED');
    expectProblem(
      await ctx.issueCredit({ AMOUNT: 10, CLIENT: 2_000_000_000, WEBID: ctx.unique('CN') }),
      404,
      'CLIENT_NOT_FOUND',
    );
    const res = await ctx.issueCredit({ AMOUNT: 19.95, CLIENT: clientNo, WEBID: ctx.unique('CN') });
    expect(res.statusCode, res.body).toBe(200);
    const note = res.json().B2CPOSTNEWCREDITNOTEVOUCHER.VOUCHER;
    expect(note).toMatchObject({ KIND: 'CREDIT_NOTE_VOUCHER', CLIENT: clientNo, BALANCE: 19.95 });
    const spent = await ctx.issueCredit({ AMOUNT: 5, CLIENT: clientNo, WEBID: ctx.unique('CN') });
    const spentCode = spent.json().B2CPOSTNEWCREDITNOTEVOUCHER.VOUCHER.CODE;
    expect((await ctx.cash(spentCode, 5, ctx.unique('R'))).statusCode).toBe(200);

    const list = await ctx.t.call('GET', 'B2C_GetALLOpenCreditNotes', {
      token: ctx.shop,
      query: { strclient: String(clientNo) },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().B2CGETALLOPENCREDITNOTES).toEqual({ CLIENT: clientNo, CREDITNOTES: [note] });
  });

  it('confines a client’s token to its own credit notes and lets it issue nothing', async () => {
    const mine = await ctx.newClient();
    const other = await ctx.newClient();
    const app = await ctx.t.tokenFor(['B2C'], { clientNo: mine });
    const own = await ctx.issueCredit({ AMOUNT: 7, CLIENT: mine, WEBID: ctx.unique('CN') });
    const theirs = await ctx.issueCredit({ AMOUNT: 8, CLIENT: other, WEBID: ctx.unique('CN') });
    const theirCode = theirs.json().B2CPOSTNEWCREDITNOTEVOUCHER.VOUCHER.CODE;

    const list = await ctx.t.call('GET', 'B2C_GetALLOpenCreditNotes', { token: app });
    expect(list.json().B2CGETALLOPENCREDITNOTES.CREDITNOTES).toEqual([
      own.json().B2CPOSTNEWCREDITNOTEVOUCHER.VOUCHER,
    ]);
    expectProblem(
      await ctx.t.call('GET', 'B2C_GetALLOpenCreditNotes', {
        token: app,
        query: { strclient: String(other) },
      }),
      403,
      'OUTSIDE_SCOPE',
    );
    expectProblem(
      await ctx.issueGift({ AMOUNT: 5, WEBID: ctx.unique('GV') }, app),
      403,
      'TENDER_ISSUE_NOT_PERMITTED',
    );
    expectProblem(
      await ctx.issueCredit({ AMOUNT: 5, CLIENT: mine, WEBID: ctx.unique('CN') }, app),
      403,
      'TENDER_ISSUE_NOT_PERMITTED',
    );
    // Another client's voucher is, to this token, a code that cannot be used: checked or cashed.
    const unknown = await ctx.validate('0000000000000000', app);
    const foreign = await ctx.validate(theirCode, app);
    expectProblem(foreign, 409, 'VOUCHER_NOT_USABLE');
    expect(refusalShape(foreign)).toEqual(refusalShape(unknown));
    expectProblem(await ctx.cash(theirCode, 1, ctx.unique('R'), app), 409, 'VOUCHER_NOT_USABLE');
    // A gift voucher of no client is the holder's, whoever that is.
    const bearer = await ctx.gift(3);
    expect((await ctx.cash(bearer, 3, ctx.unique('R'), app)).statusCode).toBe(200);
  });

  it('checks a voucher without consuming it, printed in groups or lower case', async () => {
    const code = await ctx.gift(40);
    for (let i = 0; i < 3; i++) {
      const printed = `${code.slice(0, 4)}-${code.slice(4, 8)} ${code.slice(8)}`.toLowerCase();
      const res = await ctx.validate(printed, ctx.shop, { strcurrency: 'EUR' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().B2CVALIDATEVOUCHER).toEqual({
        CODE: code,
        KIND: 'GIFT_VOUCHER',
        BALANCE: 40,
        CURRENCY: 'EUR',
        VALIDUNTIL: addDays(today(), 1095),
      });
    }
    expect((await ctx.ledger(code)).entries).toHaveLength(1);
  });

  it('gives expired, blocked, spent, foreign-currency, mistyped and unknown codes one refusal that reveals nothing', async () => {
    const token = await ctx.t.tokenFor(['B2C']);
    const blocked = await ctx.gift(10);
    expect(
      (await ctx.t.send(ctx.admin, 'PUT', `/TV2/Admin/vouchers/${blocked}/blocked`, { BLOCKED: true }))
        .statusCode,
    ).toBe(200);
    const expired = await ctx.gift(10);
    await ctx.t.database.db
      .updateTable('tender')
      .set({ valid_until: '2020-01-01' })
      .where('code', '=', expired)
      .execute();
    const spent = await ctx.gift(10);
    expect((await ctx.cash(spent, 10, ctx.unique('R'))).statusCode).toBe(200);
    const usd = await ctx.gift(10, { CURRENCY: 'USD' });
    const good = await ctx.gift(10);
    const typo = `${good.slice(0, 5)}${good.charAt(5) === 'A' ? 'B' : 'A'}${good.slice(6)}`;
    const refusals = [
      await ctx.validate(blocked, token),
      await ctx.validate(expired, token),
      await ctx.validate(spent, token),
      await ctx.validate(usd, token, { strcurrency: 'EUR' }),
      await ctx.validate(typo, token),
      await ctx.validate('NOTAVOUCHERCODE00', token),
    ];
    for (const r of refusals) expectProblem(r, 409, 'VOUCHER_NOT_USABLE');
    const shapes = refusals.map(refusalShape);
    for (const s of shapes) expect(s).toEqual(shapes[0]);
    // Unblocked, it pays again; the expired one is usable once its validity is extended.
    await ctx.t.send(ctx.admin, 'PUT', `/TV2/Admin/vouchers/${blocked}/blocked`, { BLOCKED: false });
    expect((await ctx.validate(blocked)).statusCode).toBe(200);
    const later = addDays(today(), 30);
    const extended = await ctx.t.send(ctx.admin, 'PUT', `/TV2/Admin/vouchers/${expired}/validuntil`, {
      VALIDUNTIL: later,
    });
    expect(extended.json().VOUCHER.VALIDUNTIL).toBe(later);
    expect((await ctx.cash(expired, 1, ctx.unique('R'))).statusCode).toBe(200);
    const shortened = await ctx.t.send(ctx.admin, 'PUT', `/TV2/Admin/vouchers/${expired}/validuntil`, {
      VALIDUNTIL: today(),
    });
    expectProblem(shortened, 400, 'VALIDATION_FAILED');
  });

  it('cashes exactly once per (voucher, reference) and answers a repeat with the first cashing', async () => {
    const code = await ctx.gift(50);
    const reference = ctx.unique('WEB');
    const first = await ctx.cash(code, 12.5, reference);
    expect(first.statusCode, first.body).toBe(200);
    const answer = first.json().B2CPOSTCASHEDVOUCHER;
    expect(answer).toMatchObject({
      CODE: code,
      REFERENCE: reference,
      AMOUNT: 12.5,
      BALANCE: 37.5,
      CREATED: true,
    });
    expect((await ctx.cash(code, 10, ctx.unique('WEB'))).json().B2CPOSTCASHEDVOUCHER.BALANCE).toBe(27.5);
    const again = await ctx.cash(code, 12.5, reference);
    expect(again.json().B2CPOSTCASHEDVOUCHER).toEqual({ ...answer, CREATED: false });
    expectProblem(await ctx.cash(code, 12, reference), 409, 'TENDER_KEY_REUSED');
    expectProblem(await ctx.cash(code, 30, ctx.unique('WEB')), 409, 'VOUCHER_BALANCE_INSUFFICIENT');
    expectProblem(
      await ctx.cash(code, 1, ctx.unique('WEB'), ctx.shop, { CURRENCY: 'GBP' }),
      409,
      'VOUCHER_NOT_USABLE',
    );
    const { balance, entries } = await ctx.ledger(code);
    expect(balance).toBe(27.5);
    expect(entries.map((e) => e.AMOUNT)).toEqual([50, -12.5, -10]);
  });

  it('throttles a caller after repeated refused codes, and only that caller', async () => {
    const prober = await ctx.t.tokenFor(['B2C']);
    const code = await ctx.gift(5);
    for (let i = 0; i < 10; i++)
      expectProblem(await ctx.validate(`GUESS${i}`, prober), 409, 'VOUCHER_NOT_USABLE');
    const throttled = await ctx.validate(code, prober);
    expectProblem(throttled, 429, 'VOUCHER_CHECKS_THROTTLED');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expectProblem(await ctx.cash(code, 1, ctx.unique('R'), prober), 429, 'VOUCHER_CHECKS_THROTTLED');
    expect((await ctx.validate(code)).statusCode).toBe(200);
  });

  it('reports the outstanding liability per kind and currency', async () => {
    const res = await ctx.t.send(ctx.admin, 'GET', '/TV2/Admin/tenderliability');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().LIABILITY as { KIND: string; CURRENCY: string; BALANCE: number }[];
    expect(rows.find((r) => r.KIND === 'GIFT_VOUCHER' && r.CURRENCY === 'USD')?.BALANCE).toBe(10);
  });
});
