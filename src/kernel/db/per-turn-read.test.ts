import { describe, expect, it } from 'vitest';
import { PerTurnRead } from './per-turn-read.ts';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A read that returns `value` as it was when the read started, once `finish()` is called. */
function heldReads() {
  const state = { value: 10, started: 0, finish: [] as Array<() => void> };
  const read = new PerTurnRead(async () => {
    state.started++;
    const seen = state.value;
    await new Promise<void>((resolve) => state.finish.push(resolve));
    return seen;
  });
  return { state, read };
}

describe('PerTurnRead', () => {
  it('reads once for the callers of one turn, starting on the next turn', async () => {
    const { state, read } = heldReads();
    const first = read.current();
    expect(read.current()).toBe(first);
    expect(state.started).toBe(0); // nothing is read before the next turn
    await nextTurn();
    expect(state.started).toBe(1);
    state.finish.shift()?.();
    expect(await first).toBe(10);
  });

  it('gives a caller that asks after a read started a read of its own, after that one ended, shared with the callers meanwhile', async () => {
    const { state, read } = heldReads();
    const first = read.current();
    await nextTurn();
    expect(state.started).toBe(1);
    // a write commits after the read started, then callers ask: they must not get its value
    state.value = 11;
    const late = read.current();
    expect(late).not.toBe(first);
    await nextTurn();
    const later = read.current();
    expect(later).toBe(late); // still waiting for the first read: it joins the next one
    expect(state.started).toBe(1); // one read at a time
    state.finish.shift()?.();
    expect(await first).toBe(10);
    await nextTurn();
    await nextTurn();
    expect(state.started).toBe(2);
    state.finish.shift()?.();
    expect(await late).toBe(11);
  });

  it('keeps nothing once a read ended: the next caller gets a new read', async () => {
    let reads = 0;
    const read = new PerTurnRead(async () => ++reads);
    expect(await read.current()).toBe(1);
    expect(await read.current()).toBe(2);
  });

  it('passes a failed read to its callers only, and reads afresh for the next', async () => {
    let fail = true;
    let release: () => void = () => {};
    const read = new PerTurnRead(async () => {
      if (fail) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        throw new Error('database unavailable');
      }
      return 7;
    });
    const a = read.current();
    const b = read.current();
    await nextTurn();
    const c = read.current(); // waits for the failing read, then reads on its own
    fail = false;
    release();
    await expect(a).rejects.toThrow('database unavailable');
    await expect(b).rejects.toThrow('database unavailable');
    expect(await c).toBe(7);
    expect(await read.current()).toBe(7);
  });
});
