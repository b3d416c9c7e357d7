import type { LanguageObject } from '../../../kernel/language.ts';

/**
 * The invented fashion world of the demo catalogue: texts in the five language slots, colours and
 * their palettes, materials, fits, target groups, article parameters, brands and seasons.
 */

export type Text = LanguageObject;
export type Gender = 'women' | 'men' | 'unisex' | 'kids';

/** Texts per slot; `be` null means Flemish uses the Dutch text. */
export function t(nl: string, be: string | null, en: string, de: string, fr: string): Text {
  return { LANGUAGE_1: nl, LANGUAGE_11: be ?? nl, LANGUAGE_2: en, LANGUAGE_3: de, LANGUAGE_4: fr };
}

export function copy(text: Text): Text {
  return { ...text };
}

export function mapText(a: Text, b: Text, join: (x: string, y: string, slot: keyof Text) => string): Text {
  return {
    LANGUAGE_1: join(a.LANGUAGE_1, b.LANGUAGE_1, 'LANGUAGE_1'),
    LANGUAGE_11: join(a.LANGUAGE_11, b.LANGUAGE_11, 'LANGUAGE_11'),
    LANGUAGE_2: join(a.LANGUAGE_2, b.LANGUAGE_2, 'LANGUAGE_2'),
    LANGUAGE_3: join(a.LANGUAGE_3, b.LANGUAGE_3, 'LANGUAGE_3'),
    LANGUAGE_4: join(a.LANGUAGE_4, b.LANGUAGE_4, 'LANGUAGE_4'),
  };
}

/** Colour codes: first digit the colour family (0 white/black, 1 grey, 2 brown, 3 red, 4 blue ...). */
export const DEMO_COLOURS = {
  '010': t('wit', null, 'white', 'Weiß', 'blanc'),
  '020': t('ecru', null, 'ecru', 'Ecru', 'écru'),
  '090': t('zwart', null, 'black', 'Schwarz', 'noir'),
  '110': t('grijs gemêleerd', 'grijs gechineerd', 'grey marl', 'Grau meliert', 'gris chiné'),
  '120': t('antraciet', null, 'charcoal', 'Anthrazit', 'anthracite'),
  '210': t('zand', null, 'sand', 'Sand', 'sable'),
  '220': t('camel', null, 'camel', 'Camel', 'camel'),
  '240': t('donkerbruin', null, 'dark brown', 'Dunkelbraun', 'marron foncé'),
  '310': t('rood', null, 'red', 'Rot', 'rouge'),
  '320': t('bordeaux', null, 'burgundy', 'Bordeaux', 'bordeaux'),
  '340': t('oudroze', null, 'dusty pink', 'Altrosa', 'vieux rose'),
  '410': t('donkerblauw', 'marineblauw', 'navy', 'Marineblau', 'bleu marine'),
  '420': t('indigo', null, 'indigo', 'Indigo', 'indigo'),
  '430': t('lichtblauw', null, 'light blue', 'Hellblau', 'bleu clair'),
  '450': t('light wash', null, 'light wash', 'Light Wash', 'délavage clair'),
  '460': t('medium wash', null, 'mid wash', 'Mid Wash', 'délavage moyen'),
  '470': t('dark wash', null, 'dark wash', 'Dark Wash', 'brut foncé'),
  '510': t('olijfgroen', null, 'olive', 'Oliv', 'olive'),
  '520': t('donkergroen', null, 'forest green', 'Dunkelgrün', 'vert forêt'),
  '530': t('saliegroen', null, 'sage', 'Salbei', 'vert sauge'),
  '610': t('oker', null, 'ochre', 'Ocker', 'ocre'),
  '620': t('zachtgeel', null, 'pale yellow', 'Hellgelb', 'jaune pâle'),
  '710': t('cognac', null, 'cognac', 'Cognac', 'cognac'),
  '810': t('bloemenprint', null, 'floral print', 'Blumenprint', 'imprimé fleuri'),
  '820': t('marine/wit gestreept', null, 'navy/white stripe', 'Marine/Weiß gestreift', 'rayé marine/blanc'),
} as const satisfies Record<string, Text>;

export type DemoColourCode = keyof typeof DEMO_COLOURS;

export const PALETTES = {
  basics: ['010', '020', '090', '110', '410', '510', '310', '340', '620', '430', '820'],
  denim: ['420', '450', '460', '470', '090', '010'],
  knit: ['020', '110', '120', '210', '220', '320', '410', '520', '530', '610', '090'],
  shirts: ['010', '430', '410', '210', '530', '820'],
  dresses: ['090', '410', '310', '320', '340', '510', '610', '020', '810', '820'],
  trousers: ['210', '220', '090', '410', '510', '120'],
  outer: ['090', '120', '220', '410', '510', '520', '610'],
  leather: ['090', '240', '710', '210', '410', '010'],
  kids: ['010', '090', '310', '410', '430', '530', '620', '340', '810', '820', '420'],
} as const satisfies Record<string, readonly DemoColourCode[]>;

interface Material {
  text: Text;
  /** Washing temperatures (PARAMETERNO of parameter 10) the material allows; empty: not washable. */
  wash: readonly number[];
}

export const MATERIALS = {
  cotton: { text: t('Katoen', null, 'Cotton', 'Baumwolle', 'Coton'), wash: [30, 40, 60] },
  organicCotton: {
    text: t('Biologisch katoen', null, 'Organic cotton', 'Bio-Baumwolle', 'Coton biologique'),
    wash: [30, 40],
  },
  sweat: {
    text: t('Katoen/polyester', null, 'Cotton/polyester', 'Baumwolle/Polyester', 'Coton/polyester'),
    wash: [30, 40],
  },
  stretchDenim: {
    text: t(
      'Stretchdenim (katoen/elastaan)',
      null,
      'Stretch denim (cotton/elastane)',
      'Stretch-Denim (Baumwolle/Elasthan)',
      'Denim stretch (coton/élasthanne)',
    ),
    wash: [30, 40],
  },
  rigidDenim: {
    text: t(
      'Denim (100% katoen)',
      null,
      'Rigid denim (100% cotton)',
      'Denim (100 % Baumwolle)',
      'Denim (100 % coton)',
    ),
    wash: [30, 40],
  },
  wool: { text: t('Wol', null, 'Wool', 'Wolle', 'Laine'), wash: [30] },
  merino: { text: t('Merinowol', null, 'Merino wool', 'Merinowolle', 'Laine mérinos'), wash: [30] },
  linen: { text: t('Linnen', null, 'Linen', 'Leinen', 'Lin'), wash: [30, 40] },
  viscose: { text: t('Viscose', null, 'Viscose', 'Viskose', 'Viscose'), wash: [30] },
  recycledPolyester: {
    text: t(
      'Gerecycled polyester',
      'Gerecycleerd polyester',
      'Recycled polyester',
      'Recyceltes Polyester',
      'Polyester recyclé',
    ),
    wash: [30, 40],
  },
  leather: { text: t('Leer', null, 'Leather', 'Leder', 'Cuir'), wash: [] },
  suede: { text: t('Suède', null, 'Suede', 'Veloursleder', 'Daim'), wash: [] },
  canvas: { text: t('Canvas', null, 'Canvas', 'Canvas', 'Toile'), wash: [30] },
} as const satisfies Record<string, Material>;

export type MaterialKey = keyof typeof MATERIALS;

export const FITS = {
  slim: t('Slim fit', null, 'Slim fit', 'Slim Fit', 'Coupe ajustée'),
  regular: t('Regular fit', null, 'Regular fit', 'Regular Fit', 'Coupe classique'),
  straight: t('Straight fit', null, 'Straight fit', 'Straight Fit', 'Coupe droite'),
  relaxed: t('Relaxed fit', null, 'Relaxed fit', 'Relaxed Fit', 'Coupe décontractée'),
  oversized: t('Oversized', null, 'Oversized', 'Oversize', 'Oversize'),
  tapered: t('Tapered fit', null, 'Tapered fit', 'Tapered Fit', 'Coupe fuselée'),
  wide: t('Wijde pijp', null, 'Wide leg', 'Weites Bein', 'Jambe large'),
  skinny: t('Skinny fit', null, 'Skinny fit', 'Skinny Fit', 'Coupe skinny'),
} as const satisfies Record<string, Text>;

export type FitKey = keyof typeof FITS;

export const TARGET_GROUPS = {
  women: t('Dames', null, 'Women', 'Damen', 'Femme'),
  men: t('Heren', null, 'Men', 'Herren', 'Homme'),
  unisex: t('Unisex', null, 'Unisex', 'Unisex', 'Mixte'),
  kids: t('Kinderen', null, 'Kids', 'Kinder', 'Enfant'),
} as const satisfies Record<Gender, Text>;

/** Parameter codes (ARTICLEPARAMETERCODES) and parameter numbers (ARTICLEPARAMETERNUMBERS). */
export const DEMO_PARAMETER_CODES = { material: 1, fit: 2, targetGroup: 3 } as const;
export const DEMO_PARAMETER_NUMBERS = { washingTemperature: 10 } as const;

export function washText(degrees: number): Text {
  return t(
    `Wassen op ${degrees} °C`,
    null,
    `Machine wash at ${degrees} °C`,
    `Maschinenwäsche bei ${degrees} °C`,
    `Lavage en machine à ${degrees} °C`,
  );
}

export const BRANDS = {
  noorderzon: 'Noorderzon',
  kade: 'Kade & Co',
  wadden: 'Wadden Denim',
  stapvast: 'Stapvast',
  kapitein: 'Kleine Kapitein',
  lumen: 'Lumen Studio',
  polder: 'Polder Outdoor',
} as const;

export type Brand = (typeof BRANDS)[keyof typeof BRANDS];
export type SeasonKind = 'SS' | 'AW' | 'ALL';

export const SEASONS: Record<SeasonKind, readonly string[]> = {
  SS: ['2025-SS', '2026-SS', '2026-SS'],
  AW: ['2025-AW', '2026-AW', '2026-AW'],
  ALL: ['2025-AW', '2026-SS', '2026-AW'],
};
