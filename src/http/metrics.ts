import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Area } from '../kernel/area.ts';
import type { Database } from '../kernel/db/database.ts';
import { unavailableReason } from '../kernel/db/unavailable.ts';
import { currentScn } from '../kernel/db/unit-of-work.ts';
import { KERNEL_ERRORS } from '../kernel/errors.ts';
import type { Services } from '../kernel/services.ts';
import { problemOf, sendProblem } from './problem.ts';

/** Latency buckets (seconds) from a cached article answer to a large page on a busy database. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The operation a request was routed to, never its raw URL (which would make one time series per
 * article number): the TV2 operation name under any package alias, the operationId of other
 * documented routes, the route pattern otherwise, `UNMATCHED` for a 404 without a route.
 */
export function operationLabel(request: FastifyRequest): string {
  const url = request.routeOptions.url;
  if (url === undefined) return 'UNMATCHED';
  const tv2 = /^\/TV2\/Execute\/[^./]+\.([^/]+)$/.exec(url);
  if (tv2?.[1]) return tv2[1];
  const operationId = (request.routeOptions.schema as { operationId?: unknown } | undefined)?.operationId;
  return typeof operationId === 'string' ? operationId : url;
}

/** How long a scrape waits for the database's SCN before it reports the database as down. */
const SCRAPE_DB_WAIT_MS = 2000;

async function readScn(database: Database, waitMs: number): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, waitMs, undefined);
  });
  try {
    return await Promise.race([currentScn(database.db).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Prometheus metrics at `/metrics` (prom-client), only when `TV2_METRICS_TOKEN` is set, and then
 * only for a request that presents it as a bearer token. Off, the route answers 404 like any
 * unknown path and nothing is measured.
 */
export function registerMetrics(app: FastifyInstance, services: Services, areas: readonly Area[]): void {
  const token = services.config.metricsToken;
  if (!token) return;
  const expected = sha256(token);
  const registry = new Registry();
  // Process and runtime: CPU, memory, heap, GC, handles and the event loop delay
  // (nodejs_eventloop_lag_seconds and its p50/p90/p99), under their usual names for dashboards.
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'tv2_http_request_duration_seconds',
    help: 'Time to answer a request, by operation, method and status (its _count is the request count).',
    labelNames: ['operation', 'method', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const unavailable = new Counter({
    name: 'tv2_database_unavailable_total',
    help: 'Requests answered 503 DATABASE_UNAVAILABLE (database unreachable, timed out or locked).',
    registers: [registry],
  });
  const { database } = services;
  const up = new Gauge({
    name: 'tv2_database_up',
    help: `1 when the database answered this scrape's SCN read within ${SCRAPE_DB_WAIT_MS / 1000} s, else 0.`,
    registers: [registry],
  });
  const scn = new Gauge({
    name: 'tv2_scn',
    help: 'The current system change number (grows with every committed synchronised write).',
    registers: [registry],
  });
  if (database.poolStats) {
    const stats = database.poolStats;
    new Gauge({
      name: 'tv2_db_pool_connections',
      help: 'PostgreSQL connections of this process by state (busy: running a query or transaction).',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const s = stats();
        this.set({ state: 'busy' }, s.total - s.idle);
        this.set({ state: 'idle' }, s.idle);
      },
    });
    new Gauge({
      name: 'tv2_db_pool_waiting_queries',
      help: 'Queries waiting for a free PostgreSQL connection.',
      registers: [registry],
      collect() {
        this.set(stats().waiting);
      },
    });
    new Gauge({
      name: 'tv2_db_pool_max_connections',
      help: 'Configured PostgreSQL pool size (TV2_DB_POOL_SIZE).',
      registers: [registry],
      collect() {
        this.set(stats().max);
      },
    });
  }
  for (const area of areas) area.metrics?.(registry, services);

  app.addHook('onError', async (_request, _reply, error) => {
    if (unavailableReason(error) !== undefined) unavailable.inc();
  });
  app.addHook('onResponse', async (request, reply) => {
    const url = request.routeOptions.url;
    if (url === '/metrics' || url?.startsWith('/health/')) return;
    duration.observe(
      { operation: operationLabel(request), method: request.method, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get('/metrics', { logLevel: 'warn', schema: { hide: true } }, async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const presented = /^Bearer (.+)$/i.exec(header)?.[1];
    if (!presented || !timingSafeEqual(sha256(presented), expected)) {
      reply.header('www-authenticate', 'Bearer realm="tv2-metrics"');
      return sendProblem(
        reply,
        problemOf(
          request,
          presented ? KERNEL_ERRORS.TOKEN_INVALID : KERNEL_ERRORS.TOKEN_MISSING,
          'Send the metrics token (TV2_METRICS_TOKEN) as a bearer token.',
        ),
      );
    }
    // Read on scrape, bounded: during an outage the scrape still answers, with tv2_database_up 0.
    const value = await readScn(database, SCRAPE_DB_WAIT_MS);
    up.set(value === undefined ? 0 : 1);
    if (value !== undefined) scn.set(value);
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return registry.metrics();
  });
}
