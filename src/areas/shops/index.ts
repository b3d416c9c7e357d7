import type { Area } from '../../kernel/area.ts';
import { SHOPS_ADMIN_ROUTES } from './admin.ts';
import { seedShops } from './demo.ts';
import { SHOPS_ERRORS } from './errors.ts';
import { SHOP_IMPORT_KINDS } from './import-kinds.ts';
import * as m0006 from './migrations/0006_shops.ts';
import * as m0015 from './migrations/0015_shop_positions.ts';
import * as m0041 from './migrations/0041_shops_seen.ts';
import {
  B2C_GetAllShopImages,
  B2C_GetAllShops,
  B2C_GetCompanyRegEx,
  B2C_GetHomePages,
  B2C_GetPickUpLocations,
  B2C_GetShopAssistants,
  B2C_GetShopImage,
} from './operations.ts';
import { createShopsServices, type ShopsServices } from './shop-services.ts';
import './tables.ts';

declare module '../../kernel/services.ts' {
  interface Services {
    shops: ShopsServices;
  }
}

/** The shops area: shop details, images and assistants, pickup locations, home page blocks and validation patterns (docs/shops.md). */
export const shopsArea: Area = {
  name: 'shops',
  docs: 'docs/shops.md',
  errors: SHOPS_ERRORS,
  operations: [
    B2C_GetAllShopImages,
    B2C_GetAllShops,
    B2C_GetCompanyRegEx,
    B2C_GetHomePages,
    B2C_GetPickUpLocations,
    B2C_GetShopAssistants,
    B2C_GetShopImage,
  ],
  adminRoutes: SHOPS_ADMIN_ROUTES,
  importKinds: SHOP_IMPORT_KINDS,
  migrations: { '0006_shops': m0006, '0015_shop_positions': m0015, '0041_shops_seen': m0041 },
  services: (_config, database) => ({ shops: createShopsServices(database) }),
  seedDemo: (services) => seedShops(services, {}),
};
