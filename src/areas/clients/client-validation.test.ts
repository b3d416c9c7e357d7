import { describe, expect, it } from 'vitest';
import { isValidDay, normaliseEmail } from './client-validation.ts';

describe('e-mail', () => {
  it('is compared in lower case, trimmed', () => {
    expect(normaliseEmail(' Anna@Example.NL ')).toBe('anna@example.nl');
  });
});

describe('dates', () => {
  it('knows calendar days', () => {
    expect(isValidDay('2024-02-29')).toBe(true);
    expect(isValidDay('2023-02-29')).toBe(false);
    expect(isValidDay('2024-2-1')).toBe(false);
  });
});
