import { describe, expect, it } from 'vitest';
import type { DocumentLanguage } from '../document.ts';
import { legalMentions, paymentTermsSentence, writtenDate } from './legal-mentions.ts';

const LANGUAGES: DocumentLanguage[] = ['nl', 'fr', 'de', 'en'];

describe('legal mentions', () => {
  it('has every mention in every language, none empty, none left in another language', () => {
    const keys = Object.keys(legalMentions('nl')).sort();
    for (const language of LANGUAGES) {
      const mentions = legalMentions(language);
      expect(Object.keys(mentions).sort(), language).toEqual(keys);
      for (const [key, text] of Object.entries(mentions))
        expect(text.trim().length, `${language} ${key}`).toBeGreaterThan(3);
    }
    for (const key of keys as (keyof ReturnType<typeof legalMentions>)[])
      expect(new Set(LANGUAGES.map((l) => legalMentions(l)[key])).size, key).toBe(4);
  });

  it('words the reverse charge and the credit note as the Belgian rules do', () => {
    expect(legalMentions('nl').reverseCharge).toBe('Verlegging van heffing');
    expect(legalMentions('fr').reverseCharge).toBe('Autoliquidation');
    expect(legalMentions('nl').creditNote).toBe(
      'BTW terug te storten aan de Staat in de mate waarin ze oorspronkelijk in aftrek werd gebracht',
    );
    expect(legalMentions('fr').creditNote).toBe(
      "TVA à reverser à l'État dans la mesure où elle a été initialement déduite",
    );
  });
});

describe('paymentTermsSentence', () => {
  it('names the due date as the language writes it and the structured communication', () => {
    const terms = { dueDate: '2026-12-31', reference: '+++123/4567/89002+++' };
    expect(paymentTermsSentence('nl', terms)).toBe(
      'Te betalen vóór 31/12/2026 met gestructureerde mededeling +++123/4567/89002+++',
    );
    expect(paymentTermsSentence('fr', terms)).toBe(
      'À payer avant le 31/12/2026 avec la communication structurée +++123/4567/89002+++',
    );
    expect(paymentTermsSentence('de', terms)).toBe(
      'Zahlbar vor dem 31.12.2026 mit der strukturierten Mitteilung +++123/4567/89002+++',
    );
    expect(paymentTermsSentence('en', terms)).toContain('31/12/2026');
  });

  it('refuses a date that is not YYYY-MM-DD', () => {
    expect(() => writtenDate('31/12/2026', 'nl')).toThrow(RangeError);
  });
});
