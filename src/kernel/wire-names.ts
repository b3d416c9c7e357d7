import { ValidationError } from './errors.ts';

/**
 * Domain code names fields as the domain does (`articleNo`, `3/priceMinor`); a client writing the
 * wire form is told its own names (`/ARTICLE`, `/PRICES/3/PRICE`). One dictionary for all areas.
 */
const WIRE_KEYS: Record<string, string> = {
  articleNo: 'ARTICLE',
  modelNo: 'MODEL',
  customerNo: 'CUSTOMER',
  customerGroup: 'CUSTOMERGROUP',
  name: 'NAME',
  currency: 'CURRENCY',
  discountBp: 'DISCOUNTPERC',
  priceMinor: 'PRICE',
  priceType: 'PRICETYPE',
  priceGroup: 'PRICEGROUP',
  sizex: 'SIZEX',
  sizes: 'SIZES',
  barcode: 'BARCODE',
  sizeTableCode: 'SIZETABLE',
  vatRateBp: 'PERCVAT',
  validFrom: 'VALIDFROM',
  validTo: 'VALIDTO',
  startDate: 'STARTDATE',
  endDate: 'ENDDATE',
  minQuantity: 'MINQUANTITY',
  netPrices: 'NETPRICES',
  scopeValue: 'ARTICLE',
  locationCode: 'LOCATION',
  onHand: 'ONHAND',
  quantity: 'QUANTITY',
  imageNo: 'imageno',
};

export interface WireNaming {
  /** Put before every name, e.g. `/PRICES` for a list sent under that key. */
  prefix?: string;
  /** Names that differ in this context. */
  extra?: Record<string, string>;
  /** A bulk write used for one record: `0/name` is just `/NAME`. */
  single?: boolean;
}

export function inWireTerms(
  error: unknown,
  { prefix = '', extra = {}, single = false }: WireNaming = {},
): unknown {
  if (!(error instanceof ValidationError)) return error;
  const keys = { ...WIRE_KEYS, ...extra };
  const errors = error.errors.map((e) => {
    if (e.name.startsWith('/') || e.name === 'imageNo' || e.name === 'content-type') {
      return e.name === 'imageNo' ? { ...e, name: 'imageno' } : e;
    }
    const parts = e.name.split('/').filter((part) => part !== '');
    if (single && parts[0] === '0') parts.shift();
    const path = parts.map((part) => keys[part] ?? part).join('/');
    return { ...e, name: `${prefix}/${path}` };
  });
  return new ValidationError(errors, error.code);
}

/** Runs a write and rethrows its validation errors with the wire's field names. */
export async function withWireNames<T>(write: () => Promise<T>, naming: WireNaming = {}): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw inWireTerms(error, naming);
  }
}
