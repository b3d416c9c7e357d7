import type { ImportKind } from '../../kernel/import/import-kind.ts';
import { checkRecord } from '../../kernel/import/import-kind.ts';
import { ShopBody, shopInput, shopRecordFromCsv } from './shop-input.ts';
import type { ShopDetailInput } from './shop-rules.ts';

/**
 * `tv2 import shops`: shop details (contact, position, pickup, opening hours) of existing stock
 * locations of kind SHOP. JSON records have the form of a B2C_GetAllShops record; CSV columns are
 * LOCATION, PHONE, EMAIL, LATITUDE, LONGITUDE, PICKUP, TIMEZONE, HOURS_1 .. HOURS_7
 * ("09:00-12:30 13:30-18:00", empty: closed) and DESCRIPTION_LANGUAGE_1 etc. A batch is one
 * transaction; shops whose details are already as given are left alone.
 */
export const shopDetails: ImportKind<ShopDetailInput> = {
  name: 'shops',
  description:
    'shop details of SHOP locations: LOCATION, PHONE, EMAIL, LATITUDE, LONGITUDE, PICKUP, TIMEZONE, HOURS_1..HOURS_7 ("09:00-18:00"), DESCRIPTION_LANGUAGE_n',
  parse: (record, format) =>
    shopInput(
      checkRecord<ShopBody>(
        ShopBody,
        format === 'csv' ? shopRecordFromCsv(record as Record<string, string>) : record,
      ),
    ),
  save: (services, inputs) => services.shops.shops.saveShopDetails(inputs),
};

/** The `tv2 import` kinds of the shops area. */
export const SHOP_IMPORT_KINDS = [shopDetails];
