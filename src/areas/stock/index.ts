import type { Area } from '../../kernel/area.ts';
import { STOCK_ADMIN_ROUTES } from './admin.ts';
import { seedStock } from './demo.ts';
import { STOCK_ERRORS } from './errors.ts';
import { STOCK_IMPORT_KINDS } from './import-kinds.ts';
import * as m0002 from './migrations/0002_stock.ts';
import * as m0012 from './migrations/0012_stock_positions.ts';
import * as m0039 from './migrations/0039_location_seen.ts';
import * as m0042 from './migrations/0042_stock_level_clustered.ts';
import * as m0045 from './migrations/0045_ledger_append_only.ts';
import {
  B2B_GetArticleStock,
  B2B_GetStockChanges,
  B2B_GetStocks,
  B2C_GetArticleStock,
  B2C_GetStockChanges,
  B2C_GetStocks,
} from './operations.ts';
import { createStockServices, type StockServices } from './stock-services.ts';
import './tables.ts';

declare module '../../kernel/services.ts' {
  interface Services {
    stock: StockServices;
  }
}

/** The stock area: stock locations, levels per article and size, the movement ledger and stock takes (docs/stock.md). */
export const stockArea: Area = {
  name: 'stock',
  docs: 'docs/stock.md',
  errors: STOCK_ERRORS,
  operations: [
    B2B_GetArticleStock,
    B2B_GetStockChanges,
    B2B_GetStocks,
    B2C_GetArticleStock,
    B2C_GetStockChanges,
    B2C_GetStocks,
  ],
  adminRoutes: STOCK_ADMIN_ROUTES,
  importKinds: STOCK_IMPORT_KINDS,
  migrations: {
    '0002_stock': m0002,
    '0012_stock_positions': m0012,
    '0039_location_seen': m0039,
    '0042_stock_level_clustered': m0042,
    '0045_ledger_append_only': m0045,
  },
  services: (_config, database) => ({ stock: createStockServices(database) }),
  seedDemo: (services) => seedStock(services, {}),
};
export { seedStock } from './demo.ts';
export { STOCK_ERRORS } from './errors.ts';
export { findLocationIn, type LocationRow, locationRows } from './location-facts.ts';
export type { LocationInput } from './stock-rules.ts';
