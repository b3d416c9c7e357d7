import { Type } from 'typebox';
import { ValidationError } from '../../kernel/errors.ts';
import { FeedSchema, feedAnswer } from '../../kernel/feed-page.ts';
import { Binary, operation } from '../../kernel/operation.ts';
import {
  type PageLimits,
  pageParams,
  positiveDigits,
  queryObject,
  text,
  toPage,
  toPositiveInt,
} from '../../kernel/params.ts';
import { rooted } from '../../kernel/schemas.ts';
import { MAX_LATITUDE_MICRO, MAX_LONGITUDE_MICRO, toMicroDegrees } from './geo.ts';
import {
  AssistantSchema,
  BlockSchema,
  PickupSchema,
  RegexSchema,
  SHOP_FEED,
  ShopImageSchema,
  ShopSchema,
} from './schemas.ts';

const SHOP_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
const IMAGE_PAGE: PageLimits = { defaultLimit: 500, maxLimit: 5000 };
const ASSISTANT_PAGE: PageLimits = { defaultLimit: 500, maxLimit: 5000 };
const PICKUP_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
const BLOCK_PAGE: PageLimits = { defaultLimit: 100, maxLimit: 1000 };
const REGEX_PAGE: PageLimits = { defaultLimit: 500, maxLimit: 5000 };

const FEED =
  'Pages by stable position (creation order): a page is the records from position stroffset (1: the ' +
  'start), at most strlimit, and NEXTOFFSET is the position of the next page (not stroffset + strlimit; ' +
  'null on the last page); a full list leaves out what is not shown, so its pages are full. With strscn > 0 only ' +
  'what changed after that SCN comes back, and DELETED lists what was deleted or is no longer shown ' +
  'since. Keep the SCN of the first page of a pass and pass it as strscn next time.';
const SHOPS_SEEN = 'Shops are the stock locations of kind SHOP that are active and serve retail.';

const Key = (properties: Parameters<typeof Type.Object>[0]) => Type.Object(properties);
const DEGREES = '^-?[0-9]{1,3}(\\.[0-9]{1,6})?$';

export const B2C_GetAllShops = operation({
  name: 'B2C_GetAllShops',
  method: 'GET',
  audience: 'B2C',
  area: 'Shops',
  summary: 'All shops, with address, position, contact and opening hours',
  description: `${SHOPS_SEEN} ${FEED}`,
  query: queryObject(pageParams(SHOP_PAGE)),
  response: rooted(
    'B2CGETALLSHOPS',
    FeedSchema('SHOPS', ShopSchema, Type.String({ description: 'Shop code.' }), SHOP_FEED),
  ),
  async handler({ query, services }) {
    const page = await services.shops.shops.listShops(toPage(query, SHOP_PAGE));
    return feedAnswer('B2CGETALLSHOPS', 'SHOPS', page);
  },
});

export const B2C_GetAllShopImages = operation({
  name: 'B2C_GetAllShopImages',
  method: 'GET',
  audience: 'B2C',
  area: 'Shops',
  summary: 'All shop images (metadata)',
  description:
    'Lists the images of the shops without their bytes: fetch each with B2C_GetShopImage, and only ' +
    `again when its SHA256 changed. ${FEED}`,
  query: queryObject(pageParams(IMAGE_PAGE)),
  response: rooted(
    'B2CGETALLSHOPIMAGES',
    FeedSchema(
      'IMAGES',
      ShopImageSchema,
      Key({ LOCATION: Type.String(), IMAGENO: Type.Integer() }),
      SHOP_FEED,
    ),
  ),
  async handler({ query, services }) {
    const page = await services.shops.shops.listShopImages(toPage(query, IMAGE_PAGE));
    return feedAnswer('B2CGETALLSHOPIMAGES', 'IMAGES', page);
  },
});

export const B2C_GetShopImage = operation({
  name: 'B2C_GetShopImage',
  method: 'GET',
  audience: 'B2C',
  area: 'Shops',
  summary: 'Image of one shop (the image bytes)',
  description:
    'Answers with the image itself, typed by what its bytes are (JPEG, PNG or WebP), with an ETag ' +
    '(If-None-Match gives 304).',
  query: queryObject({
    strlocation: text('Shop code.', 20),
    strimageno: Type.Optional(positiveDigits('Image number (default 1).', '1')),
  }),
  binaryTypes: ['image/jpeg', 'image/png', 'image/webp'],
  async handler({ query, services }) {
    const imageNo = toPositiveInt('strimageno', query.strimageno ?? '1');
    const image = await services.shops.shops.shopImage(query.strlocation, imageNo);
    return new Binary(image.contentType, image.data, `"${image.sha256}"`);
  },
});

export const B2C_GetShopAssistants = operation({
  name: 'B2C_GetShopAssistants',
  method: 'GET',
  audience: 'B2C',
  area: 'Shops',
  summary: 'Shop assistants shown in the app',
  description: `The active assistants of the shops; with strlocation those of one shop. ${FEED}`,
  query: queryObject({
    ...pageParams(ASSISTANT_PAGE),
    strlocation: Type.Optional(text('Only this shop.', 20)),
  }),
  response: rooted(
    'B2CGETSHOPASSISTANTS',
    FeedSchema(
      'ASSISTANTS',
      AssistantSchema,
      Key({ LOCATION: Type.String(), ASSISTANT: Type.Integer() }),
      SHOP_FEED,
    ),
  ),
  async handler({ query, services }) {
    const page = await services.shops.shops.listAssistants(toPage(query, ASSISTANT_PAGE), query.strlocation);
    return feedAnswer('B2CGETSHOPASSISTANTS', 'ASSISTANTS', page);
  },
});

export const B2C_GetPickUpLocations = operation({
  name: 'B2C_GetPickUpLocations',
  method: 'GET',
  audience: 'B2C',
  area: 'Shops',
  summary: 'Pickup locations: shops that allow pickup and external pickup points',
  description:
    `Shops that allow click-and-collect (TYPE SHOP), then external pickup points (TYPE POINT). ${FEED} ` +
    'With strlat and strlon the answer is ordered by distance instead (nearest first, DISTANCE in metres; ' +
    'locations without a position last): the current list, not a change feed, so strscn must be 0, ' +
    'paged by counting (NEXTOFFSET = stroffset + strlimit).',
  query: queryObject({
    ...pageParams(PICKUP_PAGE),
    strlat: Type.Optional(
      Type.String({
        pattern: DEGREES,
        description: 'Latitude in decimal degrees, e.g. 52.370216 (with strlon).',
      }),
    ),
    strlon: Type.Optional(
      Type.String({
        pattern: DEGREES,
        description: 'Longitude in decimal degrees, e.g. 4.895168 (with strlat).',
      }),
    ),
  }),
  response: rooted(
    'B2CGETPICKUPLOCATIONS',
    FeedSchema(
      'LOCATIONS',
      PickupSchema,
      Key({ TYPE: Type.Union([Type.Literal('SHOP'), Type.Literal('POINT')]), LOCATION: Type.String() }),
      SHOP_FEED,
    ),
  ),
  async handler({ query, services }) {
    const page = toPage(query, PICKUP_PAGE);
    let position: { latitude: number; longitude: number } | undefined;
    if (query.strlat !== undefined || query.strlon !== undefined) {
      const latitude = query.strlat === undefined ? null : toMicroDegrees(query.strlat, MAX_LATITUDE_MICRO);
      const longitude = query.strlon === undefined ? null : toMicroDegrees(query.strlon, MAX_LONGITUDE_MICRO);
      const errors = [];
      if (latitude === null)
        errors.push({
          name: 'strlat',
          message: query.strlat === undefined ? 'give it with strlon' : 'must be -90 to 90',
        });
      if (longitude === null)
        errors.push({
          name: 'strlon',
          message: query.strlon === undefined ? 'give it with strlat' : 'must be -180 to 180',
        });
      if (errors.length > 0 || latitude === null || longitude === null) throw new ValidationError(errors);
      position = { latitude, longitude };
    }
    const result = await services.shops.pickup.listPickupLocations(page, position);
    return feedAnswer('B2CGETPICKUPLOCATIONS', 'LOCATIONS', result);
  },
});

export const B2C_GetHomePages = operation({
  name: 'B2C_GetHomePages',
  method: 'GET',
  audience: 'B2C',
  area: 'Shops',
  summary: 'Content blocks of the consumer app’s pages',
  description:
    'The active blocks of every page (or of strpage); the app shows a page’s ' +
    'blocks by POSITION, each only from VALIDFROM to before VALIDTO (by its clock: the list does not ' +
    `change when a block's time comes or goes). ${FEED}`,
  query: queryObject({
    ...pageParams(BLOCK_PAGE),
    strpage: Type.Optional(text('Only this page, e.g. HOME.', 20)),
  }),
  response: rooted(
    'B2CGETHOMEPAGES',
    FeedSchema('BLOCKS', BlockSchema, Key({ PAGE: Type.String(), BLOCK: Type.Integer() }), SHOP_FEED),
  ),
  async handler({ query, services }) {
    const page = await services.shops.content.listHomePageBlocks(toPage(query, BLOCK_PAGE), query.strpage);
    return feedAnswer('B2CGETHOMEPAGES', 'BLOCKS', page);
  },
});

export const B2C_GetCompanyRegEx = operation({
  name: 'B2C_GetCompanyRegEx',
  method: 'GET',
  audience: 'B2C',
  area: 'Shops',
  summary: 'Validation patterns a client app applies (postal codes, phone numbers, card numbers, ...)',
  description:
    'A client looks a field up by NAME and its country, then by NAME with COUNTRY null. SERVER marks ' +
    'the patterns the server itself validates with: they come first in every answer (also with ' +
    `strscn > 0), with SCN 0. ${FEED}`,
  query: queryObject(pageParams(REGEX_PAGE)),
  response: rooted(
    'B2CGETCOMPANYREGEX',
    FeedSchema(
      'REGEXES',
      RegexSchema,
      Key({ NAME: Type.String(), COUNTRY: Type.Union([Type.String(), Type.Null()]) }),
      SHOP_FEED,
    ),
  ),
  async handler({ query, services }) {
    const page = await services.shops.content.listRegexes(toPage(query, REGEX_PAGE));
    return feedAnswer('B2CGETCOMPANYREGEX', 'REGEXES', page);
  },
});
