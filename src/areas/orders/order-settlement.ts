import type { Config } from '../../config.ts';
import type { UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import { fromMinor } from '../../kernel/money.ts';
import type { Services } from '../../kernel/services.ts';
import type { OrderLineRow, OrderRow } from './order-repository.ts';
import { OrderTenderRepository, type OrderTenderRow } from './order-tender-repository.ts';
import {
  bonusEarned,
  givenUpValue,
  type PaidTender,
  planRefund,
  type SettledLine,
} from './rules/tender-settlement.ts';

/** What a change of a web order did to the money paid with tenders (docs/orders.md, "Paying with tenders"). */
export interface Settlement {
  /**
   * What received the value tenders paid for cancelled pieces: each tender itself, or for one past
   * its last valid day a new credit-note voucher of the client; with the amount.
   */
  credited: { kind: string; code: string; amount: number }[];
  /** A return's credit-note voucher, for what vouchers and cheques paid for the pieces sent back. */
  creditNote: { code: string; amount: number; validUntil: string } | null;
  /** The bonus card's change by this change of the order (earned, or taken back). */
  bonus: { cardNo: string; change: number } | null;
  /** What was paid outside tv2 for the pieces cancelled or returned: the shop refunds it (PAYMENTREFERENCE). */
  other: number;
}

/** Why the order's lines changed: a lifecycle move (SCN-unique references) or a return's receipt. */
export type SettlementCause = { kind: 'MOVE'; scn: number } | { kind: 'RETURN'; returnNo: number };

const settledLine = (l: OrderLineRow): SettledLine => ({
  amount: Number(l.amount),
  ordered: l.ordered,
  cancelled: l.cancelled,
  delivered: l.delivered,
  returned: l.returned,
});

const paid = (t: OrderTenderRow): PaidTender => ({
  lineNo: t.line_no,
  kind: t.kind,
  amount: t.amount,
  refunded: t.refunded,
});

/**
 * Settles a web order's tenders after its lines changed, inside the transaction that changed them
 * and with the order held: pieces cancelled give back what tenders paid for them (the last named
 * first, each to the tender it came from), pieces returned the same as one credit-note voucher of
 * the client (bonus value back to its card), and the bonus card is brought to what the order has
 * earned now (rules/tender-settlement.ts). Every posting carries a reference unique to this change,
 * so it is made once; none of it happens for a wholesale order.
 */
export class OrderSettlement {
  readonly #all: Services;
  readonly #config: Pick<Config, 'bonusEarnBp'>;

  constructor(all: Services, config: Pick<Config, 'bonusEarnBp'>) {
    this.#all = all;
    this.#config = config;
  }

  async settle(
    uow: UnitOfWork,
    order: OrderRow,
    before: readonly OrderLineRow[],
    after: readonly OrderLineRow[],
    cause: SettlementCause,
  ): Promise<Settlement | undefined> {
    if (order.channel !== 'B2C') return undefined;
    const orderNo = Number(order.order_no);
    const was = before.map(settledLine);
    const now = after.map(settledLine);
    const cancelled = givenUpValue(was, now, 'cancelled');
    const returned = givenUpValue(was, now, 'returned');
    const card = order.bonus_card;
    if (cancelled <= 0 && returned <= 0 && card === null) return undefined;
    const repo = new OrderTenderRepository(uow.db);
    const tenders = Number(order.tenders_paid) > 0 ? await repo.tendersOf(orderNo) : [];
    const payments = this.#all.tenders.payments;
    const key = cause.kind === 'MOVE' ? `ORDER ${orderNo} MOVE ${cause.scn}` : `RETURN ${cause.returnNo}`;
    const settlement: Settlement = { credited: [], creditNote: null, bonus: null, other: 0 };

    const plan = planRefund(tenders.map(paid), cancelled + returned);
    settlement.other = plan.other;
    let toCreditNote = 0;
    for (const part of plan.tenders) {
      const t = tenders.find((x) => x.line_no === part.lineNo)!;
      if (!(await repo.addRefunded(orderNo, t.line_no, part.amount))) {
        throw new Error(`order ${orderNo}: tender line ${t.line_no} would get back more than it paid`);
      }
      t.refunded += part.amount;
      // A return gives vouchers and cheques back as one credit note; cancellations and bonus value
      // go back to the tender they came from.
      if (cause.kind === 'RETURN' && t.kind !== 'BONUS_CARD') {
        toCreditNote += part.amount;
        continue;
      }
      const to = await payments.refundIn(uow, {
        code: t.code,
        amount: part.amount,
        reference: key,
        clientNo: Number(order.client_no),
        currency: order.currency,
        email: order.email,
      });
      settlement.credited.push({ kind: to.kind, code: to.code, amount: part.amount });
    }
    if (toCreditNote > 0 && cause.kind === 'RETURN') {
      const note = await payments.creditNoteIn(uow, {
        clientNo: Number(order.client_no),
        amount: toCreditNote,
        currency: order.currency,
        webId: key,
        email: order.email,
      });
      settlement.creditNote = { code: note.code, amount: toCreditNote, validUntil: note.valid_until };
    }

    if (card !== null) {
      const target = bonusEarned(now, tenders.map(paid), this.#config.bonusEarnBp);
      const earned = Number(order.bonus_earned);
      if (target !== earned) {
        const change = await payments.bonusIn(uow, {
          cardNo: card,
          delta: target - earned,
          reference: `${key} BONUS`,
          clientNo: Number(order.client_no),
        });
        if (change !== 0) {
          await repo.setBonusEarned(orderNo, earned + change);
          settlement.bonus = { cardNo: card, change };
        }
      }
    }
    const nothing =
      settlement.credited.length === 0 &&
      settlement.creditNote === null &&
      settlement.bonus === null &&
      settlement.other === 0;
    return nothing ? undefined : settlement;
  }
}

/** The wire form of a settlement (a move's or a return receipt's REFUND). */
export function settlementToWire(s: Settlement) {
  return {
    TENDERS: s.credited.map((c) => ({ KIND: c.kind, CODE: c.code, AMOUNT: fromMinor(c.amount) })),
    CREDITNOTE:
      s.creditNote === null
        ? null
        : {
            CODE: s.creditNote.code,
            AMOUNT: fromMinor(s.creditNote.amount),
            VALIDUNTIL: s.creditNote.validUntil,
          },
    BONUS: s.bonus === null ? null : { CARDNO: s.bonus.cardNo, CHANGE: fromMinor(s.bonus.change) },
    OTHER: fromMinor(s.other),
  };
}
