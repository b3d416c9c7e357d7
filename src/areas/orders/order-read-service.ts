import type { Config } from '../../config.ts';
import type { Database } from '../../kernel/db/database.ts';
import type { Services } from '../../kernel/services.ts';

/** Reads of orders and the order state feeds (docs/orders.md, "Reading orders"). */
export class OrderReadService {
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
