import { lazyPackage } from './lazy-package.ts';

/** pngjs loads when a demo picture is first made, not at start (decision 53). */
const pngjs = lazyPackage<typeof import('pngjs')>('pngjs');

/**
 * Pictures for demo data (the catalogue's colour swatches, the shops' photos): plain PNGs made in
 * memory, so the demo needs no image files.
 */

export type Rgb = readonly [number, number, number];

/** A solid square PNG of one colour (real PNG bytes: signature, IHDR, IDAT, IEND). */
export function swatchPng(rgb: Rgb, size = 16): Buffer {
  if (!Number.isInteger(size) || size < 1 || size > 4096)
    throw new RangeError(`swatch size ${size} is not 1 to 4096`);
  const [r, g, b] = rgb.map((v) => Math.max(0, Math.min(255, Math.round(v)))) as [number, number, number];
  const { PNG } = pngjs();
  const png = new PNG({ width: size, height: size });
  for (let i = 0; i < size * size; i++) {
    png.data[i * 4] = r;
    png.data[i * 4 + 1] = g;
    png.data[i * 4 + 2] = b;
    png.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(png);
}
