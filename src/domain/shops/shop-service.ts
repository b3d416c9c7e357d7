import type { Database } from '../../db/database.ts';

export class ShopService {
  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {}
}
