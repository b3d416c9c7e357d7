import { describe, expect, it } from 'vitest';
import { accountedOf, type BilledLine, creditsOwed, type LineOut } from './credit-rules.ts';

const billed = (
  invoiceId: number,
  lineNo: number,
  deliveryNo: number,
  invoiced: number,
  credited = 0,
  delivered = invoiced,
): BilledLine => ({
  invoiceId,
  invoiceLineNo: lineNo,
  deliveryNo,
  deliveryLineNo: 1,
  delivered,
  invoiced,
  credited,
});
const out = (deliveryNo: number, quantity: number, cancelled = false, returnNos: number[] = []): LineOut => ({
  deliveryNo,
  lineNo: 1,
  quantity,
  cancelled,
  returnNos,
});

describe('the credit run’s rules', () => {
  it('owes invoiced − still out − credited, per invoice, with the reason', () => {
    const owed = creditsOwed(
      [billed(1, 1, 10, 5), billed(1, 2, 11, 3, 1), billed(2, 1, 12, 2)],
      [out(10, 3, false, [7, 9]), out(11, 0, true), out(12, 2)],
    );
    expect([...owed]).toEqual([
      [
        1,
        [
          { lineNo: 1, quantity: 2, reason: 'RETURN 7, 9' },
          { lineNo: 2, quantity: 2, reason: 'DELIVERY 11 CANCELLED' },
        ],
      ],
    ]);
  });

  it('owes nothing when credited already, when more is out than invoiced, or when the line was not read', () => {
    expect(creditsOwed([billed(1, 1, 10, 5, 2)], [out(10, 3)]).size).toBe(0);
    expect(creditsOwed([billed(1, 1, 10, 3, 0, 5)], [out(10, 5)]).size).toBe(0);
    expect(creditsOwed([billed(1, 1, 10, 5)], []).size).toBe(0);
  });

  it('accounts a line’s pieces delivered but not billed: left off the invoice or credited', () => {
    expect([...accountedOf([billed(1, 1, 10, 3, 1, 5), billed(2, 1, 11, 2)])]).toEqual([
      ['10/1', 3],
      ['11/1', 0],
    ]);
  });
});
