import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../test/helpers/seed.ts';
import {
  brokenInvariant,
  cancelOpen,
  deliver,
  derivedState,
  type LineCounters,
  openQuantity,
  placeLine,
  receiveReturn,
  release,
  reserve,
} from './line-counters.ts';

const line = (over: Partial<LineCounters> = {}): LineCounters => ({
  ordered: 10,
  cancelled: 0,
  reserved: 0,
  delivered: 0,
  returned: 0,
  ...over,
});

function ok<T extends { ok: boolean }>(result: T): Extract<T, { ok: true }> {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result as Extract<T, { ok: true }>;
}

describe('line counters', () => {
  it('place a line with what the stock reserved, never more than ordered', () => {
    expect(ok(placeLine(5, 5)).line).toEqual(line({ ordered: 5, reserved: 5 }));
    expect(ok(placeLine(5, 0)).line).toEqual(line({ ordered: 5 }));
    expect(placeLine(5, 6)).toMatchObject({ ok: false, code: 'ORDER_LINE_OVER_RESERVED' });
  });

  it('reserve only open and unreserved pieces, release only reserved ones', () => {
    const l = line({ ordered: 10, cancelled: 2, delivered: 3, reserved: 4 });
    expect(ok(reserve(l, 1)).line.reserved).toBe(5);
    expect(reserve(l, 2)).toMatchObject({ ok: false, code: 'ORDER_LINE_OVER_RESERVED' });
    expect(ok(release(l, 4)).line.reserved).toBe(0);
    expect(release(l, 5)).toMatchObject({ ok: false, code: 'ORDER_LINE_OVER_RELEASED' });
  });

  it('deliver out of the reservation first, and never more than is open', () => {
    const l = line({ ordered: 10, reserved: 4 });
    const first = ok(deliver(l, 6));
    expect(first.line).toEqual(line({ ordered: 10, delivered: 6, reserved: 0 }));
    expect(first.fromReserved).toBe(4);
    const small = ok(deliver(l, 3));
    expect([small.line.reserved, small.fromReserved]).toEqual([1, 3]);
    const refused = deliver(line({ ordered: 10, cancelled: 4, delivered: 5 }), 2);
    expect(refused).toMatchObject({ ok: false, code: 'ORDER_LINE_OVER_DELIVERED' });
    if (!refused.ok) expect(refused.detail).toContain('delivered ≤ ordered − cancelled');
  });

  it('cancel open pieces, releasing only the reservation no longer covered', () => {
    // 10 open, 4 reserved: cancelling 6 leaves 4 open, all still reserved.
    expect(ok(cancelOpen(line({ reserved: 4 }), 6))).toMatchObject({
      line: { cancelled: 6, reserved: 4 },
      released: 0,
    });
    // cancelling 8 leaves 2 open: 2 of the 4 reserved go back.
    expect(ok(cancelOpen(line({ reserved: 4 }), 8))).toMatchObject({
      line: { cancelled: 8, reserved: 2 },
      released: 2,
    });
    expect(cancelOpen(line({ delivered: 7 }), 4)).toMatchObject({
      ok: false,
      code: 'ORDER_LINE_OVER_CANCELLED',
    });
  });

  it('take back only delivered pieces not yet returned', () => {
    const l = line({ delivered: 3, returned: 1 });
    expect(ok(receiveReturn(l, 2)).line.returned).toBe(3);
    expect(receiveReturn(l, 3)).toMatchObject({ ok: false, code: 'ORDER_LINE_OVER_RETURNED' });
  });

  it('throw on a quantity that is not a whole number of at least 1 (a bug, not a refusal)', () => {
    for (const q of [0, -1, 1.5, Number.NaN]) {
      expect(() => deliver(line(), q)).toThrow(RangeError);
      expect(() => reserve(line(), q)).toThrow(RangeError);
    }
  });

  it('name the invariant a line breaks', () => {
    expect(brokenInvariant(line())).toBeNull();
    expect(brokenInvariant(line({ delivered: 8, cancelled: 3 }))).toBe('delivered ≤ ordered − cancelled');
    expect(brokenInvariant(line({ delivered: 1, returned: 2 }))).toBe('returned ≤ delivered');
    expect(brokenInvariant(line({ delivered: 5, reserved: 6 }))).toBe(
      'reserved ≤ ordered − cancelled − delivered',
    );
    expect(brokenInvariant(line({ cancelled: -1 }))).toBe('counters are whole numbers ≥ 0');
  });
});

describe('derivedState', () => {
  it('keeps stored states where the warehouse has not delivered', () => {
    for (const stored of ['NEW', 'CONFIRMED', 'PICKING', 'CLOSED', 'CANCELLED'] as const) {
      expect(derivedState([line()], stored)).toBe(stored);
    }
  });

  it('reads the delivery states off the counters of a CONFIRMED or PICKING order', () => {
    const done = line({ ordered: 4, delivered: 4 });
    const part = line({ ordered: 4, delivered: 1 });
    const cancelledRest = line({ ordered: 4, delivered: 1, cancelled: 3 });
    expect(derivedState([done, line()], 'PICKING')).toBe('PARTIALLY_DELIVERED');
    expect(derivedState([part], 'CONFIRMED')).toBe('PARTIALLY_DELIVERED');
    expect(derivedState([done, cancelledRest], 'PICKING')).toBe('DELIVERED');
    // A return does not undo a delivery state: returns are after-sales.
    expect(derivedState([line({ ordered: 4, delivered: 4, returned: 4 })], 'CONFIRMED')).toBe('DELIVERED');
    // Terminal states stay what they are whatever the counters say.
    expect(derivedState([part], 'CLOSED')).toBe('CLOSED');
  });
});

type Op = { kind: 'reserve' | 'release' | 'deliver' | 'cancelOpen' | 'receiveReturn'; quantity: number };

const op = fc.record({
  kind: fc.constantFrom('reserve', 'release', 'deliver', 'cancelOpen', 'receiveReturn' as const),
  quantity: fc.integer({ min: 1, max: 12 }),
}) as fc.Arbitrary<Op>;

function apply(l: LineCounters, o: Op) {
  switch (o.kind) {
    case 'reserve':
      return reserve(l, o.quantity);
    case 'release':
      return release(l, o.quantity);
    case 'deliver':
      return deliver(l, o.quantity);
    case 'cancelOpen':
      return cancelOpen(l, o.quantity);
    case 'receiveReturn':
      return receiveReturn(l, o.quantity);
  }
}

describe('line counters over random operation sequences', () => {
  it('keep every invariant, refuse only what would break one, and leave a refused line unchanged', async () => {
    await assertProperty(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        fc.array(op, { maxLength: 40 }),
        (ordered, reservedAtPlacement, ops) => {
          const placed = placeLine(ordered, reservedAtPlacement);
          expect(placed.ok).toBe(reservedAtPlacement <= ordered);
          if (!placed.ok) return;
          let l = placed.line;
          for (const o of ops) {
            const before = l;
            const result = apply(l, o);
            // A refusal means the naive change would have broken an invariant.
            const naive = {
              ...before,
              [fieldOf(o.kind)]: before[fieldOf(o.kind)] + sign(o.kind) * o.quantity,
            };
            if (!result.ok) {
              expect(brokenInvariant(naive), JSON.stringify({ before, o })).not.toBeNull();
              continue;
            }
            l = result.line;
            expect(brokenInvariant(l), JSON.stringify({ before, o, l })).toBeNull();
            // Pieces are conserved: what is open, delivered or cancelled is always what was ordered.
            expect(openQuantity(l) + l.delivered + l.cancelled).toBe(ordered);
            // The stock effects reported are exactly the change of the reservation.
            if ('released' in result) expect(before.reserved - l.reserved).toBe(result.released);
            if ('fromReserved' in result) expect(before.reserved - l.reserved).toBe(result.fromReserved);
          }
        },
      ),
      300,
    );
  });
});

function fieldOf(kind: Op['kind']): keyof LineCounters {
  switch (kind) {
    case 'reserve':
    case 'release':
      return 'reserved';
    case 'deliver':
      return 'delivered';
    case 'cancelOpen':
      return 'cancelled';
    case 'receiveReturn':
      return 'returned';
  }
}

function sign(kind: Op['kind']): number {
  return kind === 'release' ? -1 : 1;
}
