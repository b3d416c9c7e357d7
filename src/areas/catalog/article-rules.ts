import type { FieldError } from '../../kernel/errors.ts';
import { type LanguageText, toLanguageJson } from '../../kernel/language.ts';
import type { ArticleChildren, ArticleRow } from './catalog-repository.ts';
import { isValidEan13 } from './ean.ts';

/**
 * The rules of articles that need no database: the input of a save and its checks, the stored rows
 * it becomes, whether a stored article already says what an input says, and who sees an article.
 */

export interface ArticleInput {
  articleNo: string;
  modelNo: string;
  colourCode: string;
  colourDescription: LanguageText;
  description: LanguageText;
  modelDescription: LanguageText;
  searchNames: [LanguageText, LanguageText, LanguageText];
  brand: string;
  season: string;
  articleGroup: string;
  /** VAT rate in basis points (2100 = 21 %). */
  vatRateBp: number;
  sizeTableCode: string;
  active: boolean;
  retail: boolean;
  /** In size-table order; each size once, each barcode a valid EAN-13 unique across articles. */
  sizes: Array<{ sizex: string; barcode: string }>;
  parameterCodes: Array<{ code: number; text: LanguageText }>;
  parameterNumbers: Array<{ code: number; number: number; text: LanguageText }>;
}

export { visibleTo } from './article-visibility.ts';

/**
 * The checks of an article that its written form's schema cannot state (catalog-input.ts states
 * the rest): each size once, each barcode with a valid EAN-13 check digit. Named by pointer into
 * the article's written form (`/SIZES/2/BARCODE`).
 */
export function articleErrors(input: ArticleInput): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, s] of input.sizes.entries()) {
    if (seen.has(s.sizex)) errors.push({ name: `/SIZES/${i}/SIZEX`, message: `size ${s.sizex} repeats` });
    seen.add(s.sizex);
    if (!isValidEan13(s.barcode)) errors.push({ name: `/SIZES/${i}/BARCODE`, message: 'not a valid EAN-13' });
  }
  return errors;
}

export function toRow(input: ArticleInput, scn: number, createdAt: string, updatedAt: string): ArticleRow {
  return {
    article_no: input.articleNo,
    model_no: input.modelNo,
    colour_code: input.colourCode,
    colour_description: toLanguageJson(input.colourDescription),
    description: toLanguageJson(input.description),
    model_description: toLanguageJson(input.modelDescription),
    search_name1: toLanguageJson(input.searchNames[0]),
    search_name2: toLanguageJson(input.searchNames[1]),
    search_name3: toLanguageJson(input.searchNames[2]),
    brand: input.brand,
    season: input.season,
    article_group: input.articleGroup,
    vat_rate_bp: input.vatRateBp,
    size_table_code: input.sizeTableCode,
    active: input.active ? 1 : 0,
    retail: input.retail ? 1 : 0,
    deleted: 0,
    scn,
    created_at: createdAt,
    updated_at: updatedAt,
  };
}

export function childrenOf(input: ArticleInput, tableSizes: string[]) {
  return {
    sizes: input.sizes.map((s) => ({
      article_no: input.articleNo,
      sizex: s.sizex,
      position: tableSizes.indexOf(s.sizex) + 1,
      barcode: s.barcode,
    })),
    parameterCodes: input.parameterCodes.map((p) => ({
      article_no: input.articleNo,
      parameter_code: p.code,
      text: toLanguageJson(p.text),
    })),
    parameterNumbers: input.parameterNumbers.map((p) => ({
      article_no: input.articleNo,
      parameter_code: p.code,
      parameter_no: p.number,
      text: toLanguageJson(p.text),
    })),
  };
}

const ROW_FIELDS = [
  'model_no',
  'colour_code',
  'colour_description',
  'description',
  'model_description',
  'search_name1',
  'search_name2',
  'search_name3',
  'brand',
  'season',
  'article_group',
  'vat_rate_bp',
  'size_table_code',
  'active',
  'retail',
  'deleted',
] as const;

/** True when the stored article (row and children) already says what the input says. */
export function sameArticle(
  before: ArticleRow,
  wanted: ArticleRow,
  stored: ArticleChildren,
  children: ReturnType<typeof childrenOf>,
): boolean {
  if (ROW_FIELDS.some((f) => before[f] !== wanted[f])) return false;
  const no = before.article_no;
  const key = (rows: object[]) => JSON.stringify(rows);
  const mine = <T extends { article_no: string }>(rows: T[]) => rows.filter((r) => r.article_no === no);
  const sort = <T>(rows: T[], by: (r: T) => string) => [...rows].sort((a, b) => by(a).localeCompare(by(b)));
  return (
    key(sort(mine(stored.sizes), (r) => r.sizex).map((r) => [r.sizex, r.position, r.barcode])) ===
      key(sort(children.sizes, (r) => r.sizex).map((r) => [r.sizex, r.position, r.barcode])) &&
    key(
      sort(mine(stored.parameterCodes), (r) => String(r.parameter_code)).map((r) => [
        r.parameter_code,
        r.text,
      ]),
    ) ===
      key(
        sort(children.parameterCodes, (r) => String(r.parameter_code)).map((r) => [r.parameter_code, r.text]),
      ) &&
    key(
      sort(mine(stored.parameterNumbers), (r) => `${r.parameter_code}/${r.parameter_no}`).map((r) => [
        r.parameter_code,
        r.parameter_no,
        r.text,
      ]),
    ) ===
      key(
        sort(children.parameterNumbers, (r) => `${r.parameter_code}/${r.parameter_no}`).map((r) => [
          r.parameter_code,
          r.parameter_no,
          r.text,
        ]),
      )
  );
}
