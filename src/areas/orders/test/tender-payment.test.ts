import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMPORT_KINDS } from '../../../areas.ts';
import { runImport } from '../../../kernel/import/run-import.ts';
import { CLIENT, O100, orderContext, RETAIL_PRICE, STOCK, webOrder } from './order-context.ts';

/**
 * Web orders paid with tenders (docs/orders.md, "Paying with tenders"; issue 13): debited in the
 * order's transaction, given back on cancellation, a credit-note voucher on a return, bonus earned
 * on delivery; balance = Σ entries for every tender after all of it.
 */
const ctx = orderContext({ bonusEarnBp: 200 });
let seq = 0;
const OTHER_CLIENT = CLIENT + 1;

const admin = (path: string, body?: unknown) => ctx.t.send(ctx.admin, 'POST', `/TV2/Admin/${path}`, body);

/** A gift voucher of no client (or a tender of `client`), issued by the back office; its code. */
async function voucher(amount: number, kind = 'GIFT_VOUCHER', client?: number): Promise<string> {
  const res = await admin('vouchers', {
    KIND: kind,
    AMOUNT: amount,
    CURRENCY: 'EUR',
    WEBID: `TP-V-${++seq}`,
    ...(client ? { CLIENT: client } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().VOUCHER.CODE;
}

/** Bonus card `card` of the client with `value` on it. */
async function bonusCard(card: number, value: number) {
  await ctx.t.services.tenders.bonus.update({
    cardNo: card,
    delta: Math.round(value * 100),
    day: '2026-11-26',
    reference: `TP-B-${++seq}`,
    clientNo: CLIENT,
  });
}

const post = (body: unknown, token = ctx.client) => ctx.t.call('POST', 'B2C_PostWebOrder', { token, body });

async function balance(code: string): Promise<number> {
  const t = await ctx.t.database.db
    .selectFrom('tender')
    .select('balance')
    .where('code', '=', code)
    .executeTakeFirstOrThrow();
  return Number(t.balance);
}

async function entries(code: string) {
  const rows = await ctx.t.database.db
    .selectFrom('tender_entry as e')
    .innerJoin('tender as t', 't.id', 'e.tender_id')
    .select(['e.kind', 'e.amount', 'e.reference'])
    .where('t.code', '=', code)
    .orderBy('e.id')
    .execute();
  return rows.map((r) => ({ kind: r.kind, amount: Number(r.amount), reference: r.reference }));
}

async function level(sizex: string) {
  const l = await ctx.t.services.stock.ledger.level({ locationCode: 'WH', articleNo: 'O100-010', sizex });
  return { onHand: l.onHand, reserved: l.reserved };
}

const line = (i: number, quantity: number) => ({ barcode: O100[i]!.barcode, quantity });

describe('B2C_PostWebOrder paid with tenders', () => {
  it('debits each tender in the order’s transaction and answers them as means of payment', async () => {
    const code = await voucher(30);
    await bonusCard(41000001, 5);
    const before = await level('S');
    const res = await post(
      webOrder('TP-1', [line(0, 2)], {
        TENDERS: [
          { TYPE: 'VOUCHER', CODE: code.toLowerCase().replace(/(.{4})/g, '$1-'), AMOUNT: '30' },
          { TYPE: 'BONUSCARD', CODE: '041000001', AMOUNT: 4.5 },
        ],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().B2CPOSTWEBORDER;
    expect(o.GROSS).toBe((2 * RETAIL_PRICE) / 100);
    expect(o.TENDERS).toEqual([
      { LINE: 1, TYPE: 'VOUCHER', KIND: 'GIFT_VOUCHER', CODE: code, AMOUNT: 30, REFUNDED: 0 },
      { LINE: 2, TYPE: 'BONUSCARD', KIND: 'BONUS_CARD', CODE: '41000001', AMOUNT: 4.5, REFUNDED: 0 },
    ]);
    expect(o.TOPAY).toBe((2 * RETAIL_PRICE - 3450) / 100);
    // The card paying is the card earning, unless BONUSCARD names another.
    expect(o.BONUSCARD).toBe('41000001');
    expect(await balance(code)).toBe(0);
    expect(await balance('41000001')).toBe(50);
    expect(await entries(code)).toEqual([
      { kind: 'ISSUE', amount: 3000, reference: `TP-V-${seq - 1}` },
      { kind: 'REDEEM', amount: -3000, reference: `ORDER ${o.ORDERNO}` },
    ]);
    expect((await level('S')).reserved).toBe(before.reserved + 2);

    // The same WEBORDER again: the same order and tenders, nothing debited twice.
    const again = await post(
      webOrder('TP-1', [line(0, 2)], {
        TENDERS: [
          { TYPE: 'VOUCHER', CODE: code, AMOUNT: 30 },
          { TYPE: 'BONUSCARD', CODE: '41000001', AMOUNT: '4.50' },
        ],
      }),
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().B2CPOSTWEBORDER).toMatchObject({
      ORDERNO: o.ORDERNO,
      CREATED: false,
      TENDERS: o.TENDERS,
    });
    expect(await entries(code)).toHaveLength(2);
    // Another amount under the same WEBORDER is another order: a conflict.
    const other = await post(
      webOrder('TP-1', [line(0, 2)], { TENDERS: [{ TYPE: 'VOUCHER', CODE: code, AMOUNT: 20 }] }),
    );
    expect(other.json().code).toBe('WEBORDER_CONFLICT');
  });

  it('places nothing when a tender refuses: no order, no reservation, no debit of the others', async () => {
    const rich = await voucher(50);
    const poor = await voucher(5);
    const foreign = await voucher(20, 'CLIENT_CHEQUE', OTHER_CLIENT);
    const before = await level('M');
    const tried = async (weborder: string, tenders: unknown[]) => {
      const res = await post(webOrder(weborder, [line(1, 1)], { TENDERS: tenders }));
      return { status: res.statusCode, code: res.json().code, detail: res.json().detail };
    };
    const short = await tried('TP-2', [
      { TYPE: 'VOUCHER', CODE: rich, AMOUNT: 10 },
      { TYPE: 'VOUCHER', CODE: poor, AMOUNT: 6 },
    ]);
    expect(short).toMatchObject({ status: 409, code: 'VOUCHER_BALANCE_INSUFFICIENT' });
    expect(await tried('TP-3', [{ TYPE: 'CLIENTCHEQUE', CODE: foreign, AMOUNT: 1 }])).toMatchObject({
      status: 409,
      code: 'VOUCHER_NOT_USABLE',
    });
    // A voucher used as a cheque is a code that cannot be used either.
    expect(await tried('TP-4', [{ TYPE: 'CLIENTCHEQUE', CODE: rich, AMOUNT: 1 }])).toMatchObject({
      status: 409,
      code: 'VOUCHER_NOT_USABLE',
    });
    expect(await tried('TP-5', [{ TYPE: 'VOUCHER', CODE: 'NOT-A-CODE', AMOUNT: 1 }])).toMatchObject({
      status: 409,
      code: 'VOUCHER_NOT_USABLE',
    });
    expect(await tried('TP-6', [{ TYPE: 'BONUSCARD', CODE: '49999999', AMOUNT: 1 }])).toMatchObject({
      status: 404,
      code: 'BONUS_CARD_NOT_FOUND',
    });
    expect(await balance(rich)).toBe(5000);
    expect(await balance(poor)).toBe(500);
    expect(await level('M')).toEqual(before);
    const orders = await ctx.t.database.db
      .selectFrom('sales_order')
      .select('order_no')
      .where('weborder', 'in', ['TP-2', 'TP-3', 'TP-4', 'TP-5', 'TP-6'])
      .execute();
    expect(orders).toEqual([]);
  });

  it('refuses tenders paying more than the order, a tender named twice, and a voucher paying its own sale', async () => {
    const code = await voucher(100);
    const over = await post(
      webOrder('TP-7', [line(1, 1)], { TENDERS: [{ TYPE: 'VOUCHER', CODE: code, AMOUNT: 60 }] }),
    );
    expect(over.statusCode).toBe(400);
    expect(over.json().errors[0]).toMatchObject({ name: '/WEBORDERDATA/TENDERS' });
    const twice = await post(
      webOrder('TP-8', [line(1, 1)], {
        TENDERS: [
          { TYPE: 'VOUCHER', CODE: code, AMOUNT: 1 },
          { TYPE: 'VOUCHER', CODE: code.toLowerCase(), AMOUNT: 2 },
        ],
      }),
    );
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errors[0]).toMatchObject({ name: '/WEBORDERDATA/TENDERS/1/CODE' });
    // An amount of 0 written as text is refused as JSON numbers are by the schema.
    const zero = await post(
      webOrder('TP-8B', [line(1, 1)], { TENDERS: [{ TYPE: 'VOUCHER', CODE: code, AMOUNT: '0.00' }] }),
    );
    expect(zero.statusCode, zero.body).toBe(400);
    expect(zero.json().errors[0]).toMatchObject({ name: '/WEBORDERDATA/TENDERS/0/AMOUNT' });
    const noCard = await post(webOrder('TP-8C', [line(1, 1)], { BONUSCARD: '000' }));
    expect(noCard.statusCode, noCard.body).toBe(400);
    expect(noCard.json().errors[0]).toMatchObject({ name: '/WEBORDERDATA/BONUSCARD' });
    // A voucher sold under WEBORDER X does not pay order X.
    const issued = await ctx.t.services.tenders.vouchers.issue({
      kind: 'GIFT_VOUCHER',
      amount: 2000,
      currency: 'EUR',
      clientNo: null,
      email: null,
      webId: 'TP-9',
    });
    const own = await post(
      webOrder('TP-9', [line(1, 1)], {
        TENDERS: [{ TYPE: 'VOUCHER', CODE: issued.tender.code, AMOUNT: 10 }],
      }),
    );
    expect(own.json().code).toBe('VOUCHER_PAYS_OWN_ISSUE');
    expect(await balance(code)).toBe(10_000);
    // Another client's bonus card neither pays nor earns.
    await ctx.t.services.tenders.bonus.update({
      cardNo: 42000002,
      delta: 1000,
      day: '2026-11-26',
      reference: 'TP-X',
      clientNo: OTHER_CLIENT,
    });
    const theirs = await post(webOrder('TP-10', [line(1, 1)], { BONUSCARD: 42000002 }));
    expect(theirs.json().code).toBe('BONUS_VALUE_REFUSED');
  });
});

describe('refunds and bonus of an order paid with tenders', () => {
  it('gives every tender back what it paid when the client cancels, the last named first', async () => {
    const first = await voucher(20);
    const second = await voucher(10, 'CREDIT_NOTE_VOUCHER', CLIENT);
    const placed = await post(
      webOrder('TP-20', [line(2, 1)], {
        TENDERS: [
          { TYPE: 'VOUCHER', CODE: first, AMOUNT: 20 },
          { TYPE: 'VOUCHER', CODE: second, AMOUNT: 10 },
        ],
      }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const no = placed.json().B2CPOSTWEBORDER.ORDERNO;
    expect([await balance(first), await balance(second)]).toEqual([0, 0]);
    const res = await ctx.t.call('POST', 'B2C_CloseClientOrder', {
      token: ctx.client,
      body: { CLOSECLIENTORDER: { ORDERNO: no } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json().B2CCLOSECLIENTORDER;
    expect(answer.STATE).toBe('CANCELLED');
    expect(answer.REFUND).toEqual({
      TENDERS: [
        { KIND: 'CREDIT_NOTE_VOUCHER', CODE: second, AMOUNT: 10 },
        { KIND: 'GIFT_VOUCHER', CODE: first, AMOUNT: 20 },
      ],
      CREDITNOTE: null,
      BONUS: null,
      OTHER: (RETAIL_PRICE - 3000) / 100,
    });
    expect([await balance(first), await balance(second)]).toEqual([2000, 1000]);
    expect((await entries(first)).at(-1)).toMatchObject({ kind: 'REFUND_CREDIT', amount: 2000 });
    const kept = await ctx.t.database.db
      .selectFrom('order_tender')
      .select(['line_no', 'amount', 'refunded'])
      .where('order_no', '=', no)
      .orderBy('line_no')
      .execute();
    expect(kept.map((r) => [Number(r.amount), Number(r.refunded)])).toEqual([
      [2000, 2000],
      [1000, 1000],
    ]);
  });

  it('gives what an expired voucher paid back as a credit-note voucher of the client, not to the expired one', async () => {
    const code = await voucher(15);
    const placed = await post(
      webOrder('TP-21', [line(2, 1)], { TENDERS: [{ TYPE: 'VOUCHER', CODE: code, AMOUNT: 15 }] }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const no = placed.json().B2CPOSTWEBORDER.ORDERNO;
    // The voucher's last valid day passes while the order is open (the back office cannot shorten
    // it, so the test moves the day in the database).
    await ctx.t.database.db
      .updateTable('tender')
      .set({ valid_until: '2020-01-01' })
      .where('code', '=', code)
      .execute();
    const res = await ctx.t.call('POST', 'B2C_CloseClientOrder', {
      token: ctx.client,
      body: { CLOSECLIENTORDER: { ORDERNO: no } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [credited] = res.json().B2CCLOSECLIENTORDER.REFUND.TENDERS;
    expect(credited).toMatchObject({ KIND: 'CREDIT_NOTE_VOUCHER', AMOUNT: 15 });
    expect(credited.CODE).not.toBe(code);
    expect(await balance(code)).toBe(0);
    const notes = await ctx.t.services.tenders.vouchers.openOfClient(CLIENT, 'CREDIT_NOTE_VOUCHER');
    expect(notes.find((n) => n.code === credited.CODE)).toMatchObject({ balance: 1500 });
  });

  it('earns bonus on delivery for what was paid outside tenders, takes it back with the delivery, and refunds a return as a credit-note voucher (Odoo #135393: the spent voucher is not re-applied)', async () => {
    const code = await voucher(40);
    const card = 43000003;
    const placed = await post(
      webOrder('TP-30', [line(0, 2)], {
        BONUSCARD: card,
        TENDERS: [{ TYPE: 'VOUCHER', CODE: code, AMOUNT: 40 }],
      }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const no = placed.json().B2CPOSTWEBORDER.ORDERNO;
    const gross = 2 * RETAIL_PRICE;
    const earn = Math.floor(((gross - 4000) * 200) / 10_000);
    await admin(`orders/${no}/confirm`);
    const delivered = await admin(`orders/${no}/deliveries`, {});
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(delivered.json().ORDER.REFUND).toMatchObject({
      BONUS: { CARDNO: String(card), CHANGE: earn / 100 },
    });
    // The card did not exist: the first earning made it, the client's.
    expect(await balance(String(card))).toBe(earn);
    // The client's order read shows the tenders as means of payment and what the order earned.
    const read = await ctx.t.call('GET', 'B2C_GetOrderState', {
      token: ctx.client,
      query: { strorderno: String(no) },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().B2CGETORDERSTATE.ORDERS[0]).toMatchObject({
      GROSS: gross / 100,
      TENDERS: [{ LINE: 1, TYPE: 'VOUCHER', KIND: 'GIFT_VOUCHER', CODE: code, AMOUNT: 40, REFUNDED: 0 }],
      TOPAY: (gross - 4000) / 100,
      BONUSCARD: String(card),
      BONUSEARNED: earn / 100,
    });
    const cardRow = await ctx.t.services.tenders.bonus.card(card);
    expect(cardRow.client_no).toBe(CLIENT);

    // A delivery taken back takes the bonus back.
    const deliveryNo = delivered.json().DELIVERYNO;
    const undone = await admin(`deliveries/${deliveryNo}/cancel`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await balance(String(card))).toBe(0);
    await admin(`orders/${no}/deliveries`, {});
    expect(await balance(String(card))).toBe(earn);

    // One of the two pieces comes back: its value goes to the voucher's share first (a credit note
    // of 40.00 at most), the rest is refunded outside, and the bonus on the rest is taken back.
    const asked = await ctx.t.call('POST', 'B2C_GetReturnLocation', {
      token: ctx.client,
      body: { RETURNREQUEST: { ORDERNO: String(no), LINES: [{ LINE: 1, QUANTITY: 1 }] } },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const returnNo = asked.json().B2CGETRETURNLOCATION.RETURNNO;
    const received = await admin(`returns/${returnNo}/receive`);
    expect(received.statusCode, received.body).toBe(200);
    const refund = received.json().REFUND;
    expect(refund.TENDERS).toEqual([]);
    expect(refund.CREDITNOTE).toMatchObject({ AMOUNT: 40 });
    expect(refund.OTHER).toBe((RETAIL_PRICE - 4000) / 100);
    const afterReturn = Math.floor(((RETAIL_PRICE - 0) * 200) / 10_000);
    expect(refund.BONUS).toEqual({ CARDNO: String(card), CHANGE: (afterReturn - earn) / 100 });
    expect(await balance(String(card))).toBe(afterReturn);
    // The credit note is the client's, worth what the voucher paid; the voucher itself stays spent.
    const note = await ctx.t.services.tenders.vouchers.openOfClient(CLIENT, 'CREDIT_NOTE_VOUCHER');
    expect(note.find((n) => n.code === refund.CREDITNOTE.CODE)).toMatchObject({
      balance: 4000,
      web_id: `RETURN ${returnNo}`,
    });
    expect(await balance(code)).toBe(0);
    // Receiving it again changes nothing.
    expect((await admin(`returns/${returnNo}/receive`)).json().code).toBe('RETURN_NOT_AUTHORISED');
    expect(await balance(String(card))).toBe(afterReturn);
  });

  it('delivers an order whose bonus card number became another tender’s code: nothing is earned, nothing refused', async () => {
    const placed = await post(webOrder('TP-40', [line(1, 1)], { BONUSCARD: 44000004 }));
    expect(placed.statusCode, placed.body).toBe(200);
    const no = placed.json().B2CPOSTWEBORDER.ORDERNO;
    // Before the first earning made the card, a voucher brought over from another system took the number.
    const csv = join(mkdtempSync(join(tmpdir(), 'tv2-tp-')), 'vouchers.csv');
    writeFileSync(
      csv,
      'KIND,CODE,CLIENT,CURRENCY,BALANCE,VALIDUNTIL\nGIFT_VOUCHER,44000004,,EUR,5.00,2030-12-31\n',
    );
    const imported = await runImport(ctx.t.services, IMPORT_KINDS.vouchers!, csv);
    expect(imported).toMatchObject({ written: 1, rejected: [] });
    await admin(`orders/${no}/confirm`);
    const delivered = await admin(`orders/${no}/deliveries`, {});
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(delivered.json().ORDER.REFUND).toBeUndefined();
    expect(await balance('44000004')).toBe(500);
  });

  it('keeps balance = Σ entries for every tender after all of the above', async () => {
    const tenders = await ctx.t.database.db.selectFrom('tender').select(['id', 'balance']).execute();
    const sums = await ctx.t.database.db
      .selectFrom('tender_entry')
      .select((eb) => ['tender_id', eb.fn.sum<number | string>('amount').as('sum')])
      .groupBy('tender_id')
      .execute();
    const byId = new Map(sums.map((s) => [Number(s.tender_id), Number(s.sum)]));
    expect(tenders.length).toBeGreaterThan(5);
    for (const t of tenders) expect(byId.get(Number(t.id)) ?? 0, `tender ${t.id}`).toBe(Number(t.balance));
    expect(STOCK).toBeGreaterThan(0);
  });
});
