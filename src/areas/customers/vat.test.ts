import { describe, expect, it } from 'vitest';
import { checkVatNumber, deMod1110, nlElevenProof, nlMod97, normaliseVat } from './vat.ts';

const ok = (vat: string) => checkVatNumber(vat).ok;

describe('VAT numbers', () => {
  it('normalises case, spaces, dots and dashes', () => {
    expect(normaliseVat(' nl 1234.5678-2.b01 ')).toBe('NL123456782B01');
    expect(checkVatNumber('nl 123456782 b01')).toEqual({ ok: true, value: 'NL123456782B01' });
    expect(checkVatNumber('')).toEqual({ ok: true, value: '' });
  });

  it('NL: the eleven-proof of the older numbers', () => {
    expect(nlElevenProof('123456782')).toBe(true);
    expect(nlElevenProof('123456789')).toBe(false);
    expect(ok('NL123456782B01')).toBe(true);
    expect(ok('NL123456789B01')).toBe(false);
  });

  it('NL: the mod-97 check of the btw-id (2020 on), accepted where the eleven-proof fails', () => {
    // The Belastingdienst's example btw-id.
    expect(nlElevenProof('000099998')).toBe(false);
    expect(nlMod97('NL000099998B57')).toBe(true);
    expect(ok('NL000099998B57')).toBe(true);
    expect(ok('NL000099998B58')).toBe(false);
  });

  it('NL: the format NLxxxxxxxxxBxx', () => {
    expect(checkVatNumber('NL123456782')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/format/),
    });
    expect(ok('NL123456782X01')).toBe(false);
    expect(ok('NL12345678B01')).toBe(false);
  });

  it('BE: 97 minus the first eight digits modulo 97', () => {
    expect(ok('BE0403170701')).toBe(true);
    expect(ok('BE0123456749')).toBe(true);
    expect(ok('BE0123456748')).toBe(false);
    expect(ok('BE123456749')).toBe(false); // nine digits: the old form needs its leading 0
    expect(ok('BE2123456749')).toBe(false); // starts with 0 or 1
  });

  it('DE: ISO 7064 MOD 11,10', () => {
    expect(deMod1110('136695976')).toBe(true);
    expect(ok('DE136695976')).toBe(true);
    expect(ok('DE811569869')).toBe(true);
    expect(ok('DE136695975')).toBe(false);
    expect(ok('DE036695976')).toBe(false); // no leading 0
  });

  it('other countries by format only', () => {
    for (const vat of [
      'ATU12345678',
      'FR40303265045',
      'EL123456789',
      'ESX1234567X',
      'SE556677889901',
      'IE1234567T',
    ]) {
      expect(checkVatNumber(vat), vat).toMatchObject({ ok: true });
    }
    for (const vat of ['AT12345678', 'FR4030326504', 'SE556677889902', 'IT1234567890']) {
      expect(checkVatNumber(vat), vat).toMatchObject({ ok: false });
    }
  });

  it('refuses unknown prefixes and GR for Greece', () => {
    expect(checkVatNumber('XX123')).toMatchObject({ ok: false, message: expect.stringMatching(/prefix/) });
    expect(checkVatNumber('GR123456789')).toMatchObject({ ok: false, message: expect.stringMatching(/EL/) });
    expect(checkVatNumber('123456789')).toMatchObject({ ok: false });
  });
});
