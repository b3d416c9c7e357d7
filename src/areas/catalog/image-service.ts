import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { KERNEL_ERRORS } from '../../kernel/errors.ts';
import { feedPage } from '../../kernel/feed-page.ts';
import { cleanImage, MAX_IMAGE_BYTES } from '../../kernel/image-bytes.ts';
import type { Audience, Page, PageOf } from '../../kernel/paging.ts';
import { refreshDocuments } from './article-document.ts';
import { visibleTo } from './article-rules.ts';
import { type ImageWire, imageToWire } from './article-wire.ts';
import { CatalogRepository } from './catalog-repository.ts';
import { CATALOG_ERRORS } from './errors.ts';
import { ImageRepository } from './image-repository.ts';

/**
 * Article images (B2C_GetAllArticlesImages, B2C_GetArticleImage): an image is seen by whoever sees
 * its article; storing or deleting one moves the article's SCN too and rewrites its document.
 */
export class ImageService {
  readonly #read: CatalogRepository;
  readonly #images: ImageRepository;

  private readonly database: Database;
  private readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new CatalogRepository(database.db);
    this.#images = new ImageRepository(database.db);
  }

  listImages(
    audience: Audience,
    page: Page,
  ): Promise<PageOf<ImageWire, { ARTICLE: string; IMAGENO: number }>> {
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#images.imagesPage(sinceScn, from, limit),
      position: (r) => r.pos,
      live: (r) =>
        r.deleted === 0 &&
        visibleTo(audience, { deleted: r.article_deleted, retail: r.retail, active: r.active }),
      items: (shown) => shown.map(imageToWire),
      deletedKey: (r) => ({ ARTICLE: r.article_no, IMAGENO: r.image_no }),
    });
  }

  async image(audience: Audience, articleNo: string, imageNo: number) {
    const version = await this.#read.articleVersion(articleNo);
    const image =
      version && visibleTo(audience, version) ? await this.#images.findImage(articleNo, imageNo) : undefined;
    if (!image) throw KERNEL_ERRORS.IMAGE_NOT_FOUND(`Article "${articleNo}" has no image ${imageNo}.`);
    return { contentType: image.content_type, data: image.data, sha256: image.sha256 };
  }

  /**
   * Stores an image: its type sniffed from the bytes (only JPEG, PNG and WebP are taken), then
   * decoded and encoded again (cleanImage), so only the picture is kept, never what was appended
   * to it or its metadata. The image number (1 to 99) is the admin route's to check.
   */
  async putImage(
    articleNo: string,
    imageNo: number,
    upload: Buffer,
    declaredType?: string,
  ): Promise<{ contentType: string }> {
    const { contentType, sha256, data } = await cleanImage(upload, {
      maxBytes: MAX_IMAGE_BYTES,
      field: '/data',
      declaredType,
    });
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new CatalogRepository(uow.db);
      const scn = await uow.scn();
      if (!(await repo.touchArticle(articleNo, scn, this.now().toISOString()))) {
        throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${articleNo}".`);
      }
      await new ImageRepository(uow.db).putImage({
        article_no: articleNo,
        image_no: imageNo,
        content_type: contentType,
        byte_size: data.length,
        sha256,
        data,
        deleted: 0,
        scn,
      });
      await refreshDocuments(uow.db, [articleNo]);
    });
    return { contentType };
  }

  async deleteImage(articleNo: string, imageNo: number): Promise<void> {
    await inWriteTransaction(this.database, async (uow) => {
      const scn = await uow.scn();
      if (!(await new ImageRepository(uow.db).softDeleteImage(articleNo, imageNo, scn))) {
        throw KERNEL_ERRORS.IMAGE_NOT_FOUND(`Article "${articleNo}" has no image ${imageNo}.`);
      }
      await new CatalogRepository(uow.db).touchArticle(articleNo, scn, this.now().toISOString());
      await refreshDocuments(uow.db, [articleNo]);
    });
  }
}
