import { describe, expect, it } from 'vitest';
import { ScnPerTurn } from './scn-per-turn.ts';

describe('ScnPerTurn', () => {
  it('reads once for the callers of one turn, and again for a caller after the read started', async () => {
    let value = 10;
    let reads = 0;
    let release: () => void = () => {};
    const scn = new ScnPerTurn(async () => {
      reads++;
      const seen = value;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return seen;
    });
    const first = scn.current();
    const second = scn.current();
    expect(first).toBe(second);
    // let the read start, then a write commits and a caller asks: it must not join that read
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toBe(1);
    value = 11;
    const late = scn.current();
    expect(late).not.toBe(first);
    release();
    expect(await first).toBe(10);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toBe(2);
    release();
    expect(await late).toBe(11);
  });

  it('passes a failed read to every caller of that turn, and reads afresh next time', async () => {
    let fail = true;
    const scn = new ScnPerTurn(async () => {
      if (fail) throw new Error('database unavailable');
      return 7;
    });
    const a = scn.current();
    const b = scn.current();
    await expect(a).rejects.toThrow('database unavailable');
    await expect(b).rejects.toThrow('database unavailable');
    fail = false;
    expect(await scn.current()).toBe(7);
  });
});
