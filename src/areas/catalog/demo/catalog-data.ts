import { Random } from '../../../kernel/random.ts';
import type { ArticleInput } from '../article-rules.ts';
import { toEan13 } from '../ean.ts';
import {
  type Brand,
  copy,
  DEMO_COLOURS,
  DEMO_PARAMETER_CODES,
  DEMO_PARAMETER_NUMBERS,
  type DemoColourCode,
  FITS,
  type FitKey,
  type Gender,
  MATERIALS,
  type MaterialKey,
  mapText,
  SEASONS,
  TARGET_GROUPS,
  type Text,
  washText,
} from './fashion.ts';
import { CLOTHING, type ProductType } from './product-types.ts';
import { SHOES_AND_ACCESSORIES } from './shoes-and-accessories.ts';
import { SIZE_SLOTS, sizeTable } from './size-tables.ts';

/**
 * The generated demo catalogue: a small invented fashion wholesaler with a few brands, models in
 * one to four colours, real-looking size runs, EAN-13 barcodes and texts in the five language
 * slots (LANGUAGE_1 Dutch, LANGUAGE_11 Flemish, LANGUAGE_2 English, LANGUAGE_3 German,
 * LANGUAGE_4 French). The same seed always gives the same articles, in the same order.
 *
 * The words, colours, materials, brands and seasons live in fashion.ts, the size tables in
 * size-tables.ts, the product types and their variants in product-types.ts; this module draws the
 * models and makes the articles.
 */

// --- barcodes ------------------------------------------------------------------------------------

/**
 * Barcodes are '87123' (a GS1-Netherlands-like company prefix) + a 7-digit item reference + the
 * check digit. The item reference is articleIndex * SIZE_SLOTS + the size's place in its table, so
 * no two sizes of the generated set share one, whatever the seed.
 */
/** Every product type, in the order the generator draws from. */
const PRODUCT_TYPES: readonly ProductType[] = [...CLOTHING, ...SHOES_AND_ACCESSORIES];

const BARCODE_PREFIX = '87123';
export const MAX_DEMO_ARTICLES = Math.floor(10 ** (12 - BARCODE_PREFIX.length) / SIZE_SLOTS);

function barcodeFor(articleIndex: number, tablePosition: number): string {
  const reference = String(articleIndex * SIZE_SLOTS + tablePosition).padStart(
    12 - BARCODE_PREFIX.length,
    '0',
  );
  return toEan13(BARCODE_PREFIX + reference);
}

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
