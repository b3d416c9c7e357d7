import { Type } from 'typebox';
import { LanguageSchema } from '../../kernel/schemas.ts';

export const ArticleSchema = Type.Object(
  {
    ARTICLE: Type.String({ description: 'Article number (model and colour).' }),
    MODEL: Type.String(),
    COLOUR: Type.String(),
    COLOURDESCRIPTION: LanguageSchema,
    ARTICLEDESCRIPTION: LanguageSchema,
    MODELARTICLEDESCRIPTION: LanguageSchema,
    ARTICLESEARCHNAME1: LanguageSchema,
    ARTICLESEARCHNAME2: LanguageSchema,
    ARTICLESEARCHNAME3: LanguageSchema,
    ARTICLEPARAMETERCODES: Type.Array(
      Type.Intersect([LanguageSchema, Type.Object({ PARAMETERCODE: Type.Integer() })]),
    ),
    ARTICLEPARAMETERNUMBERS: Type.Array(
      Type.Intersect([
        LanguageSchema,
        Type.Object({ PARAMETERCODE: Type.Integer(), PARAMETERNO: Type.Integer() }),
      ]),
    ),
    BRAND: Type.String(),
    SEASON: Type.String(),
    ARTICLEGROUP: Type.String(),
    PERCVAT: Type.Number({ description: 'VAT rate in percent.' }),
    SIZETABLE: Type.String(),
    SIZES: Type.Array(
      Type.Object(
        {
          SIZEX: Type.String(),
          POSITION: Type.Integer({ description: 'Position in the size table, from 1.' }),
          BARCODE: Type.String({ description: 'EAN-13.' }),
        },
        { title: 'ArticleSize' },
      ),
    ),
    IMAGES: Type.Array(
      Type.Object({
        IMAGENO: Type.Integer(),
        CONTENTTYPE: Type.String(),
        BYTES: Type.Integer(),
        SHA256: Type.String(),
      }),
    ),
    ACTIVE: Type.Boolean(),
    RETAIL: Type.Boolean({ description: 'Published for retail (B2C operations see only these).' }),
    SCN: Type.Integer({ description: 'SCN of the last change of this article, its sizes or images.' }),
  },
  { title: 'Article' },
);

export const ImageSchema = Type.Object(
  {
    ARTICLE: Type.String(),
    IMAGENO: Type.Integer(),
    CONTENTTYPE: Type.String(),
    BYTES: Type.Integer(),
    SHA256: Type.String(),
    SCN: Type.Integer(),
  },
  { title: 'ArticleImage' },
);

export const SizeTableSchema = Type.Object(
  {
    SIZETABLE: Type.String(),
    DESCRIPTION: LanguageSchema,
    SIZES: Type.Array(Type.Object({ POSITION: Type.Integer(), SIZEX: Type.String() })),
    SCN: Type.Integer(),
  },
  { title: 'SizeTable' },
);
