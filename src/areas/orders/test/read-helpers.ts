import { expect } from 'vitest';
import type { TestApp } from '../../../../test/helpers/test-app.ts';
import { inWriteTransaction } from '../../../kernel/db/unit-of-work.ts';

/** A GET of an order read that must answer 200: its root object. */
export async function read(
  t: TestApp,
  token: string,
  operation: string,
  query: Record<string, string | number> = {},
) {
  const res = await t.call('GET', operation, {
    token,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()[operation.replaceAll('_', '').toUpperCase()];
}

/** A GET that must fail: its status and code. */
export async function refused(
  t: TestApp,
  token: string,
  operation: string,
  query: Record<string, string | number> = {},
) {
  const res = await t.call('GET', operation, {
    token,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
  return { status: res.statusCode, code: res.json().code as string };
}

/**
 * Moves an order by hand in one write transaction (the lifecycle service is another part's): sets
 * the stored state and the counters of its lines, stamps the order and writes one history row, as
 * a move does. Returns the move's SCN.
 */
export async function moveByHand(
  t: TestApp,
  orderNo: number,
  move: {
    to: string;
    from?: string | null;
    action?: string;
    lines?: Record<
      number,
      Partial<{ cancelled: number; reserved: number; delivered: number; returned: number }>
    >;
  },
): Promise<number> {
  return inWriteTransaction(t.database, async (uow) => {
    const scn = await uow.stamp();
    const at = new Date().toISOString();
    const stored = ['PARTIALLY_DELIVERED', 'DELIVERED'].includes(move.to) ? undefined : move.to;
    await uow.db
      .updateTable('sales_order')
      .set({ scn, updated_at: at, ...(stored ? { state: stored } : {}) })
      .where('order_no', '=', orderNo)
      .execute();
    for (const [lineNo, counters] of Object.entries(move.lines ?? {})) {
      await uow.db
        .updateTable('sales_order_line')
        .set(counters)
        .where('order_no', '=', orderNo)
        .where('line_no', '=', Number(lineNo))
        .execute();
    }
    await uow.db
      .insertInto('order_history')
      .values({
        order_no: orderNo,
        from_state: move.from ?? null,
        to_state: move.to,
        action: move.action ?? 'test',
        actor: 'BACK_OFFICE',
        reference: null,
        scn,
        at,
      })
      .execute();
    return scn;
  });
}
