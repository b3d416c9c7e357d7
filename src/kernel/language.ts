/** The language slots of the TV2 interface; configuration maps them to locales (docs/api-conventions.md). */
export const LANGUAGE_SLOTS = [
  'LANGUAGE_1',
  'LANGUAGE_11',
  'LANGUAGE_2',
  'LANGUAGE_3',
  'LANGUAGE_4',
] as const;
export type LanguageSlot = (typeof LANGUAGE_SLOTS)[number];
export type LanguageText = Partial<Record<LanguageSlot, string>>;
export type LanguageObject = Record<LanguageSlot, string>;

export function toLanguageJson(text: LanguageText): string {
  const clean: LanguageText = {};
  for (const slot of LANGUAGE_SLOTS) {
    const value = text[slot];
    if (value !== undefined && value !== '') clean[slot] = value;
  }
  return JSON.stringify(clean);
}

/** Every slot present on the wire, empty where no text is kept, so clients need no null checks. */
export function fromLanguageJson(json: string): LanguageObject {
  const parsed = JSON.parse(json) as LanguageText;
  return {
    LANGUAGE_1: parsed.LANGUAGE_1 ?? '',
    LANGUAGE_11: parsed.LANGUAGE_11 ?? '',
    LANGUAGE_2: parsed.LANGUAGE_2 ?? '',
    LANGUAGE_3: parsed.LANGUAGE_3 ?? '',
    LANGUAGE_4: parsed.LANGUAGE_4 ?? '',
  };
}
