import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../test/helpers/seed.ts';
import { type Actor, LIFECYCLE, type Moved, move, type Order, type OrderAction, place } from './lifecycle.ts';
import {
  brokenInvariant,
  deliver,
  derivedState,
  type LineCounters,
  openQuantity,
  receiveReturn,
  release,
  reserve,
} from './line-counters.ts';
import type { Refusal } from './refusals.ts';
import { ORDER_STATES, TERMINAL_STATES } from './states.ts';

const ACTORS: readonly Actor[] = ['BACK_OFFICE', 'CUSTOMER', 'CLIENT', 'SYSTEM'];

function ok(result: Moved | Refusal): Moved {
  if (!result.ok) throw new Error(`refused: ${result.code} ${result.detail}`);
  return result;
}

/** An order of two lines (5 and 3 pieces, all reserved), moved through the given actions by the back office. */
function orderAfter(...actions: OrderAction[]): Order {
  let order = ok(
    place(
      [
        { ordered: 5, reserved: 5 },
        { ordered: 3, reserved: 3 },
      ],
      'CLIENT',
    ),
  ).order;
  for (const action of actions) order = ok(move(order, action, 'BACK_OFFICE')).order;
  return order;
}

const confirm: OrderAction = { name: 'confirm' };
const pick: OrderAction = { name: 'startPicking' };
const deliverAll: OrderAction = { name: 'deliver', quantities: [5, 3] };
const deliverSome: OrderAction = { name: 'deliver', quantities: [2, 0] };

describe('the lifecycle table', () => {
  it('has one row per move, sibling rows alike, and no row out of a terminal state', () => {
    const keys = LIFECYCLE.map((m) => `${m.from} ${m.action} ${m.to}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const m of LIFECYCLE) {
      expect(ORDER_STATES).toContain(m.to);
      expect(m.from === null || !TERMINAL_STATES.includes(m.from)).toBe(true);
      expect(m.actors.length).toBeGreaterThan(0);
      for (const sibling of LIFECYCLE.filter((s) => s.from === m.from && s.action === m.action)) {
        expect([sibling.actors, sibling.guards], `${m.from} ${m.action}`).toEqual([m.actors, m.guards]);
      }
    }
    // Every state is reachable, and every non-terminal state has a way out.
    for (const state of ORDER_STATES) {
      expect(LIFECYCLE.some((m) => m.to === state)).toBe(true);
      if (!TERMINAL_STATES.includes(state)) {
        expect(LIFECYCLE.some((m) => m.from === state && m.to !== state)).toBe(true);
      }
    }
  });

  it('walks the normal life, one history row a move', () => {
    const placed = ok(place([{ ordered: 5, reserved: 5 }], 'CUSTOMER'));
    expect(placed.history).toEqual({ from: null, to: 'NEW', action: 'place', actor: 'CUSTOMER' });
    const confirmed = ok(move(placed.order, confirm, 'SYSTEM'));
    expect(confirmed.history).toEqual({ from: 'NEW', to: 'CONFIRMED', action: 'confirm', actor: 'SYSTEM' });
    const picking = ok(move(confirmed.order, pick, 'BACK_OFFICE'));
    expect(picking.reported).toBe('PICKING');
    const part = ok(move(picking.order, { name: 'deliver', quantities: [2] }, 'BACK_OFFICE'));
    expect(part.history).toMatchObject({ from: 'PICKING', to: 'PARTIALLY_DELIVERED', action: 'deliver' });
    expect(part.order.state).toBe('PICKING'); // the delivery states are never stored
    expect(part.stock).toEqual([{ released: 0, delivered: 2, fromReserved: 2, restored: 0 }]);
    const again = ok(move(part.order, { name: 'deliver', quantities: [1] }, 'SYSTEM'));
    expect(again.history).toMatchObject({ from: 'PARTIALLY_DELIVERED', to: 'PARTIALLY_DELIVERED' });
    const done = ok(move(again.order, { name: 'deliver', quantities: [2] }, 'SYSTEM'));
    expect(done.reported).toBe('DELIVERED');
    const closed = ok(move(done.order, { name: 'close' }, 'CLIENT'));
    expect(closed.history).toEqual({ from: 'DELIVERED', to: 'CLOSED', action: 'close', actor: 'CLIENT' });
  });

  it('refuses every move not in the table with one code, naming what is allowed', () => {
    const refused = move(orderAfter(), pick, 'BACK_OFFICE');
    expect(refused).toMatchObject({ ok: false, code: 'ORDER_MOVE_NOT_ALLOWED' });
    if (!refused.ok)
      expect(refused.detail).toBe('No startPicking from NEW for BACK_OFFICE; allowed: confirm, cancel.');
    // Not for that party: a retail client neither confirms nor cancels once picking started.
    expect(move(orderAfter(), confirm, 'CLIENT')).toMatchObject({ code: 'ORDER_MOVE_NOT_ALLOWED' });
    const late = move(orderAfter(confirm, pick), { name: 'cancel' }, 'CLIENT');
    expect(late).toMatchObject({ code: 'ORDER_MOVE_NOT_ALLOWED' });
    if (!late.ok) expect(late.detail).toBe('No cancel from PICKING for CLIENT; nothing is allowed.');
  });

  it('accepts nothing in a terminal state', () => {
    const cancelled = orderAfter({ name: 'cancel' });
    const closed = orderAfter(confirm, deliverAll, { name: 'close' });
    for (const order of [cancelled, closed]) {
      for (const action of [
        confirm,
        pick,
        deliverAll,
        { name: 'cancel' },
        { name: 'close' },
      ] as OrderAction[]) {
        for (const actor of ACTORS) {
          const refused = move(order, action, actor);
          expect(refused).toMatchObject({ ok: false, code: 'ORDER_MOVE_NOT_ALLOWED' });
          if (!refused.ok) expect(refused.detail).toMatch(/is (CANCELLED|CLOSED), which is final/);
        }
      }
    }
  });

  it('cancels releasing exactly what was reserved, and not once something delivered is out', () => {
    const cancelled = ok(move(orderAfter(confirm), { name: 'cancel' }, 'CUSTOMER'));
    expect(cancelled.stock.map((s) => s.released)).toEqual([5, 3]);
    expect(cancelled.order.lines.map((l) => [l.cancelled, l.reserved])).toEqual([
      [5, 0],
      [3, 0],
    ]);
    const part = orderAfter(confirm, deliverSome);
    const refused = move(part, { name: 'cancel' }, 'BACK_OFFICE');
    expect(refused).toMatchObject({ ok: false, code: 'ORDER_DELIVERED_NOT_RETURNED' });
    if (!refused.ok)
      expect(refused.detail).toBe('2 delivered pieces have not come back; close the order instead.');
    // Once the two pieces came back, the back office may cancel the rest of the order.
    const back = receiveReturn(part.lines[0]!, 2);
    if (!back.ok) throw new Error(back.detail);
    const returned = { ...part, lines: [back.line, part.lines[1]!] };
    const nowCancelled = ok(move(returned, { name: 'cancel' }, 'BACK_OFFICE'));
    expect(nowCancelled.history).toMatchObject({ from: 'PARTIALLY_DELIVERED', to: 'CANCELLED' });
    expect(nowCancelled.stock.map((s) => s.released)).toEqual([3, 3]);
  });

  it('closes a partial delivery only when the close cancels the rest', () => {
    const part = orderAfter(confirm, deliverSome);
    const refused = move(part, { name: 'close' }, 'CLIENT');
    expect(refused).toMatchObject({ ok: false, code: 'ORDER_HAS_OPEN_QUANTITY' });
    if (!refused.ok)
      expect(refused.detail).toBe('6 pieces are still open: deliver them, or close cancelling the rest.');
    const closed = ok(move(part, { name: 'close', cancelRest: true }, 'CLIENT'));
    expect(closed.history).toMatchObject({ from: 'PARTIALLY_DELIVERED', to: 'CLOSED' });
    expect(closed.stock.map((s) => s.released)).toEqual([3, 3]);
    expect(closed.order.lines.every((l) => openQuantity(l) === 0 && l.reserved === 0)).toBe(true);
  });

  it('refuses an empty delivery and one beyond the open quantity, naming the line', () => {
    expect(move(orderAfter(confirm), { name: 'deliver', quantities: [0, 0] }, 'SYSTEM')).toMatchObject({
      code: 'ORDER_DELIVERY_EMPTY',
    });
    const over = move(orderAfter(confirm), { name: 'deliver', quantities: [1, 4] }, 'SYSTEM');
    expect(over).toMatchObject({ ok: false, code: 'ORDER_LINE_OVER_DELIVERED' });
    if (!over.ok) expect(over.detail).toMatch(/^Line 2: The line has 3 open, not 4/);
    expect(() => move(orderAfter(confirm), { name: 'deliver', quantities: [1] }, 'SYSTEM')).toThrow(
      RangeError,
    );
  });

  it('places only for the parties and the back office, and never reserves more than ordered', () => {
    expect(place([{ ordered: 1, reserved: 0 }], 'SYSTEM')).toMatchObject({ code: 'ORDER_MOVE_NOT_ALLOWED' });
    expect(place([{ ordered: 1, reserved: 2 }], 'CLIENT')).toMatchObject({
      code: 'ORDER_LINE_OVER_RESERVED',
    });
    expect(() => place([], 'CLIENT')).toThrow(RangeError);
  });

  it('uses every row', () => {
    // Each row is reached by some order: the table has no row that can never apply.
    const reached = new Set<string>();
    const record = (m: Moved) => reached.add(`${m.history.from} ${m.history.action} ${m.history.to}`);
    record(ok(place([{ ordered: 5, reserved: 5 }], 'CLIENT')));
    const starts = [orderAfter(), orderAfter(confirm), orderAfter(confirm, pick)];
    const withDelivery = [
      orderAfter(confirm, deliverSome),
      orderAfter(confirm, deliverAll),
      orderAfter(confirm, pick, deliverSome),
      orderAfter(confirm, pick, deliverAll),
      orderAfter(confirm, deliverSome, { name: 'deliver', quantities: [3, 3] }),
      orderAfter(confirm, deliverSome, deliverSome),
    ];
    const returnedAll = (o: Order): Order => ({
      ...o,
      lines: o.lines.map((l) => (l.delivered > 0 ? { ...l, returned: l.delivered } : l)),
    });
    const actions: OrderAction[] = [
      confirm,
      pick,
      deliverSome,
      deliverAll,
      { name: 'deliver', quantities: [3, 3] },
      { name: 'cancel' },
      { name: 'close', cancelRest: true },
      { name: 'cancelDelivery', quantities: [2, 0] },
      { name: 'cancelDelivery', quantities: [5, 3] },
    ];
    for (const order of [...starts, ...withDelivery, ...withDelivery.map(returnedAll)]) {
      for (const action of actions) {
        const result = move(order, action, 'BACK_OFFICE');
        if (result.ok) record(result);
      }
    }
    expect([...reached].sort()).toEqual(LIFECYCLE.map((m) => `${m.from} ${m.action} ${m.to}`).sort());
  });
});

type Step =
  | { kind: 'move'; action: OrderAction; actor: Actor }
  | { kind: 'reserve' | 'release' | 'return' | 'deliverLine'; line: number; quantity: number };

const step = (lineCount: number): fc.Arbitrary<Step> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('move' as const),
      actor: fc.constantFrom(...ACTORS),
      // Weighted so that sequences live long enough to deliver, return and close (a cancel ends them).
      action: fc.oneof(
        { arbitrary: fc.constantFrom<OrderAction>({ name: 'confirm' }, { name: 'startPicking' }), weight: 3 },
        { arbitrary: fc.constant<OrderAction>({ name: 'cancel' }), weight: 1 },
        {
          arbitrary: fc.constantFrom<OrderAction>({ name: 'close' }, { name: 'close', cancelRest: true }),
          weight: 1,
        },
        {
          arbitrary: fc
            .array(fc.integer({ min: 0, max: 4 }), { minLength: lineCount, maxLength: lineCount })
            .map((quantities): OrderAction => ({ name: 'deliver', quantities })),
          weight: 4,
        },
        {
          arbitrary: fc
            .array(fc.integer({ min: 0, max: 2 }), { minLength: lineCount, maxLength: lineCount })
            .map((quantities): OrderAction => ({ name: 'cancelDelivery', quantities })),
          weight: 1,
        },
      ),
    }),
    fc.record({
      kind: fc.constantFrom(
        'reserve' as const,
        'release' as const,
        'return' as const,
        'deliverLine' as const,
      ),
      line: fc.integer({ min: 0, max: lineCount - 1 }),
      quantity: fc.integer({ min: 1, max: 4 }),
    }),
  );

const orders = fc
  .array(fc.record({ ordered: fc.integer({ min: 1, max: 8 }), reserved: fc.nat(8) }), {
    minLength: 1,
    maxLength: 4,
  })
  .chain((lines) =>
    fc.tuple(
      fc.constant(lines.map((l) => ({ ordered: l.ordered, reserved: Math.min(l.reserved, l.ordered) }))),
      fc.array(step(lines.length), { maxLength: 30 }),
    ),
  );

const reservedOf = (lines: readonly LineCounters[]) => lines.reduce((n, l) => n + l.reserved, 0);

describe('taking a delivery back (cancelDelivery)', () => {
  it('opens and reserves again what the delivery took, landing where the counters say', () => {
    const part = orderAfter(confirm, pick, deliverSome);
    const back = ok(move(part, { name: 'cancelDelivery', quantities: [2, 0] }, 'BACK_OFFICE'));
    expect(back.history).toEqual({
      from: 'PARTIALLY_DELIVERED',
      to: 'PICKING',
      action: 'cancelDelivery',
      actor: 'BACK_OFFICE',
    });
    expect(back.order.lines).toEqual(orderAfter(confirm, pick).lines);
    expect(back.stock).toEqual([
      { released: 0, delivered: 0, fromReserved: 0, restored: 2 },
      { released: 0, delivered: 0, fromReserved: 0, restored: 0 },
    ]);
    const twice = orderAfter(confirm, deliverSome, { name: 'deliver', quantities: [3, 3] });
    const first = ok(move(twice, { name: 'cancelDelivery', quantities: [2, 0] }, 'SYSTEM'));
    expect(first.history).toMatchObject({ from: 'DELIVERED', to: 'PARTIALLY_DELIVERED' });
    expect(first.order.lines[0]).toMatchObject({ delivered: 3, reserved: 2 });
  });

  it('refuses an empty one, one of pieces that came back, one by a party and one on a final order', () => {
    const part = orderAfter(confirm, deliverSome);
    expect(move(part, { name: 'cancelDelivery', quantities: [0, 0] }, 'BACK_OFFICE')).toMatchObject({
      code: 'ORDER_DELIVERY_EMPTY',
    });
    const back = receiveReturn(part.lines[0]!, 1);
    if (!back.ok) throw new Error(back.detail);
    const returned = { ...part, lines: [back.line, part.lines[1]!] };
    const refused = move(returned, { name: 'cancelDelivery', quantities: [2, 0] }, 'BACK_OFFICE');
    expect(refused).toMatchObject({ ok: false, code: 'ORDER_LINE_OVER_RETURNED' });
    if (!refused.ok) expect(refused.detail).toMatch(/^Line 1: The line has 1 delivered and not returned/);
    expect(move(part, { name: 'cancelDelivery', quantities: [2, 0] }, 'CUSTOMER')).toMatchObject({
      code: 'ORDER_MOVE_NOT_ALLOWED',
    });
    const closed = orderAfter(confirm, deliverAll, { name: 'close' });
    expect(move(closed, { name: 'cancelDelivery', quantities: [5, 3] }, 'BACK_OFFICE')).toMatchObject({
      code: 'ORDER_MOVE_NOT_ALLOWED',
    });
  });
});

describe('the lifecycle and the line counters over random sequences', () => {
  it('keep the invariants, report the derived state, move only by table rows, and agree on terminal states', async () => {
    await assertProperty(
      fc.property(orders, ([placed, steps]) => {
        let order = ok(place(placed, 'CUSTOMER')).order;
        for (const s of steps) {
          const before = order;
          const from = derivedState(before.lines, before.state);
          if (s.kind === 'move') {
            const result = move(before, s.action, s.actor);
            if (result.ok) {
              const { history } = result;
              expect(TERMINAL_STATES).not.toContain(from);
              const row = LIFECYCLE.find(
                (m) => m.from === history.from && m.action === history.action && m.to === history.to,
              );
              expect(row?.actors, JSON.stringify(history)).toContain(s.actor);
              expect(history.from).toBe(from);
              expect(history.to).toBe(derivedState(result.order.lines, result.order.state));
              expect(result.reported).toBe(history.to);
              // Stock moves by exactly the reservation the counters give up (or take back).
              const given = result.stock.reduce((n, x) => n + x.released + x.fromReserved - x.restored, 0);
              expect(given).toBe(reservedOf(before.lines) - reservedOf(result.order.lines));
              order = result.order;
            }
          } else {
            const l = before.lines[s.line]!;
            const result =
              s.kind === 'reserve'
                ? reserve(l, s.quantity)
                : s.kind === 'release'
                  ? release(l, s.quantity)
                  : s.kind === 'return'
                    ? receiveReturn(l, s.quantity)
                    : deliver(l, s.quantity);
            // A delivery is a lifecycle move, never line work on its own: the service may not do
            // it, but even if it did, a terminal order's counters would refuse it.
            if (TERMINAL_STATES.includes(from) && (s.kind === 'deliverLine' || s.kind === 'reserve')) {
              expect(result.ok).toBe(false);
            }
            if (result.ok && s.kind !== 'deliverLine') {
              order = { ...before, lines: before.lines.with(s.line, result.line) };
            }
          }
          for (const l of order.lines) expect(brokenInvariant(l), JSON.stringify(l)).toBeNull();
          const reported = derivedState(order.lines, order.state);
          if (TERMINAL_STATES.includes(from)) expect(reported).toBe(from);
          if (TERMINAL_STATES.includes(reported) || reported === 'DELIVERED') {
            expect(order.lines.every((l) => openQuantity(l) === 0 && l.reserved === 0)).toBe(true);
          }
          if (reported === 'PARTIALLY_DELIVERED') {
            expect(
              order.lines.some((l) => l.delivered > 0) && order.lines.some((l) => openQuantity(l) > 0),
            ).toBe(true);
          }
        }
      }),
      500,
    );
  });
});
