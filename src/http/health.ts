import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { migrationState } from '../kernel/db/database.ts';
import type { Migrations } from '../kernel/db/migrations.ts';
import type { Services } from '../kernel/services.ts';
import { HTTP_ERRORS } from './errors.ts';
import { databaseProblem, problemOf, sendProblem } from './problem.ts';

/** Apps that received a shutdown signal: not ready any more, finishing what they have. */
const draining = new WeakSet<FastifyInstance>();

/** From now on /health/ready answers 503 SHUTTING_DOWN (a load balancer stops sending requests). */
export function markDraining(app: FastifyInstance): void {
  draining.add(app);
}

const Live = Type.Object({ status: Type.Literal('live') });
const Ready = Type.Object({
  status: Type.Literal('ready'),
  engine: Type.String(),
  migrations: Type.Integer({ description: 'Migrations applied (all this version knows).' }),
});

/**
 * Probes for orchestrators and load balancers, without authentication and outside the TV2 API:
 * `/health/live` says the process answers HTTP (restart it when not); `/health/ready` says it can
 * serve: the database answers, every migration this version knows is applied, and no shutdown has
 * begun (take it out of rotation when not). Neither is logged at info level, so probes do not
 * flood the log.
 */
export function registerHealthRoutes(app: FastifyInstance, services: Services, migrations: Migrations): void {
  const common = { logLevel: 'warn' as const, schema: { hide: true } };
  app.get(
    '/health/live',
    { ...common, schema: { hide: true, response: { 200: Live } } },
    async (_r, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'live' as const };
    },
  );

  app.get(
    '/health/ready',
    { ...common, schema: { hide: true, response: { 200: Ready } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (draining.has(app)) {
        return sendProblem(
          reply,
          problemOf(request, HTTP_ERRORS.SHUTTING_DOWN, 'This process is shutting down.'),
        );
      }
      let state: { applied: number; pending: string[] };
      try {
        state = await migrationState(services.database, migrations);
      } catch (error) {
        request.log.warn({ err: error }, 'readiness: the database check failed');
        const unavailable = databaseProblem(error, request);
        if (unavailable) reply.header('retry-after', String(unavailable.retryAfter));
        return sendProblem(
          reply,
          unavailable?.problem ??
            problemOf(request, HTTP_ERRORS.NOT_READY, 'The database check failed; the cause is logged.'),
        );
      }
      if (state.pending.length > 0) {
        return sendProblem(
          reply,
          problemOf(
            request,
            HTTP_ERRORS.MIGRATIONS_PENDING,
            `The database lacks migrations this version needs: ${state.pending.join(', ')}. Run \`tv2 migrate\` or restart a tv2 process (it migrates at start-up).`,
          ),
        );
      }
      return { status: 'ready' as const, engine: services.database.engine, migrations: state.applied };
    },
  );
}
