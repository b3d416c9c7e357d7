import { fromLanguageJson, type LanguageObject } from '../../kernel/language.ts';
import { percentFromBasisPoints } from '../../kernel/money.ts';
import type { ArticleChildren, ArticleRow, ImageMetaRow } from './catalog-repository.ts';

/** An article as the TV2 interface shows it, in the style of B2B_GetOrder's ORDERDETAILS. */
export interface ArticleWire {
  ARTICLE: string;
  MODEL: string;
  COLOUR: string;
  COLOURDESCRIPTION: LanguageObject;
  ARTICLEDESCRIPTION: LanguageObject;
  MODELARTICLEDESCRIPTION: LanguageObject;
  ARTICLESEARCHNAME1: LanguageObject;
  ARTICLESEARCHNAME2: LanguageObject;
  ARTICLESEARCHNAME3: LanguageObject;
  ARTICLEPARAMETERCODES: Array<LanguageObject & { PARAMETERCODE: number }>;
  ARTICLEPARAMETERNUMBERS: Array<LanguageObject & { PARAMETERCODE: number; PARAMETERNO: number }>;
  BRAND: string;
  SEASON: string;
  ARTICLEGROUP: string;
  PERCVAT: number;
  SIZETABLE: string;
  SIZES: Array<{ SIZEX: string; POSITION: number; BARCODE: string }>;
  IMAGES: Array<{ IMAGENO: number; CONTENTTYPE: string; BYTES: number; SHA256: string }>;
  ACTIVE: boolean;
  RETAIL: boolean;
  SCN: number;
}

export interface ImageWire {
  ARTICLE: string;
  IMAGENO: number;
  CONTENTTYPE: string;
  BYTES: number;
  SHA256: string;
  SCN: number;
}

function groupBy<T extends { article_no: string }>(rows: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.article_no);
    if (list) list.push(row);
    else map.set(row.article_no, [row]);
  }
  return map;
}

export function imageToWire(row: ImageMetaRow): ImageWire {
  return {
    ARTICLE: row.article_no,
    IMAGENO: row.image_no,
    CONTENTTYPE: row.content_type,
    BYTES: row.byte_size,
    SHA256: row.sha256,
    SCN: row.scn,
  };
}

export function articlesToWire(articles: ArticleRow[], children: ArticleChildren): ArticleWire[] {
  const sizes = groupBy(children.sizes);
  const codes = groupBy(children.parameterCodes);
  const numbers = groupBy(children.parameterNumbers);
  const images = groupBy(children.images);
  return articles.map((a) => ({
    ARTICLE: a.article_no,
    MODEL: a.model_no,
    COLOUR: a.colour_code,
    COLOURDESCRIPTION: fromLanguageJson(a.colour_description),
    ARTICLEDESCRIPTION: fromLanguageJson(a.description),
    MODELARTICLEDESCRIPTION: fromLanguageJson(a.model_description),
    ARTICLESEARCHNAME1: fromLanguageJson(a.search_name1),
    ARTICLESEARCHNAME2: fromLanguageJson(a.search_name2),
    ARTICLESEARCHNAME3: fromLanguageJson(a.search_name3),
    ARTICLEPARAMETERCODES: (codes.get(a.article_no) ?? []).map((c) => ({
      ...fromLanguageJson(c.text),
      PARAMETERCODE: c.parameter_code,
    })),
    ARTICLEPARAMETERNUMBERS: (numbers.get(a.article_no) ?? []).map((n) => ({
      ...fromLanguageJson(n.text),
      PARAMETERCODE: n.parameter_code,
      PARAMETERNO: n.parameter_no,
    })),
    BRAND: a.brand,
    SEASON: a.season,
    ARTICLEGROUP: a.article_group,
    PERCVAT: percentFromBasisPoints(a.vat_rate_bp),
    SIZETABLE: a.size_table_code,
    SIZES: (sizes.get(a.article_no) ?? []).map((s) => ({
      SIZEX: s.sizex,
      POSITION: s.position,
      BARCODE: s.barcode,
    })),
    IMAGES: (images.get(a.article_no) ?? []).map((i) => ({
      IMAGENO: i.image_no,
      CONTENTTYPE: i.content_type,
      BYTES: i.byte_size,
      SHA256: i.sha256,
    })),
    ACTIVE: a.active === 1,
    RETAIL: a.retail === 1,
    SCN: a.scn,
  }));
}
