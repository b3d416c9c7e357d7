import type { Config } from '../config.ts';
import type { Database } from './db/database.ts';

/**
 * The services of one API process, built once over one database. The kernel knows only the
 * configuration and the database; each area adds its own services to this interface (a module
 * augmentation in its index.ts) and builds them in its `services` factory (src/areas.ts puts the
 * process together). So the kernel and the HTTP layer use `services.catalog` without importing the
 * catalog area.
 */
export interface Services {
  config: Config;
  database: Database;
}
