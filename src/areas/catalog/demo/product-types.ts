import {
  BRANDS,
  type Brand,
  type DemoColourCode,
  type FitKey,
  type Gender,
  type MaterialKey,
  PALETTES,
  type SeasonKind,
  type Text,
  t,
} from './fashion.ts';
import type { SizeTableCode } from './size-tables.ts';

/** The product types of the demo catalogue, each with its variants (the models' names). */

interface Variant {
  name: Text;
  fits?: readonly FitKey[];
  materials?: readonly MaterialKey[];
  gender?: Gender;
}

export interface ProductType {
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

/** Clothing; shoes and accessories follow in shoes-and-accessories.ts. */
export const CLOTHING: readonly ProductType[] = [
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
];
