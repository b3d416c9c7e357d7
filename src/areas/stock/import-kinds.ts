import { withRoot } from '../../kernel/errors.ts';
import { checkRecord, fromCsv, type ImportKind, inOneTransaction } from '../../kernel/import/import-kind.ts';
import { LocationService } from './location-service.ts';
import {
  LevelBody,
  LocationBody,
  levelInput,
  locationInput,
  locationRecordFromCsv,
  saveLocation,
} from './stock-input.ts';
import type { LevelInput } from './stock-take-service.ts';

/** A batch's refusals named by record (`/3/LOCATION`); the one record of a batch of one as it is. */
const named = <T>(inputs: readonly unknown[], save: () => Promise<T>) =>
  withRoot('', save, { single: inputs.length === 1 });

const locations: ImportKind<ReturnType<typeof locationInput>> = {
  name: 'locations',
  description:
    'shops and warehouses: LOCATION, NAME, KIND (SHOP|WAREHOUSE), WHOLESALE, RETAIL, ACTIVE, ADDRESS, HOUSENUMBER, POSTALCODE, CITY, COUNTRY',
  parse: (record, format) =>
    locationInput(checkRecord<LocationBody>(LocationBody, fromCsv(record, format, locationRecordFromCsv))),
  save: (services, inputs) =>
    named(inputs, () =>
      inOneTransaction(services, async (database) => {
        const locations = new LocationService(database);
        let written = 0;
        for (const [i, input] of inputs.entries()) {
          if ((await withRoot(`/${i}`, () => saveLocation(locations, input))).written) written++;
        }
        return { written, unchanged: inputs.length - written };
      }),
    ),
};

const stock: ImportKind<LevelInput> = {
  name: 'stock',
  description:
    'counted stock levels: LOCATION, ARTICLE, SIZEX, ONHAND (differences become correction movements)',
  parse: (record) => levelInput(checkRecord<LevelBody>(LevelBody, record)),
  async save(services, inputs) {
    const result = await named(inputs, () =>
      services.stock.stockTake.setLevels(inputs, { reference: 'import' }),
    );
    return { written: result.changed, unchanged: result.unchanged };
  },
};

/** The `tv2 import` kinds of the stock area: locations before their levels. */
export const STOCK_IMPORT_KINDS = [locations, stock];
