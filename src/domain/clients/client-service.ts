import type { Database } from '../../db/database.ts';

export class ClientService {
  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {}
}
