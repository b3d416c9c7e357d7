import type { Database } from '../../db/database.ts';

export class StockService {
  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {}
}
