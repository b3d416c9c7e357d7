import type { LanguageObject } from '../../../kernel/language.ts';
import { Random } from '../../../kernel/random.ts';
import type { ArticleInput, SizeTableInput } from '../catalog-service.ts';
import { toEan13 } from '../ean.ts';

/**
 * The generated demo catalogue: a small invented fashion wholesaler with a few brands, models in
 * one to four colours, real-looking size runs, EAN-13 barcodes and texts in the five language
 * slots (LANGUAGE_1 Dutch, LANGUAGE_11 Flemish, LANGUAGE_2 English, LANGUAGE_3 German,
 * LANGUAGE_4 French). The same seed always gives the same articles, in the same order.
 */

type Text = LanguageObject;
type Gender = 'women' | 'men' | 'unisex' | 'kids';

/** Texts per slot; `be` null means Flemish uses the Dutch text. */
function t(nl: string, be: string | null, en: string, de: string, fr: string): Text {
  return { LANGUAGE_1: nl, LANGUAGE_11: be ?? nl, LANGUAGE_2: en, LANGUAGE_3: de, LANGUAGE_4: fr };
}

function copy(text: Text): Text {
  return { ...text };
}

function mapText(a: Text, b: Text, join: (x: string, y: string, slot: keyof Text) => string): Text {
  return {
    LANGUAGE_1: join(a.LANGUAGE_1, b.LANGUAGE_1, 'LANGUAGE_1'),
    LANGUAGE_11: join(a.LANGUAGE_11, b.LANGUAGE_11, 'LANGUAGE_11'),
    LANGUAGE_2: join(a.LANGUAGE_2, b.LANGUAGE_2, 'LANGUAGE_2'),
    LANGUAGE_3: join(a.LANGUAGE_3, b.LANGUAGE_3, 'LANGUAGE_3'),
    LANGUAGE_4: join(a.LANGUAGE_4, b.LANGUAGE_4, 'LANGUAGE_4'),
  };
}

// --- size tables ---------------------------------------------------------------------------------

const JEANS_SIZES = [28, 29, 30, 31, 32, 33, 34, 36, 38].flatMap((w) => [`${w}/32`, `${w}/34`]);

interface DemoSizeTable {
  table: SizeTableInput & { description: Text };
  /** The run of sizes a gender is made in (first and last size), when not the whole table. */
  ranges: Partial<Record<Gender, readonly [string, string]>>;
}

const SIZE_TABLES: readonly DemoSizeTable[] = [
  {
    table: {
      code: 'CONF',
      description: t('Confectie XS-XXL', null, 'Clothing XS-XXL', 'Konfektion XS-XXL', 'Confection XS-XXL'),
      sizes: ['XS', 'S', 'M', 'L', 'XL', 'XXL'],
    },
    ranges: { women: ['XS', 'XL'], men: ['S', 'XXL'] },
  },
  {
    table: {
      code: 'JEANS',
      description: t(
        'Jeans taille/lengte',
        null,
        'Jeans waist/length',
        'Jeans Bundweite/Länge',
        'Jean tour de taille/longueur',
      ),
      sizes: JEANS_SIZES,
    },
    ranges: { women: ['28/32', '33/34'], men: ['29/32', '38/34'] },
  },
  {
    table: {
      code: 'SHOES',
      description: t(
        'Schoenmaten 36-46',
        null,
        'Shoe sizes EU 36-46',
        'Schuhgrößen 36-46',
        'Pointures 36-46',
      ),
      sizes: ['36', '37', '38', '39', '40', '41', '42', '43', '44', '45', '46'],
    },
    ranges: { women: ['36', '42'], men: ['40', '46'] },
  },
  {
    table: {
      code: 'KIDS',
      description: t(
        'Kindermaten 92-164',
        null,
        'Kids sizes 92-164',
        'Kindergrößen 92-164',
        'Tailles enfant 92-164',
      ),
      sizes: ['92', '98', '104', '110', '116', '122', '128', '134', '140', '146', '152', '158', '164'],
    },
    ranges: {},
  },
  {
    table: {
      code: 'SOCKS',
      description: t('Sokken 35-46', 'Kousen 35-46', 'Socks 35-46', 'Socken 35-46', 'Chaussettes 35-46'),
      sizes: ['35-38', '39-42', '43-46'],
    },
    ranges: { women: ['35-38', '39-42'], men: ['39-42', '43-46'] },
  },
  {
    table: {
      code: 'ONE',
      description: t('One size', 'Eén maat', 'One size', 'Einheitsgröße', 'Taille unique'),
      sizes: ['ONESIZE'],
    },
    ranges: {},
  },
];

type SizeTableCode = 'CONF' | 'JEANS' | 'SHOES' | 'KIDS' | 'SOCKS' | 'ONE';

/** The demo size tables, fresh objects on every call. */
export function demoSizeTables(): SizeTableInput[] {
  return SIZE_TABLES.map(({ table }) => ({
    code: table.code,
    description: copy(table.description),
    sizes: [...table.sizes],
  }));
}

function sizeTable(code: SizeTableCode): DemoSizeTable {
  const found = SIZE_TABLES.find((s) => s.table.code === code);
  if (!found) throw new Error(`no demo size table ${code}`);
  return found;
}

// --- barcodes ------------------------------------------------------------------------------------

/**
 * Barcodes are '87123' (a GS1-Netherlands-like company prefix) + a 7-digit item reference + the
 * check digit. The item reference is articleIndex * SIZE_SLOTS + the size's place in its table, so
 * no two sizes of the generated set share one, whatever the seed.
 */
const BARCODE_PREFIX = '87123';
const SIZE_SLOTS = Math.max(...SIZE_TABLES.map((s) => s.table.sizes.length));
export const MAX_DEMO_ARTICLES = Math.floor(10 ** (12 - BARCODE_PREFIX.length) / SIZE_SLOTS);

function barcodeFor(articleIndex: number, tablePosition: number): string {
  const reference = String(articleIndex * SIZE_SLOTS + tablePosition).padStart(
    12 - BARCODE_PREFIX.length,
    '0',
  );
  return toEan13(BARCODE_PREFIX + reference);
}

// --- the fashion world ---------------------------------------------------------------------------

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

const PALETTES = {
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

const MATERIALS = {
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

type MaterialKey = keyof typeof MATERIALS;

const FITS = {
  slim: t('Slim fit', null, 'Slim fit', 'Slim Fit', 'Coupe ajustée'),
  regular: t('Regular fit', null, 'Regular fit', 'Regular Fit', 'Coupe classique'),
  straight: t('Straight fit', null, 'Straight fit', 'Straight Fit', 'Coupe droite'),
  relaxed: t('Relaxed fit', null, 'Relaxed fit', 'Relaxed Fit', 'Coupe décontractée'),
  oversized: t('Oversized', null, 'Oversized', 'Oversize', 'Oversize'),
  tapered: t('Tapered fit', null, 'Tapered fit', 'Tapered Fit', 'Coupe fuselée'),
  wide: t('Wijde pijp', null, 'Wide leg', 'Weites Bein', 'Jambe large'),
  skinny: t('Skinny fit', null, 'Skinny fit', 'Skinny Fit', 'Coupe skinny'),
} as const satisfies Record<string, Text>;

type FitKey = keyof typeof FITS;

const TARGET_GROUPS = {
  women: t('Dames', null, 'Women', 'Damen', 'Femme'),
  men: t('Heren', null, 'Men', 'Herren', 'Homme'),
  unisex: t('Unisex', null, 'Unisex', 'Unisex', 'Mixte'),
  kids: t('Kinderen', null, 'Kids', 'Kinder', 'Enfant'),
} as const satisfies Record<Gender, Text>;

/** Parameter codes (ARTICLEPARAMETERCODES) and parameter numbers (ARTICLEPARAMETERNUMBERS). */
export const DEMO_PARAMETER_CODES = { material: 1, fit: 2, targetGroup: 3 } as const;
export const DEMO_PARAMETER_NUMBERS = { washingTemperature: 10 } as const;

function washText(degrees: number): Text {
  return t(
    `Wassen op ${degrees} °C`,
    null,
    `Machine wash at ${degrees} °C`,
    `Maschinenwäsche bei ${degrees} °C`,
    `Lavage en machine à ${degrees} °C`,
  );
}

const BRANDS = {
  noorderzon: 'Noorderzon',
  kade: 'Kade & Co',
  wadden: 'Wadden Denim',
  stapvast: 'Stapvast',
  kapitein: 'Kleine Kapitein',
  lumen: 'Lumen Studio',
  polder: 'Polder Outdoor',
} as const;

type Brand = (typeof BRANDS)[keyof typeof BRANDS];
type SeasonKind = 'SS' | 'AW' | 'ALL';

const SEASONS: Record<SeasonKind, readonly string[]> = {
  SS: ['2025-SS', '2026-SS', '2026-SS'],
  AW: ['2025-AW', '2026-AW', '2026-AW'],
  ALL: ['2025-AW', '2026-SS', '2026-AW'],
};

interface Variant {
  name: Text;
  fits?: readonly FitKey[];
  materials?: readonly MaterialKey[];
  gender?: Gender;
}

interface ProductType {
  group: string;
  /** The word a shopper searches for (ARTICLESEARCHNAME1). */
  keyword: Text;
  sizeTable: SizeTableCode;
  weight: number;
  genders: readonly Gender[];
  brands: readonly Brand[];
  palette: readonly DemoColourCode[];
  materials: readonly MaterialKey[];
  season: SeasonKind;
  /** Basics: some models are never-out-of-stock (season NOOS). */
  noos?: boolean;
  variants: readonly Variant[];
}

const PRODUCT_TYPES: readonly ProductType[] = [
  {
    group: 'TSHIRT',
    keyword: t('t-shirt', null, 't-shirt', 'T-Shirt', 't-shirt'),
    sizeTable: 'CONF',
    weight: 14,
    genders: ['women', 'men', 'unisex'],
    brands: [BRANDS.noorderzon, BRANDS.kade, BRANDS.wadden],
    palette: PALETTES.basics,
    materials: ['cotton', 'organicCotton'],
    season: 'ALL',
    noos: true,
    variants: [
      {
        name: t(
          'T-shirt met ronde hals',
          null,
          'Crew neck T-shirt',
          'T-Shirt mit Rundhalsausschnitt',
          'T-shirt col rond',
        ),
        fits: ['regular', 'slim'],
      },
      {
        name: t('T-shirt met V-hals', null, 'V-neck T-shirt', 'T-Shirt mit V-Ausschnitt', 'T-shirt col V'),
        fits: ['slim', 'regular'],
      },
      {
        name: t('Oversized T-shirt', null, 'Oversized T-shirt', 'Oversize-T-Shirt', 'T-shirt oversize'),
        fits: ['oversized'],
      },
      {
        name: t('Longsleeve', null, 'Long-sleeve T-shirt', 'Langarmshirt', 'T-shirt à manches longues'),
        fits: ['regular'],
      },
      { name: t('Poloshirt', 'Polo', 'Polo shirt', 'Poloshirt', 'Polo'), fits: ['regular', 'slim'] },
    ],
  },
  {
    group: 'SHIRT',
    keyword: t('overhemd', 'hemd', 'shirt', 'Hemd', 'chemise'),
    sizeTable: 'CONF',
    weight: 8,
    genders: ['men', 'women'],
    brands: [BRANDS.kade, BRANDS.noorderzon, BRANDS.lumen],
    palette: PALETTES.shirts,
    materials: ['cotton', 'organicCotton'],
    season: 'ALL',
    variants: [
      {
        name: t('Oxford overhemd', 'Oxford hemd', 'Oxford shirt', 'Oxfordhemd', 'Chemise oxford'),
        fits: ['slim', 'regular'],
      },
      {
        name: t('Linnen overhemd', 'Linnen hemd', 'Linen shirt', 'Leinenhemd', 'Chemise en lin'),
        fits: ['regular', 'relaxed'],
        materials: ['linen'],
      },
      {
        name: t(
          'Flanellen overhemd',
          'Flanellen hemd',
          'Flannel shirt',
          'Flanellhemd',
          'Chemise en flanelle',
        ),
        fits: ['regular'],
        materials: ['cotton'],
      },
      {
        name: t(
          'Blouse met strikkraag',
          null,
          'Pussy-bow blouse',
          'Schluppenbluse',
          'Blouse à col lavallière',
        ),
        fits: ['regular'],
        materials: ['viscose'],
        gender: 'women',
      },
    ],
  },
  {
    group: 'SWEATER',
    keyword: t('trui', 'pull', 'jumper', 'Pullover', 'pull'),
    sizeTable: 'CONF',
    weight: 10,
    genders: ['women', 'men', 'unisex'],
    brands: [BRANDS.noorderzon, BRANDS.polder, BRANDS.lumen],
    palette: PALETTES.knit,
    materials: ['wool', 'merino'],
    season: 'AW',
    variants: [
      {
        name: t('Gebreide trui', 'Gebreide pull', 'Knitted jumper', 'Strickpullover', 'Pull en maille'),
        fits: ['regular', 'relaxed'],
      },
      {
        name: t('Hoodie', null, 'Hoodie', 'Kapuzenpullover', 'Sweat à capuche'),
        fits: ['regular', 'oversized'],
        materials: ['sweat', 'organicCotton'],
      },
      {
        name: t(
          'Sweater met ronde hals',
          null,
          'Crew neck sweatshirt',
          'Rundhals-Sweatshirt',
          'Sweat col rond',
        ),
        fits: ['regular'],
        materials: ['sweat', 'organicCotton'],
      },
      { name: t('Cardigan', null, 'Cardigan', 'Strickjacke', 'Cardigan'), fits: ['regular'] },
      {
        name: t('Coltrui', 'Col pull', 'Roll neck jumper', 'Rollkragenpullover', 'Pull col roulé'),
        fits: ['slim', 'regular'],
        materials: ['merino'],
      },
    ],
  },
  {
    group: 'JEANS',
    keyword: t('spijkerbroek', 'jeans', 'jeans', 'Jeans', 'jean'),
    sizeTable: 'JEANS',
    weight: 12,
    genders: ['men', 'women'],
    brands: [BRANDS.wadden, BRANDS.wadden, BRANDS.kade],
    palette: PALETTES.denim,
    materials: ['stretchDenim', 'rigidDenim'],
    season: 'ALL',
    noos: true,
    variants: [
      {
        name: t('Slim fit jeans', null, 'Slim fit jeans', 'Slim-Fit-Jeans', 'Jean coupe ajustée'),
        fits: ['slim'],
      },
      {
        name: t('Straight fit jeans', null, 'Straight fit jeans', 'Straight-Fit-Jeans', 'Jean coupe droite'),
        fits: ['straight'],
      },
      { name: t('Tapered jeans', null, 'Tapered jeans', 'Tapered-Jeans', 'Jean fuselé'), fits: ['tapered'] },
      {
        name: t('Mom jeans', null, 'Mom jeans', 'Mom-Jeans', 'Jean mom'),
        fits: ['relaxed'],
        materials: ['rigidDenim'],
        gender: 'women',
      },
      {
        name: t('Wide leg jeans', null, 'Wide leg jeans', 'Jeans mit weitem Bein', 'Jean jambe large'),
        fits: ['wide'],
        gender: 'women',
      },
      {
        name: t('Skinny jeans', null, 'Skinny jeans', 'Skinny-Jeans', 'Jean skinny'),
        fits: ['skinny'],
        materials: ['stretchDenim'],
      },
    ],
  },
  {
    group: 'TROUSERS',
    keyword: t('broek', null, 'trousers', 'Hose', 'pantalon'),
    sizeTable: 'JEANS',
    weight: 8,
    genders: ['men', 'women'],
    brands: [BRANDS.kade, BRANDS.noorderzon],
    palette: PALETTES.trousers,
    materials: ['cotton', 'organicCotton'],
    season: 'ALL',
    variants: [
      { name: t('Chino', null, 'Chinos', 'Chinohose', 'Chino'), fits: ['slim', 'regular'] },
      {
        name: t(
          'Pantalon met plooien',
          'Broek met plooien',
          'Pleated trousers',
          'Bundfaltenhose',
          'Pantalon à pinces',
        ),
        fits: ['relaxed', 'wide'],
        materials: ['wool', 'viscose'],
      },
      { name: t('Cargobroek', null, 'Cargo trousers', 'Cargohose', 'Pantalon cargo'), fits: ['relaxed'] },
      {
        name: t('Linnen broek', null, 'Linen trousers', 'Leinenhose', 'Pantalon en lin'),
        fits: ['relaxed', 'wide'],
        materials: ['linen'],
      },
    ],
  },
  {
    group: 'DRESS',
    keyword: t('jurk', 'kleed', 'dress', 'Kleid', 'robe'),
    sizeTable: 'CONF',
    weight: 7,
    genders: ['women'],
    brands: [BRANDS.lumen, BRANDS.noorderzon],
    palette: PALETTES.dresses,
    materials: ['viscose', 'cotton'],
    season: 'SS',
    variants: [
      { name: t('Midi-jurk', 'Midi-kleed', 'Midi dress', 'Midikleid', 'Robe midi'), fits: ['regular'] },
      {
        name: t('Wikkeljurk', 'Wikkelkleed', 'Wrap dress', 'Wickelkleid', 'Robe portefeuille'),
        fits: ['regular'],
        materials: ['viscose'],
      },
      {
        name: t('Tricot jurk', 'Gebreid kleed', 'Knitted dress', 'Strickkleid', 'Robe en maille'),
        fits: ['slim', 'regular'],
        materials: ['merino'],
      },
      {
        name: t('Blousejurk', 'Hemdkleed', 'Shirt dress', 'Hemdblusenkleid', 'Robe chemise'),
        fits: ['relaxed'],
        materials: ['cotton', 'organicCotton'],
      },
      {
        name: t(
          'Linnen zomerjurk',
          'Linnen zomerkleed',
          'Linen summer dress',
          'Leinen-Sommerkleid',
          "Robe d'été en lin",
        ),
        fits: ['relaxed'],
        materials: ['linen'],
      },
    ],
  },
  {
    group: 'SKIRT',
    keyword: t('rok', null, 'skirt', 'Rock', 'jupe'),
    sizeTable: 'CONF',
    weight: 4,
    genders: ['women'],
    brands: [BRANDS.lumen, BRANDS.wadden],
    palette: PALETTES.dresses,
    materials: ['viscose', 'recycledPolyester'],
    season: 'ALL',
    variants: [
      { name: t('Plissé rok', null, 'Pleated skirt', 'Plisseerock', 'Jupe plissée') },
      {
        name: t('Spijkerrok', 'Jeansrok', 'Denim skirt', 'Jeansrock', 'Jupe en jean'),
        materials: ['rigidDenim', 'stretchDenim'],
      },
      { name: t('Midirok', null, 'Midi skirt', 'Midirock', 'Jupe midi') },
    ],
  },
  {
    group: 'JACKET',
    keyword: t('jas', null, 'jacket', 'Jacke', 'veste'),
    sizeTable: 'CONF',
    weight: 7,
    genders: ['women', 'men', 'unisex'],
    brands: [BRANDS.polder, BRANDS.kade, BRANDS.wadden],
    palette: PALETTES.outer,
    materials: ['recycledPolyester'],
    season: 'AW',
    variants: [
      {
        name: t('Spijkerjack', 'Jeansvest', 'Denim jacket', 'Jeansjacke', 'Veste en jean'),
        fits: ['regular', 'oversized'],
        materials: ['rigidDenim'],
      },
      {
        name: t('Gewatteerde jas', null, 'Quilted jacket', 'Steppjacke', 'Veste matelassée'),
        fits: ['regular'],
      },
      {
        name: t('Wollen jas', 'Wollen mantel', 'Wool coat', 'Wollmantel', 'Manteau en laine'),
        fits: ['regular', 'relaxed'],
        materials: ['wool'],
      },
      {
        name: t('Regenjas', null, 'Rain jacket', 'Regenjacke', 'Veste de pluie'),
        fits: ['regular', 'relaxed'],
      },
      {
        name: t('Blazer', null, 'Blazer', 'Blazer', 'Blazer'),
        fits: ['slim', 'regular'],
        materials: ['wool', 'linen'],
      },
    ],
  },
  {
    group: 'SHOES',
    keyword: t('schoenen', null, 'shoes', 'Schuhe', 'chaussures'),
    sizeTable: 'SHOES',
    weight: 8,
    genders: ['women', 'men'],
    brands: [BRANDS.stapvast],
    palette: PALETTES.leather,
    materials: ['leather', 'suede'],
    season: 'ALL',
    variants: [
      {
        name: t(
          'Leren veterschoenen',
          null,
          'Leather lace-up shoes',
          'Leder-Schnürschuhe',
          'Chaussures à lacets en cuir',
        ),
        materials: ['leather'],
        gender: 'men',
      },
      { name: t('Chelsea boots', null, 'Chelsea boots', 'Chelsea-Boots', 'Chelsea boots') },
      { name: t('Loafers', null, 'Loafers', 'Loafer', 'Mocassins') },
      {
        name: t('Enkellaarsjes', 'Enkelbotjes', 'Ankle boots', 'Stiefeletten', 'Bottines'),
        gender: 'women',
      },
      { name: t("Ballerina's", null, 'Ballet flats', 'Ballerinas', 'Ballerines'), gender: 'women' },
    ],
  },
  {
    group: 'SNEAKERS',
    keyword: t('sneakers', null, 'trainers', 'Sneaker', 'baskets'),
    sizeTable: 'SHOES',
    weight: 6,
    genders: ['women', 'men', 'unisex'],
    brands: [BRANDS.stapvast],
    palette: PALETTES.leather,
    materials: ['leather'],
    season: 'ALL',
    noos: true,
    variants: [
      { name: t('Leren sneakers', null, 'Leather trainers', 'Leder-Sneaker', 'Baskets en cuir') },
      {
        name: t('Canvas sneakers', null, 'Canvas trainers', 'Canvas-Sneaker', 'Baskets en toile'),
        materials: ['canvas'],
      },
      {
        name: t('Hardloopschoenen', 'Loopschoenen', 'Running shoes', 'Laufschuhe', 'Chaussures de running'),
        materials: ['recycledPolyester'],
      },
      {
        name: t('Suède sneakers', null, 'Suede trainers', 'Veloursleder-Sneaker', 'Baskets en daim'),
        materials: ['suede'],
      },
    ],
  },
  {
    group: 'SOCKS',
    keyword: t('sokken', 'kousen', 'socks', 'Socken', 'chaussettes'),
    sizeTable: 'SOCKS',
    weight: 3,
    genders: ['women', 'men', 'unisex'],
    brands: [BRANDS.stapvast, BRANDS.noorderzon],
    palette: PALETTES.basics,
    materials: ['organicCotton', 'cotton'],
    season: 'ALL',
    noos: true,
    variants: [
      {
        name: t(
          'Sokken (3-pack)',
          'Kousen (3-pack)',
          'Socks (3-pack)',
          'Socken (3er-Pack)',
          'Chaussettes (lot de 3)',
        ),
      },
      {
        name: t('Wollen sokken', 'Wollen kousen', 'Wool socks', 'Wollsocken', 'Chaussettes en laine'),
        materials: ['merino'],
      },
      { name: t('Sneakersokken', 'Sneakerkousen', 'Trainer socks', 'Sneakersocken', 'Socquettes') },
    ],
  },
  {
    group: 'BAG',
    keyword: t('tas', null, 'bag', 'Tasche', 'sac'),
    sizeTable: 'ONE',
    weight: 3,
    genders: ['unisex', 'women'],
    brands: [BRANDS.lumen, BRANDS.polder, BRANDS.kade],
    palette: PALETTES.leather,
    materials: ['leather'],
    season: 'ALL',
    variants: [
      {
        name: t(
          'Leren schoudertas',
          null,
          'Leather shoulder bag',
          'Leder-Umhängetasche',
          'Sac bandoulière en cuir',
        ),
      },
      {
        name: t('Canvas shopper', null, 'Canvas tote bag', 'Canvas-Shopper', 'Cabas en toile'),
        materials: ['canvas'],
      },
      { name: t('Rugzak', null, 'Backpack', 'Rucksack', 'Sac à dos'), materials: ['recycledPolyester'] },
    ],
  },
  {
    group: 'SCARF',
    keyword: t('sjaal', null, 'scarf', 'Schal', 'écharpe'),
    sizeTable: 'ONE',
    weight: 3,
    genders: ['unisex'],
    brands: [BRANDS.lumen, BRANDS.polder, BRANDS.noorderzon],
    palette: PALETTES.knit,
    materials: ['wool', 'merino'],
    season: 'AW',
    variants: [
      { name: t('Wollen sjaal', null, 'Wool scarf', 'Wollschal', 'Écharpe en laine') },
      {
        name: t('Katoenen sjaal', null, 'Cotton scarf', 'Baumwollschal', 'Foulard en coton'),
        materials: ['cotton'],
      },
    ],
  },
  {
    group: 'HATS',
    keyword: t('pet', null, 'cap', 'Mütze', 'casquette'),
    sizeTable: 'ONE',
    weight: 2,
    genders: ['unisex'],
    brands: [BRANDS.polder, BRANDS.kade],
    palette: PALETTES.outer,
    materials: ['cotton'],
    season: 'ALL',
    variants: [
      { name: t('Baseballpet', null, 'Baseball cap', 'Baseballcap', 'Casquette de baseball') },
      {
        name: t('Gebreide muts', null, 'Knitted beanie', 'Strickmütze', 'Bonnet en maille'),
        materials: ['wool', 'merino'],
      },
    ],
  },
  {
    group: 'KIDS',
    keyword: t('kinderkleding', null, 'kidswear', 'Kinderbekleidung', 'vêtements enfant'),
    sizeTable: 'KIDS',
    weight: 8,
    genders: ['kids'],
    brands: [BRANDS.kapitein],
    palette: PALETTES.kids,
    materials: ['organicCotton', 'cotton'],
    season: 'ALL',
    noos: true,
    variants: [
      {
        name: t('Kinder-T-shirt', null, "Kids' T-shirt", 'Kinder-T-Shirt', 'T-shirt enfant'),
        fits: ['regular'],
      },
      {
        name: t('Kinderjeans', null, "Kids' jeans", 'Kinderjeans', 'Jean enfant'),
        fits: ['slim', 'regular'],
        materials: ['stretchDenim'],
      },
      {
        name: t('Kinderhoodie', null, "Kids' hoodie", 'Kinder-Kapuzenpullover', 'Sweat à capuche enfant'),
        fits: ['regular'],
        materials: ['sweat'],
      },
      {
        name: t('Meisjesjurk', 'Meisjeskleed', "Girls' dress", 'Mädchenkleid', 'Robe fille'),
        fits: ['regular'],
      },
      {
        name: t(
          'Winterjas voor kinderen',
          null,
          "Kids' winter jacket",
          'Kinder-Winterjacke',
          "Veste d'hiver enfant",
        ),
        fits: ['regular'],
        materials: ['recycledPolyester'],
      },
    ],
  },
];

// --- generation ----------------------------------------------------------------------------------

export interface DemoArticleOptions {
  seed: number;
  count: number;
}

interface Model {
  modelNo: string;
  type: ProductType;
  name: Text;
  brand: Brand;
  season: string;
  gender: Gender;
  material: MaterialKey;
  fit: FitKey | undefined;
  washDegrees: number | undefined;
  colours: DemoColourCode[];
  /** Indexes into the size table: a contiguous run. */
  sizeFrom: number;
  sizeTo: number;
}

function sizeRun(rng: Random, type: ProductType, gender: Gender): [number, number] {
  const { table, ranges } = sizeTable(type.sizeTable);
  const range = ranges[gender];
  let from = range ? table.sizes.indexOf(range[0]) : 0;
  let to = range ? table.sizes.indexOf(range[1]) : table.sizes.length - 1;
  if (gender === 'kids') {
    // Baby-and-toddler lines stop early, teen lines start late.
    from += rng.int(0, 3);
    to -= rng.int(0, 3);
  } else if (to - from + 1 >= 5) {
    if (rng.chance(0.25)) from += 1;
    if (rng.chance(0.25)) to -= 1;
  }
  return [from, to];
}

function colourCount(rng: Random): number {
  const r = rng.next();
  return r < 0.3 ? 1 : r < 0.65 ? 2 : r < 0.85 ? 3 : 4;
}

function nextModel(rng: Random, modelNumber: number): Model {
  const type = rng.weighted(PRODUCT_TYPES, (p) => p.weight);
  const variant = rng.pick(type.variants);
  const gender = variant.gender ?? rng.pick(type.genders);
  const material = rng.pick(variant.materials ?? type.materials);
  const fit = variant.fits ? rng.pick(variant.fits) : undefined;
  const wash: readonly number[] = MATERIALS[material].wash;
  const washDegrees = wash.length > 0 ? rng.pick(wash) : undefined;
  const season = type.noos && rng.chance(0.15) ? 'NOOS' : rng.pick(SEASONS[type.season]);
  const [sizeFrom, sizeTo] = sizeRun(rng, type, gender);
  return {
    modelNo: `M${modelNumber}`,
    type,
    name: variant.name,
    brand: rng.pick(type.brands),
    season,
    gender,
    material,
    fit,
    washDegrees,
    colours: rng.sample(type.palette, colourCount(rng)),
    sizeFrom,
    sizeTo,
  };
}

function articleOf(rng: Random, model: Model, colour: DemoColourCode, index: number): ArticleInput {
  const colourText = DEMO_COLOURS[colour];
  const table = sizeTable(model.type.sizeTable).table;
  const materialText = MATERIALS[model.material].text;
  const sizes: ArticleInput['sizes'] = [];
  for (let p = model.sizeFrom; p <= model.sizeTo; p++) {
    sizes.push({ sizex: table.sizes[p] as string, barcode: barcodeFor(index, p) });
  }
  const parameterCodes: ArticleInput['parameterCodes'] = [
    { code: DEMO_PARAMETER_CODES.material, text: copy(materialText) },
  ];
  if (model.fit) parameterCodes.push({ code: DEMO_PARAMETER_CODES.fit, text: copy(FITS[model.fit]) });
  parameterCodes.push({ code: DEMO_PARAMETER_CODES.targetGroup, text: copy(TARGET_GROUPS[model.gender]) });
  const parameterNumbers: ArticleInput['parameterNumbers'] =
    model.washDegrees === undefined
      ? []
      : [
          {
            code: DEMO_PARAMETER_NUMBERS.washingTemperature,
            number: model.washDegrees,
            text: washText(model.washDegrees),
          },
        ];
  const active = rng.chance(0.9);
  const retail = rng.chance(0.8);
  return {
    articleNo: `${model.modelNo}-${colour}`,
    modelNo: model.modelNo,
    colourCode: colour,
    colourDescription: copy(colourText),
    description: mapText(model.name, colourText, (m, c, slot) =>
      slot === 'LANGUAGE_2' || slot === 'LANGUAGE_3' ? `${m} in ${c}` : `${m} ${c}`,
    ),
    modelDescription: copy(model.name),
    searchNames: [
      copy(model.type.keyword),
      mapText(model.name, model.name, (m) => `${model.brand} ${m}`),
      mapText(materialText, colourText, (m, c, slot) => {
        const words = `${m.replace(/\s*\(.*\)$/, '')} ${c}`;
        return slot === 'LANGUAGE_3' ? words : words.toLowerCase();
      }),
    ],
    brand: model.brand,
    season: model.season,
    articleGroup: model.type.group,
    vatRateBp: 2100,
    sizeTableCode: table.code,
    active,
    retail,
    sizes,
    parameterCodes,
    parameterNumbers,
  };
}

/**
 * Yields exactly `count` demo articles, one at a time (memory stays flat for any count): models in
 * one to four colours, article number `<model>-<colour>`. A smaller count gives a prefix of a larger
 * one with the same seed, so re-seeding with more articles only adds.
 */
export function* demoArticles(options: DemoArticleOptions): Generator<ArticleInput> {
  const { seed, count } = options;
  if (!Number.isInteger(count) || count < 0 || count > MAX_DEMO_ARTICLES) {
    throw new RangeError(`count must be a whole number from 0 to ${MAX_DEMO_ARTICLES}, got ${count}`);
  }
  const rng = new Random(seed);
  let modelNumber = 10_000;
  let index = 0;
  while (index < count) {
    modelNumber += rng.int(1, 3);
    const model = nextModel(rng, modelNumber);
    for (const colour of model.colours) {
      if (index >= count) return;
      yield articleOf(rng, model, colour, index);
      index += 1;
    }
  }
}
