import type { Database } from '../../db/database.ts';

export class CustomerService {
  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {}
}
