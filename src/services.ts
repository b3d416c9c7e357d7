import { AREAS } from './areas.ts';
import type { Config } from './config.ts';
import { servicesOf } from './kernel/area.ts';
import type { Database } from './kernel/db/database.ts';
import type { Services } from './kernel/services.ts';

export type { Services };

/** The services of one API process over one database: the kernel's and every area's (src/areas.ts). */
export function createServices(config: Config, database: Database): Services {
  return servicesOf(AREAS, config, database);
}
