import { Type } from 'typebox';
import { adminRoute, pathNumber, samePathKey, uploadedBytes } from '../../kernel/admin-route.ts';
import { IMAGE_TYPES, MAX_IMAGE_BYTES } from '../../kernel/image-bytes.ts';
import { DIGITS_MAX } from '../../kernel/int-limits.ts';
import {
  AssistantBody,
  assistantInput,
  HomePageBlockBody,
  homePageBlockInput,
  PickupPointBody,
  pickupPointInput,
  RegexBody,
  regexInput,
  ShopBody,
  shopInput,
} from './shop-input.ts';
import { MAX_IMAGE_NO } from './shop-service.ts';

/**
 * The back office of the shops area (docs/shops.md): shop details, shop images (raw bytes, like
 * article images), assistants, pickup points, the app's content blocks and validation patterns.
 * PUT creates or replaces (the key is in the path and must match the body), DELETE deletes (the row
 * stays as the tombstone of the change feeds).
 */
const SaveAnswer = Type.Object({
  WRITTEN: Type.Integer({ description: 'Records changed (their SCN moved).' }),
  UNCHANGED: Type.Integer({ description: 'Records that already held the data given.' }),
});

const Location = Type.String({
  minLength: 1,
  maxLength: 20,
  description: 'The shop: a stock location code of kind SHOP.',
});
const ShopParams = Type.Object({ location: Location });
const ImageParams = Type.Object({
  location: Location,
  imageno: pathNumber(MAX_IMAGE_NO, 'The image number (deleting a number the shop lacks is a 404).'),
});
/** Storing takes image numbers 1 to 99 (pathNumber takes 0 too; deleting image 0 is a 404). */
const NewImageParams = Type.Object({
  location: Location,
  imageno: Type.String({
    pattern: '^(?!0+$)[0-9]{1,2}$',
    [DIGITS_MAX]: MAX_IMAGE_NO,
    description: `The image number, 1 to ${MAX_IMAGE_NO}.`,
  }),
});
const AssistantParams = Type.Object({
  location: Location,
  assistant: pathNumber(9999, 'The number of the assistant within the shop (ASSISTANT).'),
});
const PointParams = Type.Object({
  point: Type.String({
    minLength: 1,
    maxLength: 20,
    description: 'The code of the pickup point (LOCATION).',
  }),
});
const BlockParams = Type.Object({
  page: Type.String({ minLength: 1, maxLength: 20, description: 'The page of the consumer app (PAGE).' }),
  block: pathNumber(9999, 'The number of the block on the page (BLOCK).'),
});
const PatternName = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'The field the pattern validates (NAME).',
});
const RegexParams = Type.Object({ name: PatternName });
const CountryRegexParams = Type.Object({
  name: PatternName,
  country: Type.String({
    minLength: 2,
    maxLength: 2,
    description: 'The country, ISO 3166-1 alpha-2 (COUNTRY).',
  }),
});

const saved = (r: { written: number; unchanged: number }) => ({ WRITTEN: r.written, UNCHANGED: r.unchanged });

function regexRoutes(withCountry: boolean) {
  const url = withCountry ? '/TV2/Admin/regexes/:name/:country' : '/TV2/Admin/regexes/:name';
  const params = withCountry ? CountryRegexParams : RegexParams;
  const countryOf = (p: object) => ('country' in p && typeof p.country === 'string' ? p.country : null);
  return [
    adminRoute({
      method: 'PUT',
      url,
      summary: withCountry
        ? 'Create or replace the validation pattern of a field for one country'
        : 'Create or replace the validation pattern of a field for every country without its own',
      description:
        "The patterns the server validates with are fixed (409 PATTERN_FIXED). The body's NAME and COUNTRY must equal the path's keys (a 400 naming the field otherwise).",
      params,
      body: RegexBody,
      response: SaveAnswer,
      async handler({ params: p, body, services }) {
        const input = regexInput(body);
        samePathKey(p.name, input.name, 'NAME');
        samePathKey(countryOf(p), input.country, 'COUNTRY');
        return saved(await services.shops.content.saveRegex(input));
      },
    }),
    adminRoute({
      method: 'DELETE',
      url,
      summary: withCountry
        ? 'Delete the pattern of a field for one country'
        : 'Delete the pattern of a field for every country',
      description:
        'The pattern is named by its field (and country) in the path; the patterns the server validates with are fixed (409 PATTERN_FIXED).',
      params,
      async handler({ params: p, services }) {
        await services.shops.content.deleteRegex(p.name, countryOf(p));
      },
    }),
  ];
}

export const SHOPS_ADMIN_ROUTES = [
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/shops/:location',
    summary: 'Set the details of a shop: contact, position, pickup, opening hours and exceptions',
    description:
      'The location must be a stock location of kind SHOP (its name and address are kept there). The body ' +
      'has the form of a B2C_GetAllShops record; everything is replaced. ' +
      "Its LOCATION must equal the path's key (a 400 naming the field otherwise).",
    params: ShopParams,
    body: ShopBody,
    response: SaveAnswer,
    async handler({ params, body, services }) {
      samePathKey(params.location, body.LOCATION, 'LOCATION');
      return saved(await services.shops.shops.saveShopDetail(shopInput(body)));
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/shops/:location/images/:imageno',
    summary: 'Store a shop image',
    description: `JPEG, PNG or WebP up to ${MAX_IMAGE_BYTES} bytes; the declared type must match the bytes.`,
    params: NewImageParams,
    rawBodyTypes: IMAGE_TYPES,
    response: Type.Object({ CONTENTTYPE: Type.String(), WRITTEN: Type.Boolean() }),
    async handler({ params, body, services, request }) {
      const { data, declaredType } = uploadedBytes(body, request);
      const result = await services.shops.shops.putShopImage(
        params.location,
        Number(params.imageno),
        data,
        declaredType,
      );
      return { CONTENTTYPE: result.contentType, WRITTEN: result.written };
    },
  }),
  adminRoute({
    method: 'DELETE',
    url: '/TV2/Admin/shops/:location/images/:imageno',
    summary: 'Delete a shop image (409 IMAGE_IN_USE while an assistant shows it as photo)',
    description: 'The image is named by the shop and its number in the path.',
    params: ImageParams,
    async handler({ params, services }) {
      await services.shops.shops.deleteShopImage(params.location, Number(params.imageno));
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/shops/:location/assistants/:assistant',
    summary: 'Create or replace a shop assistant',
    description:
      "The body's LOCATION and ASSISTANT must equal the path's key (a 400 naming the field otherwise).",
    params: AssistantParams,
    body: AssistantBody,
    response: SaveAnswer,
    async handler({ params, body, services }) {
      samePathKey(params.location, body.LOCATION, 'LOCATION');
      samePathKey(Number(params.assistant), body.ASSISTANT, 'ASSISTANT');
      return saved(await services.shops.shops.saveAssistant(assistantInput(body)));
    },
  }),
  adminRoute({
    method: 'DELETE',
    url: '/TV2/Admin/shops/:location/assistants/:assistant',
    summary: 'Delete a shop assistant',
    description: 'The assistant is named by the shop and its number in the path.',
    params: AssistantParams,
    async handler({ params, services }) {
      await services.shops.shops.deleteAssistant(params.location, Number(params.assistant));
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/pickuppoints/:point',
    summary: 'Create or replace an external pickup point',
    description: "The body's LOCATION must equal the path's key (a 400 naming the field otherwise).",
    params: PointParams,
    body: PickupPointBody,
    response: SaveAnswer,
    async handler({ params, body, services }) {
      samePathKey(params.point, body.LOCATION, 'LOCATION');
      return saved(await services.shops.pickup.savePickupPoint(pickupPointInput(body)));
    },
  }),
  adminRoute({
    method: 'DELETE',
    url: '/TV2/Admin/pickuppoints/:point',
    summary: 'Delete an external pickup point',
    description: 'The pickup point is named by its code in the path.',
    params: PointParams,
    async handler({ params, services }) {
      await services.shops.pickup.deletePickupPoint(params.point);
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/homepages/:page/blocks/:block',
    summary: 'Create or replace a content block of a page of the consumer app',
    description: "The body's PAGE and BLOCK must equal the path's key (a 400 naming the field otherwise).",
    params: BlockParams,
    body: HomePageBlockBody,
    response: SaveAnswer,
    async handler({ params, body, services }) {
      samePathKey(params.page, body.PAGE, 'PAGE');
      samePathKey(Number(params.block), body.BLOCK, 'BLOCK');
      return saved(await services.shops.content.saveHomePageBlock(homePageBlockInput(body)));
    },
  }),
  adminRoute({
    method: 'DELETE',
    url: '/TV2/Admin/homepages/:page/blocks/:block',
    summary: 'Delete a content block',
    description: 'The block is named by its page and number in the path.',
    params: BlockParams,
    async handler({ params, services }) {
      await services.shops.content.deleteHomePageBlock(params.page, Number(params.block));
    },
  }),
  ...regexRoutes(false),
  ...regexRoutes(true),
];
