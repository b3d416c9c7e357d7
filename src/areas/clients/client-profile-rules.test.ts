import { describe, expect, it } from 'vitest';
import { refusedFields } from '../../kernel/refused-fields.ts';
import { type ClientInput, checkClientInput, mergeClient, sameClient } from './client-profile-rules.ts';

const AT = '2026-05-01T08:00:00.000Z';
const LATER = '2026-05-10T08:00:00.000Z';

const created = (input: ClientInput) => mergeClient(undefined, input, 100_001, AT, 5);

describe('checkClientInput', () => {
  it('needs an e-mail address and a last name for a new client only', () => {
    expect(refusedFields(() => checkClientInput({ firstName: 'Anna' }))).toEqual(['/EMAIL', '/LASTNAME']);
    expect(() => checkClientInput({ clientNo: 100_001, firstName: 'Anna' })).not.toThrow();
  });

  // The shapes of that record (client number, lengths, home shop, card number) are its schema's:
  // test/admin-clients.test.ts sends them to the back office.
  it('names every field that is wrong by its pointer in the client record, the member card by its path', () => {
    expect(
      refusedFields(() =>
        checkClientInput({
          clientNo: 100_001,
          lastName: ' ',
          birthDate: '1899-12-31',
          memberCard: { cardNo: 'CARD-1', level: 'GOLD', validFrom: '2026-01-01', validTo: '2025-12-31' },
        }),
      ),
    ).toEqual(['/LASTNAME', '/BIRTHDATE', '/MEMBERCARD/VALIDTO']);
  });
});

describe('mergeClient', () => {
  it('normalises what it stores: trimmed text, the e-mail in lower case for lookups, the phone in E.164', () => {
    const row = created({
      email: ' Anna@Example.NL ',
      lastName: '  de   Vries ',
      phone: '06-12 34 56 78',
      country: 'nl',
    });
    expect(row).toMatchObject({
      client_no: 100_001,
      email: 'Anna@Example.NL',
      email_norm: 'anna@example.nl',
      last_name: 'de Vries',
      phone: '+31612345678',
      country: 'NL',
      language: 'LANGUAGE_1',
      scn: 5,
      created_at: AT,
    });
  });

  it('keeps what the input leaves out and clears what it gives as null', () => {
    const stored = created({ email: 'a@example.nl', lastName: 'A', city: 'Utrecht', firstName: 'Anna' });
    const row = mergeClient(stored, { firstName: null }, stored.client_no, LATER, 6);
    expect(row).toMatchObject({ city: 'Utrecht', first_name: null, created_at: AT, updated_at: LATER });
  });

  it('stamps a consent when it is first given, keeps that instant, and clears it when withdrawn', () => {
    const given = created({ email: 'a@example.nl', lastName: 'A', consents: { newsletter: true } });
    expect(given.consent_newsletter_at).toBe(AT);
    const again = mergeClient(given, { consents: { newsletter: true, sms: false } }, 100_001, LATER, 6);
    expect(again.consent_newsletter_at).toBe(AT);
    expect(again.consent_sms_at).toBeNull();
    expect(
      mergeClient(again, { consents: { newsletter: false } }, 100_001, LATER, 7).consent_newsletter_at,
    ).toBe(null);
  });

  it('checks the stored postal code again when the country changes, not when it stays', () => {
    const stored = created({ email: 'a@example.nl', lastName: 'A', postalCode: '1234ab', country: 'NL' });
    expect(stored.postal_code).toBe('1234 AB');
    expect(refusedFields(() => mergeClient(stored, { country: 'DE' }, 100_001, LATER, 6))).toEqual([
      '/POSTALCODE',
    ]);
    expect(mergeClient(stored, { country: 'DE', postalCode: '01067' }, 100_001, LATER, 6).postal_code).toBe(
      '01067',
    );
    expect(mergeClient(stored, { city: 'Utrecht' }, 100_001, LATER, 6).postal_code).toBe('1234 AB');
  });

  it('sets and removes the member card as a whole', () => {
    const card = { cardNo: 'CARD-1', level: 'GOLD', validFrom: '2026-01-01', validTo: '2026-12-31' };
    const withCard = created({ email: 'a@example.nl', lastName: 'A', memberCard: card });
    expect(withCard).toMatchObject({ card_no: 'CARD-1', card_level: 'GOLD', card_valid_to: '2026-12-31' });
    expect(mergeClient(withCard, { memberCard: null }, 100_001, LATER, 6)).toMatchObject({
      card_no: null,
      card_level: null,
    });
  });
});

describe('sameClient', () => {
  it('compares what the client said, not the SCN or the instants', () => {
    const stored = created({ email: 'a@example.nl', lastName: 'A' });
    expect(sameClient(stored, mergeClient(stored, { lastName: 'A' }, 100_001, LATER, 9))).toBe(true);
    expect(sameClient(stored, mergeClient(stored, { lastName: 'B' }, 100_001, LATER, 9))).toBe(false);
  });
});
