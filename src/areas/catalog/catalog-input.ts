import { type Static, Type } from 'typebox';
import { ValidationError } from '../../kernel/errors.ts';
import { MAX_INT32 } from '../../kernel/int-limits.ts';
import { LANGUAGE_SLOTS, type LanguageText } from '../../kernel/language.ts';
import { toMinor } from '../../kernel/money.ts';
import { readOnlyKeys } from '../../kernel/read-only-keys.ts';
import type { ArticleInput } from './article-rules.ts';
import type { SizeTableInput } from './size-table-service.ts';

/**
 * The written forms of catalogue records: the body of the admin endpoints and a record of
 * `tv2 import articles|sizetables` (JSON), in the same upper-case style as the TV2 answers, so an
 * article read from B2B_GetArticle can be written back as it is. Their schemas state every check of
 * a field's shape; the services check only what needs the database or several fields (repeats,
 * EAN-13 check digits), naming the field by its pointer in this form (`/SIZES/2/BARCODE`).
 */
const TEXT_SLOTS = Object.fromEntries(
  LANGUAGE_SLOTS.map((slot) => [slot, Type.Optional(Type.String({ maxLength: 500 }))]),
) as Record<
  (typeof LANGUAGE_SLOTS)[number],
  ReturnType<typeof Type.Optional<ReturnType<typeof Type.String>>>
>;
const Text = Type.Object(TEXT_SLOTS, {
  additionalProperties: false,
  description: 'Text per language slot; missing slots stay empty.',
});
const Code = (description: string) => Type.String({ minLength: 1, maxLength: 40, description });
/** An article number or size table code: 1 to 40 letters, digits or . _ / - (not first). */
const Key = (description: string) =>
  Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$', description });
const Flag = Type.Union([Type.Boolean(), Type.Literal(0), Type.Literal(1)]);

export const SizeTableBody = Type.Object(
  {
    SIZETABLE: Key('Size table code.'),
    DESCRIPTION: Type.Optional(Text),
    SIZES: Type.Array(Type.String({ minLength: 1, maxLength: 20 }), { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);
export type SizeTableBody = Static<typeof SizeTableBody>;

const Parameter = Type.Object(
  { ...TEXT_SLOTS, PARAMETERCODE: Type.Integer({ minimum: 0, maximum: MAX_INT32 }) },
  { additionalProperties: false },
);
const ParameterNumber = Type.Object(
  {
    ...TEXT_SLOTS,
    PARAMETERCODE: Type.Integer({ minimum: 0, maximum: MAX_INT32 }),
    PARAMETERNO: Type.Integer({ minimum: 0, maximum: MAX_INT32 }),
  },
  { additionalProperties: false },
);

export const ArticleBody = Type.Object(
  {
    ARTICLE: Key('Article number.'),
    MODEL: Code('Model number.'),
    COLOUR: Type.String({ maxLength: 20 }),
    COLOURDESCRIPTION: Type.Optional(Text),
    ARTICLEDESCRIPTION: Type.Optional(Text),
    MODELARTICLEDESCRIPTION: Type.Optional(Text),
    ARTICLESEARCHNAME1: Type.Optional(Text),
    ARTICLESEARCHNAME2: Type.Optional(Text),
    ARTICLESEARCHNAME3: Type.Optional(Text),
    BRAND: Type.Optional(Type.String({ maxLength: 60 })),
    SEASON: Type.Optional(Type.String({ maxLength: 20 })),
    ARTICLEGROUP: Type.Optional(Type.String({ maxLength: 40 })),
    PERCVAT: Type.Union([Type.Number(), Type.String()], {
      description: 'VAT rate in percent, e.g. 21 or "9.5".',
    }),
    SIZETABLE: Code('Size table code.'),
    ACTIVE: Type.Optional(Flag),
    RETAIL: Type.Optional(Flag),
    SIZES: Type.Array(
      Type.Object(
        { SIZEX: Type.String({ minLength: 1 }), BARCODE: Type.String(), ...readOnlyKeys(['POSITION']) },
        { additionalProperties: false },
      ),
      { maxItems: 100 },
    ),
    ARTICLEPARAMETERCODES: Type.Optional(Type.Array(Parameter, { maxItems: 50 })),
    ARTICLEPARAMETERNUMBERS: Type.Optional(Type.Array(ParameterNumber, { maxItems: 50 })),
    ...readOnlyKeys(['IMAGES', 'SCN']),
  },
  {
    additionalProperties: false,
    description:
      "The form of a B2B_GetArticle record: its read-only keys (IMAGES, SCN, a size's POSITION) are ignored; any other unknown key is a 400.",
  },
);
export type ArticleBody = Static<typeof ArticleBody>;

function text(value: LanguageText | undefined): LanguageText {
  const out: LanguageText = {};
  for (const slot of LANGUAGE_SLOTS) if (value?.[slot]) out[slot] = value[slot];
  return out;
}

const flag = (value: boolean | 0 | 1 | undefined, fallback: boolean) =>
  value === undefined ? fallback : Boolean(value);

/** Percent with at most two decimals, exactly: "9.5" -> 950 basis points, 0 to 10000. */
function vatRateBp(percent: number | string): number {
  const bp = toMinor(percent, '/PERCVAT');
  if (bp < 0 || bp > 10_000) {
    throw new ValidationError([{ name: '/PERCVAT', message: 'a VAT rate is 0 to 10000 basis points' }]);
  }
  return bp;
}

export function sizeTableInput(body: SizeTableBody): SizeTableInput {
  return { code: body.SIZETABLE, description: text(body.DESCRIPTION), sizes: body.SIZES };
}

export function articleInput(body: ArticleBody): ArticleInput {
  return {
    articleNo: body.ARTICLE,
    modelNo: body.MODEL,
    colourCode: body.COLOUR,
    colourDescription: text(body.COLOURDESCRIPTION),
    description: text(body.ARTICLEDESCRIPTION),
    modelDescription: text(body.MODELARTICLEDESCRIPTION),
    searchNames: [
      text(body.ARTICLESEARCHNAME1),
      text(body.ARTICLESEARCHNAME2),
      text(body.ARTICLESEARCHNAME3),
    ],
    brand: body.BRAND ?? '',
    season: body.SEASON ?? '',
    articleGroup: body.ARTICLEGROUP ?? '',
    vatRateBp: vatRateBp(body.PERCVAT),
    sizeTableCode: body.SIZETABLE,
    active: flag(body.ACTIVE, true),
    retail: flag(body.RETAIL, false),
    sizes: body.SIZES.map((s) => ({ sizex: s.SIZEX, barcode: s.BARCODE })),
    parameterCodes: (body.ARTICLEPARAMETERCODES ?? []).map((p) => ({ code: p.PARAMETERCODE, text: text(p) })),
    parameterNumbers: (body.ARTICLEPARAMETERNUMBERS ?? []).map((p) => ({
      code: p.PARAMETERCODE,
      number: p.PARAMETERNO,
      text: text(p),
    })),
  };
}

/**
 * A flat CSV row as a record of the written form. Columns: ARTICLE, MODEL, COLOUR, SIZETABLE,
 * BRAND, SEASON, ARTICLEGROUP, PERCVAT, ACTIVE, RETAIL (1/0, true/false, yes/no), SIZES
 * (`S=8712345000012|M=8712345000029`), and texts as `<FIELD>_<SLOT>`, e.g.
 * ARTICLEDESCRIPTION_LANGUAGE_2, COLOURDESCRIPTION_LANGUAGE_1. Parameters need the JSON form.
 */
export function articleRecordFromCsv(row: Record<string, string>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    const match = /^([A-Z0-9]+)_(LANGUAGE_\d+)$/.exec(column);
    if (match) {
      const [, field, slot] = match as unknown as [string, string, string];
      if (value !== '') {
        const texts = (record[field] ?? {}) as Record<string, string>;
        texts[slot] = value;
        record[field] = texts;
      }
    } else if (column === 'SIZES') {
      record.SIZES = value
        .split('|')
        .filter(Boolean)
        .map((pair) => {
          const [SIZEX = '', BARCODE = ''] = pair.split('=').map((p) => p.trim());
          return { SIZEX, BARCODE };
        });
    } else if (column === 'ACTIVE' || column === 'RETAIL') {
      record[column] = /^(1|true|yes|y)$/i.test(value)
        ? true
        : /^(0|false|no|n|)$/i.test(value)
          ? false
          : value;
    } else {
      record[column] = value;
    }
  }
  return record;
}

/** CSV columns SIZETABLE, SIZES (`XS|S|M`), DESCRIPTION_<SLOT>. */
export function sizeTableRecordFromCsv(row: Record<string, string>): Record<string, unknown> {
  const record = articleRecordFromCsv({ ...row, SIZES: '' });
  record.SIZES = (row.SIZES ?? '')
    .split('|')
    .map((s) => s.trim())
    .filter(Boolean);
  return record;
}
