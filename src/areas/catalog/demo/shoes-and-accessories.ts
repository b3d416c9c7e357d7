import { BRANDS, PALETTES, t } from './fashion.ts';
import type { ProductType } from './product-types.ts';

/** Shoes, socks, bags, scarves, hats and kids' wear of the demo catalogue (after the clothing). */
export const SHOES_AND_ACCESSORIES: readonly ProductType[] = [
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
