import type { SizeTableInput } from '../size-table-service.ts';
import { copy, type Gender, type Text, t } from './fashion.ts';

/** The demo size tables and the run of sizes each gender is made in. */

const JEANS_SIZES = [28, 29, 30, 31, 32, 33, 34, 36, 38].flatMap((w) => [`${w}/32`, `${w}/34`]);

export interface DemoSizeTable {
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

export type SizeTableCode = 'CONF' | 'JEANS' | 'SHOES' | 'KIDS' | 'SOCKS' | 'ONE';

/** The demo size tables, fresh objects on every call. */
export function demoSizeTables(): SizeTableInput[] {
  return SIZE_TABLES.map(({ table }) => ({
    code: table.code,
    description: copy(table.description),
    sizes: [...table.sizes],
  }));
}

export function sizeTable(code: SizeTableCode): DemoSizeTable {
  const found = SIZE_TABLES.find((s) => s.table.code === code);
  if (!found) throw new Error(`no demo size table ${code}`);
  return found;
}

/** The most sizes any demo size table has: the barcode's item reference leaves this many per article. */
export const SIZE_SLOTS = Math.max(...SIZE_TABLES.map((s) => s.table.sizes.length));
