import type { Database } from '../../kernel/db/database.ts';
import type { Audience, Page } from '../../kernel/paging.ts';
import type { ArticleInput } from './article-rules.ts';
import { type ArticleDeletionRules, ArticleService } from './article-service.ts';
import { ImageService } from './image-service.ts';
import { type SizeTableInput, SizeTableService } from './size-table-service.ts';

export interface CatalogOptions {
  now?: () => Date;
  /** How stock and pricing are asked when an article is deleted; without them no article can be. */
  articleDeletion?: ArticleDeletionRules;
}

/**
 * The catalog area's services (`services.catalog`): one per sub-resource (size tables, articles,
 * images), and the calls of all three on this one object, as the operations, the back office, the
 * import and the other areas' demos use them.
 */
export class CatalogService {
  readonly sizeTables: SizeTableService;
  readonly articles: ArticleService;
  readonly images: ImageService;

  constructor(database: Database, options: CatalogOptions = {}) {
    const now = options.now ?? (() => new Date());
    this.sizeTables = new SizeTableService(database);
    this.articles = new ArticleService(database, now, options.articleDeletion);
    this.images = new ImageService(database, now);
  }

  // --- reads -----------------------------------------------------------------------------------

  listArticles(audience: Audience, page: Page) {
    return this.articles.listArticles(audience, page);
  }

  listArticleJson(audience: Audience, page: Page) {
    return this.articles.listArticleJson(audience, page);
  }

  articleJson(audience: Audience, key: { articleNo?: string; barcode?: string }) {
    return this.articles.articleJson(audience, key);
  }

  listImages(audience: Audience, page: Page) {
    return this.images.listImages(audience, page);
  }

  image(audience: Audience, articleNo: string, imageNo: number) {
    return this.images.image(audience, articleNo, imageNo);
  }

  listSizeTables(page: Page) {
    return this.sizeTables.listSizeTables(page);
  }

  // --- writes: each call is one transaction ------------------------------------------------------

  saveSizeTable(input: SizeTableInput) {
    return this.sizeTables.saveSizeTable(input);
  }

  saveSizeTables(inputs: SizeTableInput[]) {
    return this.sizeTables.saveSizeTables(inputs);
  }

  deleteSizeTable(code: string) {
    return this.sizeTables.deleteSizeTable(code);
  }

  saveArticle(input: ArticleInput) {
    return this.articles.saveArticle(input);
  }

  saveArticles(inputs: ArticleInput[]) {
    return this.articles.saveArticles(inputs);
  }

  deleteArticle(articleNo: string) {
    return this.articles.deleteArticle(articleNo);
  }

  putImage(articleNo: string, imageNo: number, upload: Buffer, declaredType?: string) {
    return this.images.putImage(articleNo, imageNo, upload, declaredType);
  }

  deleteImage(articleNo: string, imageNo: number) {
    return this.images.deleteImage(articleNo, imageNo);
  }
}
