import type { ArticleInput } from '../../src/areas/catalog/article-rules.ts';
import { toEan13 } from '../../src/areas/catalog/ean.ts';
import type { SizeTableInput } from '../../src/areas/catalog/size-table-service.ts';

/** A valid EAN-13 from its first 12 digits (for tests that need fixed barcodes). */
export { toEan13 };

let barcodeCounter = 100_000;

export function sizeTable(code: string, sizes: string[]): SizeTableInput {
  return { code, description: { LANGUAGE_1: `Maten ${code}`, LANGUAGE_2: `Sizes ${code}` }, sizes };
}

export function barcode(): string {
  return toEan13(`871000${String(barcodeCounter++).padStart(6, '0')}`);
}

export function article(articleNo: string, overrides: Partial<ArticleInput> = {}): ArticleInput {
  return {
    articleNo,
    modelNo: articleNo.split('-')[0] ?? articleNo,
    colourCode: articleNo.split('-')[1] ?? '000',
    colourDescription: { LANGUAGE_1: 'Blauw', LANGUAGE_2: 'Blue' },
    description: {
      LANGUAGE_1: `Artikel ${articleNo}`,
      LANGUAGE_2: `Article ${articleNo}`,
      LANGUAGE_3: `Artikel ${articleNo}`,
    },
    modelDescription: { LANGUAGE_2: 'Model' },
    searchNames: [{ LANGUAGE_2: 'jeans' }, {}, {}],
    brand: 'NORDWIND',
    season: '2026-SS',
    articleGroup: 'JEANS',
    vatRateBp: 2100,
    sizeTableCode: 'CONF',
    active: true,
    retail: true,
    sizes: [
      { sizex: 'S', barcode: barcode() },
      { sizex: 'M', barcode: barcode() },
    ],
    parameterCodes: [{ code: 1, text: { LANGUAGE_1: 'Katoen', LANGUAGE_2: 'Cotton' } }],
    parameterNumbers: [{ code: 10, number: 40, text: { LANGUAGE_2: 'Wash at 40 °C' } }],
    ...overrides,
  };
}
