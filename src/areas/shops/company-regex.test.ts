import { describe, expect, it } from 'vitest';
import { checkEmail, checkPhone, checkPostalCode } from '../../kernel/contact.ts';
import { checkPattern, SERVER_PATTERNS } from './company-regex.ts';

const pattern = (name: string, country: string | null = null) => {
  const p = SERVER_PATTERNS.find((s) => s.name === name && s.country === country);
  if (!p) throw new Error(`no pattern ${name} ${country}`);
  return new RegExp(p.pattern);
};

/** How the server prepares a postal code before its check (src/kernel/contact.ts). */
const postalForm = (input: string) => input.trim().toUpperCase().replace(/\s+/g, ' ');

describe('the server patterns for client apps', () => {
  it('each compiles, is anchored and portable, and keys are unique', () => {
    const keys = new Set<string>();
    for (const p of SERVER_PATTERNS) {
      expect(checkPattern(p), `${p.name} ${p.country}`).toEqual([]);
      const key = `${p.name}/${p.country}`;
      expect(keys.has(key), key).toBe(false);
      keys.add(key);
    }
  });

  it('EMAIL accepts and refuses exactly what the server does', () => {
    const samples = [
      'anna@example.com',
      'a.b+c@mail.example.co.uk',
      "o'brien@example.ie",
      'x@xn--bcher-kva.example',
      'x@a.xn--p1ai',
      'no-at.example.com',
      'two@@example.com',
      'a@b@example.com',
      '.dot@example.com',
      'dot.@example.com',
      'a..b@example.com',
      'a@example',
      'a@-example.com',
      'a@example-.com',
      'a@example.c',
      'a@example.123',
      'a@example.xn--',
      `${'l'.repeat(65)}@example.com`,
      `${'l'.repeat(64)}@example.com`,
      `a@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.${'g'.repeat(57)}.com`,
      `a@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.${'g'.repeat(58)}.com`,
      'spaces in@example.com',
      'ünï@example.com',
    ];
    const re = pattern('EMAIL');
    for (const s of samples) expect(re.test(s), s).toBe(checkEmail(s).ok);
    expect(re.test('anna@example.com')).toBe(true);
    expect(re.test('a@example')).toBe(false);
  });

  it('PHONE accepts what the server stores (E.164) and refuses the rest', () => {
    const re = pattern('PHONE');
    for (const s of ['+31612345678', '+3220000000', '+447911123456', '+1234567']) {
      expect(re.test(s), s).toBe(true);
      expect(checkPhone(s, null)).toEqual({ ok: true, value: s });
    }
    for (const s of ['+0612345678', '0612345678', '+31 6 12345678', '+123456', '+1234567890123456']) {
      expect(re.test(s), s).toBe(false);
    }
    // What the server normalises ("06 1234 5678" in NL) the pattern accepts in that form.
    const normalised = checkPhone('06 1234 5678', 'NL');
    expect(normalised.ok && re.test(normalised.value)).toBe(true);
  });

  it('POSTALCODE per country accepts and refuses exactly what the server does', () => {
    const samples: Record<string, string[]> = {
      NL: [
        '1012 PK',
        '1012PK',
        '1012 pk',
        '0123 AB',
        '1012 SA',
        '1012 SS',
        '1012 SD',
        '1012 SE',
        '10123 AB',
        '1012 P',
      ],
      BE: ['2000', '9000', '0999', '20000', '20A0'],
      LU: ['1234', 'L-1234', 'L1234', 'L 1234', '12345'],
      DE: ['10115', '01067', '1011', '101150'],
      AT: ['1010', '0101', '10101'],
      FR: ['75001', '7500', '750011'],
      GB: [
        'SW1A 1AA',
        'SW1A1AA',
        'EC1A 1BB',
        'M1 1AE',
        'B33 8TH',
        'GIR 0AA',
        'CR2 6XH',
        'SW1A 1A',
        '1AA 1AA',
      ],
    };
    for (const [country, values] of Object.entries(samples)) {
      const re = pattern('POSTALCODE', country);
      for (const s of values) {
        expect(re.test(postalForm(s)), `${country} ${s}`).toBe(checkPostalCode(s, country).ok);
      }
    }
    const generic = pattern('POSTALCODE');
    for (const s of ['12345', 'AB-12', 'K1A 0B1', 'A', '-123', '12345678901', 'ab12']) {
      expect(generic.test(postalForm(s)), s).toBe(checkPostalCode(s, 'CA').ok);
    }
  });

  it('CARDNO takes 4 to 32 capitals, digits or -', () => {
    const re = pattern('CARDNO');
    for (const s of ['NW-000123', '1234', 'A'.repeat(32)]) expect(re.test(s), s).toBe(true);
    for (const s of ['123', 'nw-000123', 'A'.repeat(33), 'NW 000123']) expect(re.test(s), s).toBe(false);
  });

  // A proper name and country are the schema's: admin-shops.test.ts sends them over HTTP.
  it('checks table entries: anchored, compiling, portable', () => {
    const entry = { name: 'VATNO', country: 'NL', pattern: '^NL[0-9]{9}B[0-9]{2}$', description: {} };
    expect(checkPattern(entry)).toEqual([]);
    expect(checkPattern({ ...entry, pattern: 'NL[0-9]{9}' }).map((e) => e.name)).toEqual(['PATTERN']);
    expect(checkPattern({ ...entry, pattern: '^([0-9]$' })[0]?.message).toMatch(/does not compile/);
    expect(checkPattern({ ...entry, pattern: '^(?<=a)b$' })[0]?.message).toMatch(/not portable/);
    expect(checkPattern({ ...entry, pattern: '^a\\$' })[0]?.message).toMatch(/anchored/);
  });
});
