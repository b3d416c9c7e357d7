import { Type } from 'typebox';
import { adminRoute, samePathKey } from '../../kernel/admin-route.ts';
import { ValidationError, withRoot } from '../../kernel/errors.ts';
import {
  LevelBody,
  LocationBody,
  levelInput,
  locationInput,
  locationToBody,
  MovementBody,
  saveLocation,
} from './stock-input.ts';
import type { StockLevel } from './stock-rules.ts';

const LocationParams = Type.Object({
  location: Type.String({ minLength: 1, maxLength: 20, description: 'The location code (LOCATION).' }),
});
const LevelAnswer = Type.Object({
  LOCATION: Type.String(),
  ARTICLE: Type.String(),
  SIZEX: Type.String(),
  ONHAND: Type.Integer(),
  RESERVED: Type.Integer(),
  AVAILABLE: Type.Integer(),
  SCN: Type.Integer(),
});
const levelAnswer = (l: StockLevel) => ({
  LOCATION: l.locationCode,
  ARTICLE: l.articleNo,
  SIZEX: l.sizex,
  ONHAND: l.onHand,
  RESERVED: l.reserved,
  AVAILABLE: l.available,
  SCN: l.scn,
});

export const STOCK_ADMIN_ROUTES = [
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/locations/:location',
    summary: 'Create or change a stock location (shop or warehouse)',
    description: "The body's LOCATION must equal the path's key (a 400 naming the field otherwise).",
    params: LocationParams,
    body: LocationBody,
    response: Type.Object({
      WRITTEN: Type.Boolean(),
      LOCATION: Type.Object({}, { additionalProperties: true }),
    }),
    async handler({ params, body, services }) {
      samePathKey(params.location, body.LOCATION, 'LOCATION');
      const { location, written } = await saveLocation(services.stock.locations, locationInput(body));
      return { WRITTEN: written, LOCATION: locationToBody(location) };
    },
  }),
  adminRoute({
    method: 'DELETE',
    url: '/TV2/Admin/locations/:location',
    summary: 'Delete a location that holds no stock',
    description:
      'The location is named by its code in the path; one that still holds stock is refused with 409.',
    params: LocationParams,
    async handler({ params, services }) {
      await services.stock.locations.deleteLocation(params.location);
    },
  }),
  adminRoute({
    method: 'POST',
    url: '/TV2/Admin/stock/movements',
    summary: 'Post a stock movement: a receipt, a correction or a transfer, with its reason',
    description:
      'TYPE says which: a RECEIPT needs QUANTITY, a TRANSFER needs QUANTITY and TOLOCATION, a CORRECTION gives either SETTO or DELTA. LOCATION, TOLOCATION, ARTICLE and SIZEX must exist. The answer holds the levels after the movement.',
    body: MovementBody,
    response: Type.Object({ LEVELS: Type.Array(LevelAnswer) }),
    async handler({ body, services }) {
      const key = { locationCode: body.LOCATION, articleNo: body.ARTICLE, sizex: body.SIZEX };
      if (body.TYPE === 'RECEIPT') {
        if (body.QUANTITY === undefined)
          throw new ValidationError([{ name: '/QUANTITY', message: 'is required' }]);
        return {
          LEVELS: [
            levelAnswer(
              await services.stock.ledger.receive({
                ...key,
                quantity: body.QUANTITY,
                reference: body.REASON,
              }),
            ),
          ],
        };
      }
      if (body.TYPE === 'CORRECTION') {
        const level = await services.stock.stockTake.correct({
          ...key,
          setTo: body.SETTO,
          delta: body.DELTA,
          reference: body.REASON,
        });
        return { LEVELS: [levelAnswer(level)] };
      }
      if (body.QUANTITY === undefined || body.TOLOCATION === undefined) {
        throw new ValidationError([
          ...(body.QUANTITY === undefined ? [{ name: '/QUANTITY', message: 'is required' }] : []),
          ...(body.TOLOCATION === undefined ? [{ name: '/TOLOCATION', message: 'is required' }] : []),
        ]);
      }
      const { from, to } = await services.stock.ledger.transfer({
        from: body.LOCATION,
        to: body.TOLOCATION,
        articleNo: body.ARTICLE,
        sizex: body.SIZEX,
        quantity: body.QUANTITY,
        reference: body.REASON,
      });
      return { LEVELS: [levelAnswer(from), levelAnswer(to)] };
    },
  }),
  adminRoute({
    method: 'PUT',
    url: '/TV2/Admin/stock/levels',
    summary: 'Set counted stock levels (a stock take): each differing level gets one correction movement',
    description:
      'Every LOCATION and ARTICLE (with its SIZEX) must exist; every level that breaks a rule is named (a 400), ' +
      'and nothing is written.',
    body: Type.Object(
      {
        REASON: Type.String({ minLength: 1, maxLength: 100 }),
        LEVELS: Type.Array(LevelBody, { minItems: 1, maxItems: 5000 }),
      },
      { additionalProperties: false },
    ),
    response: Type.Object({ CHANGED: Type.Integer(), UNCHANGED: Type.Integer() }),
    async handler({ body, services }) {
      const rows = body.LEVELS.map(levelInput);
      const result = await withRoot('/LEVELS', () =>
        services.stock.stockTake.setLevels(rows, { reference: body.REASON }),
      );
      return { CHANGED: result.changed, UNCHANGED: result.unchanged };
    },
  }),
];
