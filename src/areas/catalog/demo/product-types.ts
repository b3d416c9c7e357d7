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

export const PRODUCT_TYPES: readonly ProductType[] = [
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
