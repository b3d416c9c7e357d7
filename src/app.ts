import type { Server } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { AREAS, MIGRATIONS } from './areas.ts';
import type { Config } from './config.ts';
import { markDraining } from './http/health.ts';
import { buildApp } from './http/server.ts';
import {
  assertWritable,
  type Database,
  type DatabaseOptions,
  databaseOptions,
  migrate,
  openDatabase,
} from './kernel/db/database.ts';
import { neverWritten } from './kernel/db/unit-of-work.ts';
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
  const empty =
    (await neverWritten(services.database.db)) && (await services.general.auth.countUsers()) === 0;
  if (!empty) return false;
  for (const area of AREAS) await area.seedDemo?.(services);
  await services.general.auth.createUser({
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
  let reportIdleError: ((error: Error) => void) | undefined;
  const dbOptions: DatabaseOptions = {
    ...databaseOptions(config),
    onIdleError: (error) => reportIdleError?.(error),
  };
  const database = openDatabase(config.databaseUrl, dbOptions);
  try {
    await migrateAtStart(config.databaseUrl, database, dbOptions);
    await assertWritable(database);
    const services = createServices(config, database);
    const app = await buildApp(services, { areas: AREAS, logger: options.logger ?? loggerOptions(config) });
    reportIdleError = (error) =>
      app.log.warn({ err: error }, 'an idle database connection failed; the pool replaces it');
    if (config.demo && (await loadDemoIfEmpty(services))) {
      app.log.info(`demo data loaded; API user "${DEMO_USER.name}" with secret "${DEMO_USER.secret}"`);
    }
    let closing: Promise<void> | undefined;
    return {
      app,
      services,
      database,
      close() {
        closing ??= (async () => {
          markDraining(app);
          const listening = app.server.listening;
          await admitQueuedRequests(app.server, admitWindowMs(config));
          const closed = app.close();
          for (let turn = 0; turn < 1000 && app.server.listening; turn++) await nextTurn();
          if (listening) app.log.info('no longer accepting connections; finishing the requests received');
          await closed;
          await database.close();
          if (listening) app.log.info('database closed');
        })();
        return closing;
      },
    };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

/** The longest a shutdown keeps admitting queued requests: 5 s, at most half the shutdown deadline. */
function admitWindowMs(config: Config): number {
  const deadlineMs = config.shutdownTimeoutSeconds * 1000;
  return deadlineMs > 0 ? Math.min(5000, deadlineMs / 2) : 5000;
}

/**
 * Migrations run without the statement timeout of a serving process (a migration over a large
 * table may rightly take minutes): on PostgreSQL through a short-lived pool of their own.
 */
async function migrateAtStart(url: string, database: Database, options: DatabaseOptions): Promise<void> {
  if (database.engine !== 'postgres') {
    await migrate(database, MIGRATIONS);
    return;
  }
  const migrating = openDatabase(url, {
    ...options,
    poolSize: 1,
    statementTimeoutMs: 0,
    idleInTransactionTimeoutMs: 0,
  });
  try {
    await migrate(migrating, MIGRATIONS);
  } finally {
    await migrating.close();
  }
}

/**
 * Lets connections and requests that clients already sent, but that this process has not read yet
 * (waiting in the kernel's accept queue or socket buffers while the event loop was busy, as it is
 * on SQLite under load), reach the server before it stops listening: closing the listening socket
 * resets every connection still queued, and Node closes accepted connections whose request it has
 * not parsed yet as idle. Node accepts queued connections one per event-loop turn, and on SQLite a
 * turn lasts as long as the request it admits, so this waits for quiet (two turns in a row without
 * a new connection or request: the queues are empty) rather than for a number of turns, up to
 * `maxMs` so a stream of new clients cannot keep the process open.
 */
async function admitQueuedRequests(server: Server, maxMs: number): Promise<void> {
  if (!server.listening) return;
  let events = 0;
  const count = () => {
    events++;
  };
  server.on('connection', count);
  server.on('request', count);
  try {
    const deadline = performance.now() + maxMs;
    let before = -1;
    while (events !== before && performance.now() < deadline) {
      before = events;
      await nextTurn();
      await nextTurn();
    }
  } finally {
    server.off('connection', count);
    server.off('request', count);
  }
}
