import { describe, expect, it } from 'vitest';
import { isValidEan13, toEan13 } from './ean.ts';

describe('EAN-13', () => {
  it('accepts real barcodes and computes their check digit', () => {
    expect(isValidEan13('4006381333931')).toBe(true);
    expect(isValidEan13('5901234123457')).toBe(true);
    expect(toEan13('400638133393')).toBe('4006381333931');
  });

  it('rejects a wrong check digit, wrong length and non-digits', () => {
    expect(isValidEan13('4006381333932')).toBe(false);
    expect(isValidEan13('400638133393')).toBe(false);
    expect(isValidEan13('40063813339a1')).toBe(false);
  });
});
