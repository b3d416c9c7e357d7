import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type HTTPMethods,
} from 'fastify';
import { Type } from 'typebox';
import type { Principal } from '../kernel/access/principal.ts';
import type { AdminRoute } from '../kernel/admin-route.ts';
import { type Area, migrationsOf } from '../kernel/area.ts';
import { NotImplementedError } from '../kernel/errors.ts';
import { IMAGE_TYPES, MAX_IMAGE_BYTES } from '../kernel/image-bytes.ts';
import { Binary, JsonText, type Operation } from '../kernel/operation.ts';
import type { Services } from '../kernel/services.ts';
import { registerAdminRoutes } from './admin-routes.ts';
import { principalFor } from './auth.ts';
import { digitsMaxKeyword } from './digits-keyword.ts';
import { errorCodesOf, HTTP_ERRORS } from './errors.ts';
import { registerHealthRoutes } from './health.ts';
import { registerMetrics } from './metrics.ts';
import { errorResponses, registerOpenApi, registerReferencePage } from './openapi.ts';
import { packageAliasRewrite, requestLogValue } from './package-aliases.ts';
import {
  clientErrorHandler,
  commonHeaders,
  frameworkErrorHandler,
  problemFromError,
  problemOf,
  problemSchema,
  sendProblem,
} from './problem.ts';
import { guardJsonBodies, refuseNulBytes, requestIdOf } from './request-guards.ts';
import { sharedSchemaCompilers } from './schema-compilers.ts';
import { serverOptions } from './server-options.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Set when this request claimed an Idempotency-Key and its answer is to be kept. */
    idempotencyKey: string | null;
    /** The id of that claim: only its own request keeps an answer under it. */
    idempotencyClaim: string | null;
  }
}

const ALL_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export interface AppOptions {
  /** The business areas served (src/areas.ts): their operations, admin routes and own routes. */
  areas: readonly Area[];
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(services: Services, options: AppOptions): Promise<FastifyInstance> {
  const { config } = services;
  // Each schema compiled once for all the routes that share it, when a request first needs it.
  const compilers = sharedSchemaCompilers();
  const aliasRewrite = packageAliasRewrite(config.packageAliases);
  const app = Fastify({
    logger: withRequestLogValue(options.logger ?? false),
    // One route per operation; the other package aliases are routed to it (package-aliases.ts).
    ...(aliasRewrite ? { rewriteUrl: aliasRewrite } : {}),
    // Trusted proxies, request timeout, shutdown behaviour (server-options.ts).
    ...serverOptions(config),
    bodyLimit: config.bodyLimitBytes,
    // A client's X-Request-Id only when it is short and plain (request-guards.ts), else a UUID.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Failures before any route or outside Fastify are problem+json as well (problem.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    schemaController: compilers.schemaController,
    ajv: {
      // Unknown query parameters and body fields are errors, not silently dropped; values keep
      // their wire types (a TV2 query value is always a string). All errors are collected; the
      // problem lists the first 20 (problem.ts).
      customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true, useDefaults: true },
      plugins: [digitsMaxKeyword],
    },
    // problem.ts names the errors; Fastify's own text of all of them is never shown, so not made.
    schemaErrorFormatter: (errors, dataVar) => new Error(`${dataVar} is invalid (${errors.length} errors)`),
  });
  compilers.attach(app);
  app.decorateRequest('principal', null);
  app.decorateRequest('idempotencyKey', null);
  app.decorateRequest('idempotencyClaim', null);
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(
    IMAGE_TYPES,
    { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES },
    (_request, body, done) => done(null, body),
  );
  const codes = errorCodesOf(options.areas);
  app.addSchema(problemSchema(codes));
  registerMetrics(app, services, options.areas);
  registerHealthRoutes(app, services, migrationsOf(options.areas));

  app.addHook('onRequest', (request, reply, done) => {
    commonHeaders(request, reply);
    done();
  });
  guardJsonBodies(app);
  refuseNulBytes(app);

  app.setErrorHandler((error, request, reply) => {
    const { problem, retryAfter } = problemFromError(error, request);
    if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    if (problem.status === 401 && !reply.hasHeader('www-authenticate')) {
      reply.header('www-authenticate', 'Bearer realm="TV2"');
    }
    return sendProblem(reply, problem);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.originalUrl.split('?')[0];
    const unknownOperation = request.url.startsWith('/TV2/Execute/');
    return sendProblem(
      reply,
      problemOf(
        request,
        unknownOperation ? HTTP_ERRORS.UNKNOWN_OPERATION : HTTP_ERRORS.NOT_FOUND,
        unknownOperation
          ? `No operation at ${path}; operations are /TV2/Execute/${config.packageAliases[0]}.<Name>.`
          : `Nothing at ${path}.`,
      ),
    );
  });

  registerOpenApi(app, codes);
  // Each area is a plugin of its own: hooks and decorators it adds stay inside it.
  for (const area of options.areas) {
    await app.register(async (scope) => {
      for (const op of area.operations) registerOperation(scope, services, op);
      registerAdminRoutes(scope, services, area.adminRoutes ?? []);
      await area.routes?.(scope, services);
    });
  }
  registerAdminMethodNotAllowed(
    app,
    options.areas.flatMap((a) => a.adminRoutes ?? []),
  );
  await registerReferencePage(app);
  return app;
}

/**
 * A back-office path asked with a method it does not take: 405 with `Allow`, as for the operations,
 * not the 404 of a path that does not exist (one hidden route per path, for every other method).
 */
function registerAdminMethodNotAllowed(app: FastifyInstance, routes: readonly AdminRoute[]): void {
  const byUrl = new Map<string, Set<string>>();
  for (const r of routes) byUrl.set(r.url, (byUrl.get(r.url) ?? new Set()).add(r.method));
  for (const [url, methods] of byUrl) {
    const taken = new Set(methods);
    if (taken.has('GET')) taken.add('HEAD');
    const allowed = [...taken].join(', ');
    app.route({
      method: ALL_METHODS.filter((m) => !taken.has(m)),
      url,
      schema: { hide: true },
      handler: async (request, reply) => {
        reply.header('allow', allowed);
        return sendProblem(
          reply,
          problemOf(
            request,
            HTTP_ERRORS.METHOD_NOT_ALLOWED,
            `${url} takes ${allowed}, not ${request.method}.`,
          ),
        );
      },
    });
  }
}

const IdempotencyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Makes the POST safe to retry: a repeat with the same key and body within 24 h answers the first result again (header Idempotent-Replayed: true) instead of acting twice.',
    }),
  ),
});

/** Idempotency-Key handling for a POST operation: claim before the handler, keep the answer after it. */
function idempotencyHooks(services: Services, op: Operation) {
  return {
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      const key = request.headers['idempotency-key'];
      if (typeof key !== 'string' || !request.principal) return;
      const claim = await services.general.idempotency.claim(
        request.principal.userId,
        key,
        services.general.idempotency.requestHash(op.name, request.body),
      );
      if (claim.kind === 'replay') {
        return reply
          .code(claim.status)
          .type(claim.type)
          .header('idempotent-replayed', 'true')
          .send(claim.body);
      }
      request.idempotencyKey = key;
      request.idempotencyClaim = claim.claimId;
    },
    onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (request.idempotencyKey && request.principal) {
        const key = request.idempotencyKey;
        request.idempotencyKey = null;
        await services.general.idempotency.finish(
          request.principal.userId,
          key,
          request.idempotencyClaim ?? '',
          reply.statusCode,
          String(reply.getHeader('content-type') ?? 'application/json'),
          typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '',
        );
      }
      return payload;
    },
  };
}

function registerOperation(app: FastifyInstance, services: Services, op: Operation): void {
  const built = op.handler !== undefined;
  const errors = op.audience === 'PUBLIC' ? [400, 500] : [400, 401, 403, 404, 409, 500, 503];
  const okResponse = op.binaryTypes
    ? {
        200: {
          description: 'The bytes.',
          content: Object.fromEntries(
            op.binaryTypes.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]),
          ),
        },
      }
    : op.response
      ? { 200: op.response }
      : {};
  const schema = {
    operationId: op.name,
    summary: built ? op.summary : `${op.summary} (not built yet: 501)`,
    description: built
      ? op.description
      : 'Part of the TV2 interface; its area is not built yet, so it answers 501.',
    tags: [op.area],
    security: op.audience === 'PUBLIC' ? [] : [{ bearer: [] }],
    ...(built && op.query ? { querystring: op.query } : {}),
    ...(built && op.body ? { body: op.body } : {}),
    ...(built && op.method === 'POST' ? { headers: IdempotencyHeader } : {}),
    response: built ? { ...okResponse, ...errorResponses(errors) } : errorResponses([401, 403, 501]),
    'x-tv2-audience': op.audience,
    'x-tv2-status': built ? 'built' : 'planned',
  };

  const onRequest =
    op.audience === 'PUBLIC'
      ? undefined
      : async (request: FastifyRequest) => {
          request.principal = await principalFor(request, op.audience, services);
        };

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    if (!op.handler) throw new NotImplementedError(op.name);
    const result = await op.handler({
      query: request.query,
      body: request.body,
      principal: request.principal,
      services,
      request,
      reply,
    });
    if (result instanceof JsonText) return reply.type('application/json; charset=utf-8').send(result.text);
    if (result instanceof Binary) {
      if (result.etag) {
        reply.header('etag', result.etag);
        if (request.headers['if-none-match'] === result.etag) return reply.code(304).send();
      }
      return reply
        .type(result.contentType)
        .header('cache-control', 'private, max-age=0, must-revalidate')
        .send(result.data);
    }
    return result;
  };

  const retrySafe =
    built && op.method === 'POST' && op.audience !== 'PUBLIC' ? idempotencyHooks(services, op) : {};

  // The other package aliases reach this route too (package-aliases.ts).
  const url = `/TV2/Execute/${services.config.packageAliases[0]}.${op.name}`;
  app.route({
    method: op.method,
    url,
    schema,
    ...(onRequest ? { onRequest } : {}),
    ...(op.bodyLimit ? { bodyLimit: op.bodyLimit } : {}),
    ...retrySafe,
    handler,
  });
  const allowed = op.method === 'GET' ? 'GET, HEAD' : op.method;
  app.route({
    method: ALL_METHODS.filter((m) => m !== op.method && !(op.method === 'GET' && m === 'HEAD')),
    url,
    schema: { hide: true },
    handler: async (request, reply) => {
      reply.header('allow', allowed);
      return sendProblem(
        reply,
        problemOf(
          request,
          HTTP_ERRORS.METHOD_NOT_ALLOWED,
          `${op.name} takes ${op.method}, not ${request.method}.`,
        ),
      );
    },
  });
}

/** Fastify's logger settings, logging the path a request was sent to (package-aliases.ts). */
function withRequestLogValue(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === false || logger === undefined) return logger;
  const settings = logger === true ? {} : logger;
  return { ...settings, serializers: { req: requestLogValue, ...settings.serializers } };
}
