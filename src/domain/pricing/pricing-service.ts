import type { Database } from '../../db/database.ts';

export class PricingService {
  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {}
}
