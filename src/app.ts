import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { type Database, migrate, openDatabase } from './db/database.ts';
import { currentScn } from './db/unit-of-work.ts';
import { seedClients } from './demo/client-data.ts';
import { seedCustomers } from './demo/customer-data.ts';
import { seedPrices } from './demo/price-data.ts';
import { seedCatalog } from './demo/seed.ts';
import { seedShops } from './demo/shop-data.ts';
import { seedStock } from './demo/stock-data.ts';
import { buildApp } from './http/server.ts';
import { createServices, type Services } from './services.ts';

export const DEMO_USER = { name: 'demo', secret: 'demo' } as const;

export interface Running {
  app: FastifyInstance;
  services: Services;
  database: Database;
  close(): Promise<void>;
}

/**
 * Loads the demo world and the demo user, only into an empty database: a database that has ever
 * held data or users is never touched, so a production database cannot gain the demo user.
 */
export async function loadDemoIfEmpty(services: Services): Promise<boolean> {
  const empty = (await currentScn(services.database.db)) === 0 && (await services.auth.countUsers()) === 0;
  if (!empty) return false;
  await seedCatalog(services, {});
  await seedStock(services, {});
  await seedShops(services, {});
  await seedPrices(services, {});
  await seedCustomers(services, {});
  await seedClients(services, {});
  await services.auth.createUser({
    name: DEMO_USER.name,
    secret: DEMO_USER.secret,
    roles: ['B2B', 'B2C', 'ADMIN'],
  });
  return true;
}

/** JSON lines for log collectors; readable lines when a person watches a terminal (unless LOG_FORMAT=json). */
function loggerOptions(config: Config) {
  const pretty = process.stdout.isTTY && process.env.LOG_FORMAT !== 'json';
  return pretty
    ? {
        level: config.logLevel,
        transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } },
      }
    : { level: config.logLevel };
}

export async function startApp(
  config: Config,
  options: { logger?: boolean | object } = {},
): Promise<Running> {
  const database = openDatabase(config.databaseUrl);
  await migrate(database);
  const services = createServices(config, database);
  const app = await buildApp(services, { logger: options.logger ?? loggerOptions(config) });
  if (config.demo && (await loadDemoIfEmpty(services))) {
    app.log.info(`demo data loaded; API user "${DEMO_USER.name}" with secret "${DEMO_USER.secret}"`);
  }
  return {
    app,
    services,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
