import type { Services } from '../../../kernel/services.ts';
import type { ArticleInput } from '../article-rules.ts';
import { demoArticles, MAX_DEMO_ARTICLES } from './catalog-data.ts';
import { colourSwatchPng } from './images.ts';
import { demoSizeTables } from './size-tables.ts';

/** Only the first this many articles get a swatch image: images are one transaction each. */
export const MAX_SWATCH_IMAGES = 2000;

export interface SeedCatalogOptions {
  /** Same seed, same data (default 1). */
  seed?: number;
  /** Number of articles (default 300). */
  articles?: number;
  /** One colour swatch (image 1) per article for the first 2000 articles; default: on for up to 2000 articles. */
  images?: boolean;
  /** Articles per `saveArticles` call, each call one transaction (default 500). */
  batchSize?: number;
  /** Called after each saved batch of articles. */
  onProgress?: (done: number, total: number) => void;
}

export interface SeedCatalogResult {
  sizeTables: number;
  articles: number;
  images: number;
}

/**
 * Loads the generated demo catalogue: size tables, then articles in batches, then swatch images.
 * Creating or replacing, so seeding again with the same seed changes nothing but the SCNs; a larger
 * count with the same seed adds articles. (A different seed on the same database clashes on barcodes.)
 */
export async function seedCatalog(
  services: Services,
  options: SeedCatalogOptions = {},
): Promise<SeedCatalogResult> {
  const seed = options.seed ?? 1;
  const total = options.articles ?? 300;
  const batchSize = options.batchSize ?? 500;
  const withImages = options.images ?? total <= MAX_SWATCH_IMAGES;
  if (!Number.isInteger(total) || total < 0 || total > MAX_DEMO_ARTICLES) {
    throw new RangeError(`articles must be a whole number from 0 to ${MAX_DEMO_ARTICLES}, got ${total}`);
  }
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`batchSize must be a whole number of at least 1, got ${batchSize}`);
  }

  const sizeTables = demoSizeTables();
  await services.catalog.saveSizeTables(sizeTables);

  const imageTargets: Array<{ articleNo: string; colourCode: string }> = [];
  let batch: ArticleInput[] = [];
  let done = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await services.catalog.saveArticles(batch);
    done += batch.length;
    batch = [];
    options.onProgress?.(done, total);
  };
  for (const article of demoArticles({ seed, count: total })) {
    if (withImages && imageTargets.length < MAX_SWATCH_IMAGES) {
      imageTargets.push({ articleNo: article.articleNo, colourCode: article.colourCode });
    }
    batch.push(article);
    if (batch.length >= batchSize) await flush();
  }
  await flush();

  const swatches = new Map<string, Buffer>();
  for (const { articleNo, colourCode } of imageTargets) {
    let png = swatches.get(colourCode);
    if (!png) {
      png = colourSwatchPng(colourCode);
      swatches.set(colourCode, png);
    }
    await services.catalog.putImage(articleNo, 1, png);
  }

  return { sizeTables: sizeTables.length, articles: done, images: imageTargets.length };
}
