import type { Kysely } from 'kysely';
import { changedAfter } from '../../kernel/db/feed-sql.ts';
import type { DB } from '../../kernel/db/schema.ts';
import type { ImageRow } from './catalog-repository.ts';

/** Keys per IN list: well below both engines' bound-parameter limits. */
const IN_CHUNK = 1000;

/** The SQL of article images (B2C_GetAllArticlesImages, B2C_GetArticleImage, their admin writes). */
export class ImageRepository {
  private readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  /**
   * One page of images (metadata, with their article's retail visibility) by stable position: a
   * feed (`sinceScn` > 0, off the image `scn` index) has every image changed after `sinceScn`,
   * tombstones included (an image is stamped when its article's retail visibility changes, so the
   * article's own SCN need not be asked); a full list (off the image `pos` index) only the live
   * images of articles published for retail. The article is joined by its key for its flags only.
   */
  imagesPage(sinceScn: number, from: number, limit: number) {
    let query = this.db
      .selectFrom('article_image')
      .innerJoin('article', 'article.article_no', 'article_image.article_no')
      .select([
        'article_image.article_no',
        'article_image.image_no',
        'article_image.content_type',
        'article_image.byte_size',
        'article_image.sha256',
        'article_image.deleted',
        'article_image.scn',
        'article_image.pos',
        'article.retail',
        'article.active',
        'article.deleted as article_deleted',
      ])
      .where('article_image.pos', '>=', from);
    if (sinceScn > 0) {
      // Images are retail's: it is told only of those of articles it once saw (issue 14). Asked
      // per image (a scalar subquery), so PostgreSQL does not plan the join from the articles.
      query = query
        .where(changedAfter('article_image.scn', sinceScn))
        .where(
          (eb) =>
            eb
              .selectFrom('article as seen')
              .whereRef('seen.article_no', '=', 'article_image.article_no')
              .select('seen.seen_retail'),
          '=',
          1,
        );
    } else {
      query = query
        .where('article_image.deleted', '=', 0)
        .where('article.deleted', '=', 0)
        .where('article.retail', '=', 1)
        .where('article.active', '=', 1);
    }
    return query.orderBy('article_image.pos').limit(limit).execute();
  }

  findImage(articleNo: string, imageNo: number): Promise<ImageRow | undefined> {
    return this.db
      .selectFrom('article_image')
      .selectAll()
      .where('article_no', '=', articleNo)
      .where('image_no', '=', imageNo)
      .where('deleted', '=', 0)
      .executeTakeFirst();
  }

  /**
   * Stamps the live images of the given articles with `scn`: their retail visibility changed with
   * their article's (published, unpublished, activated), and the image feed asks only the image's SCN.
   */
  async stampImages(articleNos: string[], scn: number): Promise<void> {
    for (let i = 0; i < articleNos.length; i += IN_CHUNK) {
      const chunk = articleNos.slice(i, i + IN_CHUNK);
      await this.db
        .updateTable('article_image')
        .set({ scn })
        .where('article_no', 'in', chunk)
        .where('deleted', '=', 0)
        .execute();
    }
  }

  async putImage(row: ImageRow): Promise<void> {
    const { article_no, image_no, ...changes } = row;
    await this.db
      .insertInto('article_image')
      .values(row)
      .onConflict((oc) => oc.columns(['article_no', 'image_no']).doUpdateSet(changes))
      .execute();
  }

  async softDeleteImage(articleNo: string, imageNo: number, scn: number): Promise<boolean> {
    const result = await this.db
      .updateTable('article_image')
      .set({ deleted: 1, data: Buffer.alloc(0), byte_size: 0, scn })
      .where('article_no', '=', articleNo)
      .where('image_no', '=', imageNo)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
