import { type Rgb, swatchPng } from '../../../kernel/demo-images.ts';
import type { DemoColourCode } from './fashion.ts';

/** The swatch colour of every demo colour code (prints get their dominant colour). */
export const COLOUR_RGB: Readonly<Record<DemoColourCode, Rgb>> = {
  '010': [250, 250, 248],
  '020': [238, 232, 214],
  '090': [24, 24, 26],
  '110': [160, 162, 165],
  '120': [62, 64, 68],
  '210': [214, 196, 164],
  '220': [193, 154, 107],
  '240': [92, 64, 46],
  '310': [190, 30, 45],
  '320': [110, 24, 42],
  '340': [212, 160, 164],
  '410': [30, 40, 72],
  '420': [42, 56, 102],
  '430': [164, 196, 228],
  '450': [140, 170, 205],
  '460': [88, 118, 160],
  '470': [34, 44, 70],
  '510': [108, 112, 60],
  '520': [34, 78, 52],
  '530': [156, 175, 136],
  '610': [204, 142, 40],
  '620': [246, 230, 140],
  '710': [155, 90, 50],
  '810': [222, 120, 150],
  '820': [44, 58, 100],
};

/** The swatch of a demo colour code; an unknown code gets neutral grey. */
export function colourSwatchPng(colourCode: string, size = 16): Buffer {
  const rgb = (COLOUR_RGB as Readonly<Record<string, Rgb>>)[colourCode] ?? [128, 128, 128];
  return swatchPng(rgb, size);
}
