import { checkRecord, fromCsv, type ImportKind, inOneTransaction } from '../../kernel/import/import-kind.ts';
import { LocationService } from './location-service.ts';
import {
  LevelBody,
  LocationBody,
  locationInput,
  locationRecordFromCsv,
  saveLocation,
} from './stock-input.ts';

const locations: ImportKind<ReturnType<typeof locationInput>> = {
  name: 'locations',
  description:
    'shops and warehouses: LOCATION, NAME, KIND (SHOP|WAREHOUSE), WHOLESALE, RETAIL, ACTIVE, ADDRESS, HOUSENUMBER, POSTALCODE, CITY, COUNTRY',
  parse: (record, format) =>
    locationInput(checkRecord<LocationBody>(LocationBody, fromCsv(record, format, locationRecordFromCsv))),
  save: (services, inputs) =>
    inOneTransaction(services, async (database) => {
      const locations = new LocationService(database);
      let written = 0;
      for (const input of inputs) if ((await saveLocation(locations, input)).written) written++;
      return { written, unchanged: inputs.length - written };
    }),
};

const stock: ImportKind<{ locationCode: string; articleNo: string; sizex: string; onHand: number }> = {
  name: 'stock',
  description:
    'counted stock levels: LOCATION, ARTICLE, SIZEX, ONHAND (differences become correction movements)',
  parse(record) {
    const body = checkRecord<LevelBody>(LevelBody, record);
    return {
      locationCode: body.LOCATION,
      articleNo: body.ARTICLE,
      sizex: body.SIZEX,
      onHand: Number(body.ONHAND),
    };
  },
  async save(services, inputs) {
    const result = await services.stock.stockTake.setLevels(inputs, { reference: 'import' });
    return { written: result.changed, unchanged: result.unchanged };
  },
};

/** The `tv2 import` kinds of the stock area: locations before their levels. */
export const STOCK_IMPORT_KINDS = [locations, stock];
