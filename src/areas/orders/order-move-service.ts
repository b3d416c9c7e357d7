import type { Config } from '../../config.ts';
import type { Database } from '../../kernel/db/database.ts';
import type { Services } from '../../kernel/services.ts';

/** Lifecycle moves of an order, deliveries and returns (docs/orders.md, "Moves", "Deliveries", "Returns"). */
export class OrderMoveService {
  readonly database: Database;
  readonly config: Config;
  readonly all: Services;
  readonly now: () => Date;

  constructor(database: Database, config: Config, all: Services, now: () => Date = () => new Date()) {
    this.database = database;
    this.config = config;
    this.all = all;
    this.now = now;
  }
}
