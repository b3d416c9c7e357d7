import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bonusEarned,
  givenUpValue,
  type PaidTender,
  piecesValue,
  planRefund,
  type SettledLine,
} from './tender-settlement.ts';

const line = (amount: number, ordered: number, over: Partial<SettledLine> = {}): SettledLine => ({
  amount,
  ordered,
  cancelled: 0,
  delivered: 0,
  returned: 0,
  ...over,
});
const tender = (lineNo: number, amount: number, refunded = 0, kind = 'GIFT_VOUCHER'): PaidTender => ({
  lineNo,
  kind,
  amount,
  refunded,
});

describe('piecesValue', () => {
  it('is the whole amount for every piece and rounds down in between', () => {
    expect(piecesValue(1000, 3, 3)).toBe(1000);
    expect(piecesValue(1000, 3, 1)).toBe(333);
    expect(piecesValue(1000, 3, 2)).toBe(666);
    expect(piecesValue(1000, 3, 0)).toBe(0);
  });

  it('is exact for amounts whose product with the pieces passes 2^53', () => {
    const amount = 450_000_000_000_00;
    expect(piecesValue(amount, 1_000_000, 999_999)).toBe(Number((BigInt(amount) * 999_999n) / 1_000_000n));
  });

  it('pieces given back one at a time add up to the line amount, never more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 50 }), (amount, n) => {
        let sum = 0;
        for (let k = 1; k <= n; k++) sum += piecesValue(amount, n, k) - piecesValue(amount, n, k - 1);
        expect(sum).toBe(amount);
      }),
    );
  });
});

describe('givenUpValue', () => {
  it('counts only the counter asked for, cumulatively', () => {
    const before = [line(1000, 3, { cancelled: 1 }), line(500, 2)];
    const after = [line(1000, 3, { cancelled: 3 }), line(500, 2, { returned: 1 })];
    expect(givenUpValue(before, after, 'cancelled')).toBe(1000 - 333);
    expect(givenUpValue(before, after, 'returned')).toBe(250);
  });
});

describe('planRefund', () => {
  it('takes the last named tender first, each up to what it paid less what it got back', () => {
    const plan = planRefund([tender(1, 1000), tender(2, 500, 200)], 900);
    expect(plan).toEqual({
      tenders: [
        { lineNo: 2, amount: 300 },
        { lineNo: 1, amount: 600 },
      ],
      other: 0,
    });
  });

  it('leaves what tenders did not pay for the outside payment', () => {
    expect(planRefund([tender(1, 300)], 1000)).toEqual({ tenders: [{ lineNo: 1, amount: 300 }], other: 700 });
    expect(planRefund([], 1000)).toEqual({ tenders: [], other: 1000 });
    expect(planRefund([tender(1, 300, 300)], 50)).toEqual({ tenders: [], other: 50 });
  });

  it('never gives a tender back more than it paid, whatever the refunds in a row', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 0, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 6 }),
        (paid, refunds) => {
          const tenders = paid.map((amount, i) => tender(i + 1, amount));
          let outside = 0;
          let total = 0;
          for (const value of refunds) {
            const plan = planRefund(tenders, value);
            for (const part of plan.tenders) {
              const t = tenders.find((x) => x.lineNo === part.lineNo)!;
              t.refunded += part.amount;
            }
            outside += plan.other;
            total += value;
            expect(plan.tenders.reduce((s, p) => s + p.amount, 0) + plan.other).toBe(value);
          }
          for (const t of tenders) expect(t.refunded).toBeLessThanOrEqual(t.amount);
          const back = tenders.reduce((s, t) => s + t.refunded, 0);
          expect(back + outside).toBe(total);
        },
      ),
    );
  });
});

describe('bonusEarned', () => {
  it('earns on the kept pieces less what tenders paid, rounded down', () => {
    const lines = [line(10_000, 2, { delivered: 2 }), line(5_000, 1, { delivered: 1, returned: 1 })];
    expect(bonusEarned(lines, [], 100)).toBe(100);
    expect(bonusEarned(lines, [tender(1, 3_000)], 100)).toBe(70);
    expect(bonusEarned(lines, [tender(1, 3_000, 1_000)], 150)).toBe(120);
    expect(bonusEarned(lines, [tender(1, 30_000)], 100)).toBe(0);
    expect(bonusEarned(lines, [], 0)).toBe(0);
  });

  it('nothing before delivery, and nothing on value the client sent back', () => {
    expect(bonusEarned([line(10_000, 2)], [], 100)).toBe(0);
    expect(bonusEarned([line(10_000, 2, { delivered: 2, returned: 2 })], [], 100)).toBe(0);
  });
});
