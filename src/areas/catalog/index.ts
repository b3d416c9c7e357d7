import type { Area } from '../../kernel/area.ts';
import { CATALOG_ADMIN_ROUTES } from './admin.ts';
import { CatalogService } from './catalog-service.ts';
import { seedCatalog } from './demo/seed.ts';
import { CATALOG_ERRORS } from './errors.ts';
import { CATALOG_IMPORT_KINDS } from './import-kinds.ts';
import * as m0010 from './migrations/0010_catalog_positions.ts';
import * as m0016 from './migrations/0016_catalog_article_documents.ts';
import * as m0040 from './migrations/0040_article_seen_retail.ts';
import * as m0044 from './migrations/0044_article_price_facts.ts';
import * as m0046 from './migrations/0046_article_flags_and_sizes.ts';
import {
  B2B_GetAllArticles,
  B2B_GetArticle,
  B2C_GetAllArticles,
  B2C_GetAllArticlesImages,
  B2C_GetArticle,
  B2C_GetArticleImage,
  GetSizeTables,
} from './operations.ts';
import './tables.ts';

declare module '../../kernel/services.ts' {
  interface Services {
    catalog: CatalogService;
  }
}

/** The catalog area: articles, their sizes and barcodes, size tables and article images (docs/architecture.md). */
export const catalogArea: Area = {
  name: 'catalog',
  docs: 'docs/catalog.md',
  errors: CATALOG_ERRORS,
  operations: [
    B2B_GetAllArticles,
    B2B_GetArticle,
    B2C_GetAllArticlesImages,
    B2C_GetAllArticles,
    B2C_GetArticleImage,
    B2C_GetArticle,
    GetSizeTables,
  ],
  adminRoutes: CATALOG_ADMIN_ROUTES,
  importKinds: CATALOG_IMPORT_KINDS,
  migrations: {
    '0010_catalog_positions': m0010,
    '0016_catalog_article_documents': m0016,
    '0040_article_seen_retail': m0040,
    '0044_article_price_facts': m0044,
    '0046_article_flags_and_sizes': m0046,
  },
  services: (_config, database, all) => ({
    catalog: new CatalogService(database, {
      // Stock and pricing depend on the catalog, so they are asked through their services, not imported.
      articleDeletion: {
        stockedLocationsIn: (uow, articleNo) => all.stock.ledger.stockedLocationsIn(uow, articleNo),
        deletePricesIn: (uow, articleNo) => all.pricing.listPrices.deleteArticlePricesIn(uow, articleNo),
      },
    }),
  }),
  seedDemo: (services) => seedCatalog(services, {}),
};
export {
  type ArticleState,
  articleFlags,
  articleSizePositions,
  articleSizesIn,
  articleStatesIn,
  type BarcodeSize,
  liveArticlesIn,
  sizesByBarcodeIn,
} from './article-facts.ts';
export { articleScopes } from './article-scopes.ts';
export { seedCatalog } from './demo/seed.ts';
export { CATALOG_ERRORS } from './errors.ts';
