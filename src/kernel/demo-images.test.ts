import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { swatchPng } from './demo-images.ts';

describe('swatchPng', () => {
  it('makes a real PNG of the size and colour asked, channels clamped to 0..255', () => {
    const png = PNG.sync.read(swatchPng([300, 56.4, -5], 4));
    expect([png.width, png.height]).toEqual([4, 4]);
    expect([...png.data.subarray(0, 4)]).toEqual([255, 56, 0, 255]);
    expect([...png.data.subarray(60, 64)]).toEqual([255, 56, 0, 255]);
  });

  it('refuses sizes outside 1 to 4096', () => {
    for (const size of [0, 4097, 1.5]) expect(() => swatchPng([0, 0, 0], size)).toThrow(RangeError);
  });
});
