import { Type } from 'typebox';
import { adminRoute, pathNumber, samePathKey, uploadedBytes } from '../../kernel/admin-route.ts';
import { IMAGE_TYPES, MAX_IMAGE_BYTES } from '../../kernel/image-bytes.ts';
import { ArticleBody, articleInput, SizeTableBody, sizeTableInput } from './catalog-input.ts';

const SaveAnswer = Type.Object({
  WRITTEN: Type.Integer({ description: 'Records changed (their SCN moved).' }),
  UNCHANGED: Type.Integer({ description: 'Records that already held the data given.' }),
});

const ArticleNo = Type.String({ minLength: 1, maxLength: 40, description: 'The article number (ARTICLE).' });
const ArticleParams = Type.Object({ article: ArticleNo });
const ImageParams = Type.Object({
  article: ArticleNo,
  imageno: pathNumber(99, 'The image number (deleting a number the article lacks is a 404).'),
});
/** An image is stored under a number from 1 to 99. */
const StoredImageParams = Type.Object({
  article: ArticleNo,
  imageno: Type.String({ pattern: '^(?:0?[1-9]|[1-9][0-9])$', description: 'Image number, 1 to 99.' }),
});
const SizeTableParams = Type.Object({
  sizetable: Type.String({ minLength: 1, maxLength: 40, description: 'The size table code (SIZETABLE).' }),
});

export const CATALOG_ADMIN_ROUTES = [
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/sizetables/:sizetable',
    summary: 'Create or replace a size table',
    description: "The body's SIZETABLE must equal the path's key (a 400 naming the field otherwise).",
    params: SizeTableParams,
    body: SizeTableBody,
    response: SaveAnswer,
    async handler({ params, body, services }) {
      samePathKey(params.sizetable, body.SIZETABLE, 'SIZETABLE');
      const result = await services.catalog.saveSizeTable(sizeTableInput(body));
      return { WRITTEN: result.written, UNCHANGED: result.unchanged };
    },
  }),
  adminRoute({
    method: 'DELETE',
    url: '/TV2/Admin/sizetables/:sizetable',
    summary: 'Delete a size table no article uses',
    description:
      'The size table is named by its code in the path; one that articles still use is refused with 409.',
    params: SizeTableParams,
    async handler({ params, services }) {
      await services.catalog.deleteSizeTable(params.sizetable);
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/articles/:article',
    summary: 'Create or replace an article with its sizes, barcodes and parameters',
    description:
      'The body has the form of an article in B2B_GetArticle; read-only keys (SCN, IMAGES) are ignored. ' +
      "Its ARTICLE must equal the path's key (a 400 naming the field otherwise).",
    params: ArticleParams,
    body: ArticleBody,
    response: SaveAnswer,
    async handler({ params, body, services }) {
      samePathKey(params.article, body.ARTICLE, 'ARTICLE');
      const result = await services.catalog.saveArticle(articleInput(body));
      return { WRITTEN: result.written, UNCHANGED: result.unchanged };
    },
  }),
  adminRoute({
    method: 'DELETE',
    url: '/TV2/Admin/articles/:article',
    summary: 'Delete an article (it stays as a tombstone for the change feeds; its barcodes are freed)',
    description:
      'The article is named by its number in the path; the article feeds then list it under DELETED.',
    params: ArticleParams,
    async handler({ params, services }) {
      await services.catalog.deleteArticle(params.article);
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/articles/:article/images/:imageno',
    summary: 'Store an article image',
    description: `JPEG, PNG or WebP up to ${MAX_IMAGE_BYTES} bytes; the declared type must match the bytes.`,
    params: StoredImageParams,
    rawBodyTypes: IMAGE_TYPES,
    response: Type.Object({ CONTENTTYPE: Type.String() }),
    async handler({ params, body, services, request }) {
      const { data, declaredType } = uploadedBytes(body, request);
      const { contentType } = await services.catalog.putImage(
        params.article,
        Number(params.imageno),
        data,
        declaredType,
      );
      return { CONTENTTYPE: contentType };
    },
  }),
  adminRoute({
    method: 'DELETE',
    url: '/TV2/Admin/articles/:article/images/:imageno',
    summary: 'Delete an article image',
    description:
      'The image is named by the article and its number in the path; the image feeds then list it as deleted.',
    params: ImageParams,
    async handler({ params, services }) {
      await services.catalog.deleteImage(params.article, Number(params.imageno));
    },
  }),
];
