import type { Database } from '../../kernel/db/database.ts';
import { LocationService } from './location-service.ts';
import { ReservationService } from './reservation-service.ts';
import { StockLedgerService } from './stock-ledger-service.ts';
import { StockTakeService } from './stock-take-service.ts';

/** The stock area's services, one per sub-resource (docs/stock.md). */
export interface StockServices {
  locations: LocationService;
  /** Levels, their feeds and the movements of the ledger. */
  ledger: StockLedgerService;
  /** Corrections and counted levels. */
  stockTake: StockTakeService;
  /** Reservations, releases and shipments of many lines inside a caller's transaction (orders). */
  reservations: ReservationService;
}

export function createStockServices(database: Database, now: () => Date = () => new Date()): StockServices {
  return {
    locations: new LocationService(database, now),
    ledger: new StockLedgerService(database, now),
    stockTake: new StockTakeService(database, now),
    reservations: new ReservationService(now),
  };
}
