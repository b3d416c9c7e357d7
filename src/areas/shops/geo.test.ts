import { describe, expect, it } from 'vitest';
import {
  distanceMetres,
  fromMicroDegrees,
  MAX_LATITUDE_MICRO,
  MAX_LONGITUDE_MICRO,
  toMicroDegrees,
} from './geo.ts';

describe('geo positions in micro-degrees', () => {
  it('parses decimal text and JSON numbers exactly', () => {
    expect(toMicroDegrees('52.370216', MAX_LATITUDE_MICRO)).toBe(52_370_216);
    expect(toMicroDegrees(4.895168, MAX_LONGITUDE_MICRO)).toBe(4_895_168);
    expect(toMicroDegrees('-0.1', MAX_LONGITUDE_MICRO)).toBe(-100_000);
    expect(toMicroDegrees('90', MAX_LATITUDE_MICRO)).toBe(90_000_000);
    expect(toMicroDegrees('-0', MAX_LATITUDE_MICRO)).toBe(0);
  });

  it('refuses more than six decimals, out-of-range values and non-numbers', () => {
    expect(toMicroDegrees('52.3702161', MAX_LATITUDE_MICRO)).toBeNull();
    expect(toMicroDegrees('90.000001', MAX_LATITUDE_MICRO)).toBeNull();
    expect(toMicroDegrees('180.5', MAX_LONGITUDE_MICRO)).toBeNull();
    expect(toMicroDegrees('52,37', MAX_LATITUDE_MICRO)).toBeNull();
    expect(toMicroDegrees(Number.NaN, MAX_LATITUDE_MICRO)).toBeNull();
    expect(toMicroDegrees(0.1 + 0.2, MAX_LATITUDE_MICRO)).toBeNull();
  });

  it('shows micro-degrees as the same decimal', () => {
    expect(fromMicroDegrees(52_370_216)).toBe(52.370216);
    expect(fromMicroDegrees(-100_000)).toBe(-0.1);
    expect(fromMicroDegrees(5)).toBe(0.000005);
    expect(JSON.stringify(fromMicroDegrees(4_895_168))).toBe('4.895168');
  });

  it('measures distances in metres', () => {
    const amsterdam = { latitude: 52_370_216, longitude: 4_895_168 };
    const utrecht = { latitude: 52_090_737, longitude: 5_121_420 };
    const d = distanceMetres(amsterdam, utrecht);
    expect(d).toBeGreaterThan(34_000);
    expect(d).toBeLessThan(36_000);
    expect(distanceMetres(amsterdam, amsterdam)).toBe(0);
  });
});
