import { describe, expect, it } from 'vitest';
import { upTo } from './pricing-input.ts';

describe('upTo', () => {
  it('matches exactly the whole numbers 1 to max, without leading zeros', () => {
    for (const max of [1, 7, 10, 99, 100, 9999, 1_000_000, 2_147_483_647]) {
      const re = new RegExp(`^(?:${upTo(max)})$`);
      const probes = [0, 1, 2, 9, 10, 11, max - 1, max, max + 1, max * 10, Math.floor(max / 2) + 1];
      for (const n of probes) expect(re.test(String(n)), `${n} of 1..${max}`).toBe(n >= 1 && n <= max);
      expect(re.test(`0${max}`)).toBe(false);
    }
    for (let n = 0; n <= 1200; n++)
      expect(new RegExp(`^(?:${upTo(1000)})$`).test(String(n))).toBe(n >= 1 && n <= 1000);
  });
});
