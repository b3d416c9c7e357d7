import { describe, expect, it } from 'vitest';
import { checkCountry, checkEmail, checkPhone, checkPostalCode } from './contact.ts';

const value = <T>(c: { ok: true; value: T } | { ok: false; message: string }) =>
  c.ok ? c.value : `! ${c.message}`;

describe('e-mail', () => {
  it('accepts ordinary addresses, trimmed', () => {
    expect(value(checkEmail(' Anna.de-Vries+shop@Example.co.uk '))).toBe('Anna.de-Vries+shop@Example.co.uk');
    expect(value(checkEmail('x@xn--mnchen-3ya.de'))).toBe('x@xn--mnchen-3ya.de');
  });

  it.each([
    '',
    'anna',
    'anna@',
    '@example.nl',
    'a@b@c.nl',
    'a..b@example.nl',
    '.a@example.nl',
    'a@example',
    'a@-x.nl',
    'a@x.1',
    'a b@x.nl',
    `${'a'.repeat(65)}@x.nl`,
  ])('refuses %j', (email) => {
    expect(checkEmail(email).ok).toBe(false);
  });
});

describe('phone', () => {
  it('normalises to E.164', () => {
    expect(value(checkPhone('06-12 34 56 78', 'NL'))).toBe('+31612345678');
    expect(value(checkPhone('+31 (0)6 1234 5678', null))).toBe('+31612345678');
    expect(value(checkPhone('0032 470 12 34 56', null))).toBe('+32470123456');
    expect(value(checkPhone('030 1234567', 'DE'))).toBe('+49301234567');
    expect(value(checkPhone('020 7946 0958', 'GB'))).toBe('+442079460958');
    expect(value(checkPhone('01 23 45 67 89', 'FR'))).toBe('+33123456789');
  });

  it('refuses letters, national numbers without a known country, and wrong lengths', () => {
    expect(checkPhone('06 abc', 'NL').ok).toBe(false);
    expect(checkPhone('0612345678', null).ok).toBe(false);
    expect(checkPhone('0612345678', 'US').ok).toBe(false);
    expect(checkPhone('+31 6', null).ok).toBe(false);
    expect(checkPhone('+0 612345678', null).ok).toBe(false);
    expect(checkPhone('+3161234567890123', null).ok).toBe(false);
  });
});

describe('postal codes', () => {
  it.each([
    ['NL', '1234ab', '1234 AB'],
    ['NL', '9999 ZZ', '9999 ZZ'],
    ['BE', '1000', '1000'],
    ['DE', '01067', '01067'],
    ['FR', '13001', '13001'],
    ['GB', 'ec1a1bb', 'EC1A 1BB'],
    ['GB', 'W1A 0AX', 'W1A 0AX'],
    ['GB', 'B33 8TH', 'B33 8TH'],
    ['LU', 'L-1234', '1234'],
    ['US', '94103', '94103'],
    ['CA', 'k1a 0b1', 'K1A 0B1'],
    [null, 'AB-12', 'AB-12'],
  ])('%s %j is %j', (country, input, normalised) => {
    expect(value(checkPostalCode(input, country))).toBe(normalised);
  });

  it.each([
    ['NL', '0123 AB'],
    ['NL', '1234 SS'],
    ['NL', '1234'],
    ['BE', '0999'],
    ['BE', '10000'],
    ['DE', '1234'],
    ['DE', '123456'],
    ['FR', '7501'],
    ['GB', '12345'],
    ['GB', 'SW1A'],
    ['US', '#1'],
    ['US', 'A'],
  ])('%s refuses %j', (country, input) => {
    expect(checkPostalCode(input, country).ok).toBe(false);
  });
});

describe('country', () => {
  it('knows ISO 3166-1 alpha-2 codes', () => {
    expect(value(checkCountry('nl'))).toBe('NL');
    expect(value(checkCountry('GB'))).toBe('GB');
    for (const bad of ['XX', 'EU', 'NLD', 'N1', '']) expect(checkCountry(bad).ok).toBe(false);
  });
});
