import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import type { ErrorCode } from '../kernel/errors.ts';
import { VERSION } from '../version.ts';
import { hoistTitledSchemas, nameRoots, rawBodies } from './openapi-components.ts';
import { API_DESCRIPTION } from './openapi-description.ts';
import { applyExamples } from './openapi-examples.ts';
import { declareStatuses } from './openapi-responses.ts';
import { inertSchemaController } from './schema-compilers.ts';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid parameters or body; `errors` names each bad parameter or field.',
  401: 'No token, or an unknown, expired or revoked one.',
  403: 'The token lacks the role for this operation, or the object is outside its party.',
  404: 'No such object.',
  405: 'Wrong method for this operation.',
  409: 'A business rule refused the change.',
  413: 'The body is too large.',
  415: 'The body is not JSON.',
  429: 'Too many requests; see Retry-After.',
  500: 'A fault of the server; quote the requestId.',
  501: 'The operation is part of the interface but not built yet.',
  503: 'The database is unavailable (`DATABASE_UNAVAILABLE`); retry after `Retry-After` seconds.',
};

interface ErrorResponse {
  description: string;
  content: { 'application/problem+json': { schema: object } };
}

/** One object per status, shared by every route: its schema is one schema for the compilers. */
const ERROR_RESPONSES = new Map<number, ErrorResponse>();
const PROBLEM_REF = Type.Ref('Problem');

/**
 * Problem responses for the OpenAPI document; the bodies themselves are made in src/http/problem.ts
 * and sent as JSON text, so these schemas are never compiled into serializers (schema-compilers.ts).
 */
export function errorResponses(statuses: number[]): Record<string, ErrorResponse> {
  return Object.fromEntries(
    statuses.map((status) => {
      let response = ERROR_RESPONSES.get(status);
      if (!response) {
        response = {
          description: ERROR_DESCRIPTIONS[status] ?? 'Error',
          content: { 'application/problem+json': { schema: PROBLEM_REF } },
        };
        ERROR_RESPONSES.set(status, response);
      }
      return [status, response];
    }),
  );
}

const SWAGGER_OPTIONS: SwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'tv2: the TV2 trade interface',
      version: VERSION,
      description: API_DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This server' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A token from /TV2/GetToken.' },
        basic: {
          type: 'http',
          scheme: 'basic',
          description: 'API user and secret, for /TV2/GetToken only.',
        },
      },
    },
    tags: [
      { name: 'General', description: 'Token and ping.' },
      { name: 'Articles', description: 'Articles, images and size tables.' },
      { name: 'Prices', description: 'Price lists, agreements, action prices.' },
      { name: 'Stock', description: 'Stock per location and size.' },
      { name: 'Customers', description: 'Wholesale customers and representatives.' },
      { name: 'Clients', description: 'Retail clients and their data.' },
      { name: 'Shops', description: 'Shops, pickup locations and app content.' },
      { name: 'Orders', description: 'Orders and their states.' },
      { name: 'Invoices', description: 'Invoices and open items.' },
      { name: 'Vouchers', description: 'Credit notes, gift vouchers and cheques.' },
      { name: 'Loyalty', description: 'Bonus cards.' },
      { name: 'Admin', description: 'Back office (ADMIN role): create and change master data and stock.' },
    ],
  },
  refResolver: {
    buildLocalReference: (json, _baseUri, _fragment, i) =>
      typeof json.$id === 'string' ? json.$id : `def-${i}`,
  },
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The OpenAPI 3.1 document of the routes registered after `registerOpenApi`; made on first call. */
    openApiDocument(): Promise<OpenApiDocument>;
  }
}

type OpenApiDocument = ReturnType<FastifyInstance['swagger']>;

/**
 * Collects the routes registered from now on, for the OpenAPI document: the document is made on
 * its first request (GET /TV2/openapi.json, `tv2 openapi`), not at start. It is made by
 * @fastify/swagger in an app of its own that holds the same routes, with the same schemas, and
 * handlers and compilers that do nothing: @fastify/swagger (with its YAML and schema resolver
 * modules) is loaded then, and nothing of it stays in a serving process that is never asked for
 * its document (docs/architecture.md, "Start-up and memory").
 */
export function registerOpenApi(app: FastifyInstance, codes: readonly ErrorCode[]): void {
  const routes: RouteOptions[] = [];
  // HEAD routes are Fastify's own copies of GET routes, which the document app makes again.
  app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD') routes.push(route);
  });
  let document: Promise<OpenApiDocument> | undefined;
  app.decorate('openApiDocument', () => {
    document ??= documentOf(app, routes, codes).catch((error: unknown) => {
      document = undefined;
      throw error;
    });
    return document;
  });
}

async function documentOf(
  app: FastifyInstance,
  routes: RouteOptions[],
  codes: readonly ErrorCode[],
): Promise<OpenApiDocument> {
  const [{ default: Fastify }, { default: swagger }] = await Promise.all([
    import('fastify'),
    import('@fastify/swagger'),
  ]);
  // Nothing is validated or serialized here: the schemas are only read for the document.
  const documented = Fastify({ logger: false, schemaController: inertSchemaController() });
  try {
    await documented.register(swagger, SWAGGER_OPTIONS);
    for (const schema of Object.values(app.getSchemas())) documented.addSchema(schema);
    for (const route of routes) {
      documented.route({
        method: route.method,
        url: route.url,
        ...(route.schema ? { schema: route.schema } : {}),
        handler: async () => undefined,
      });
    }
    await documented.ready();
    // A copy: @fastify/swagger's document may share objects with the routes' own schemas.
    const document = JSON.parse(JSON.stringify(documented.swagger()));
    // Named answers and bodies, binary uploads, then every entity as a component schema
    // (openapi-components.ts); every status and header (openapi-responses.ts); examples last.
    nameRoots(document);
    rawBodies(document);
    hoistTitledSchemas(document);
    declareStatuses(document, codes);
    return applyExamples(document);
  } finally {
    await documented.close();
  }
}

const REFERENCE_PREFIX = '/TV2/docs';

/**
 * The OpenAPI document, and the interactive reference page (Scalar) at /TV2/docs. The page's
 * plugin is a 5 MB module that holds its browser bundle as one string (about 40 MiB of memory
 * once loaded): it is loaded on the page's first request, into a small app of its own that
 * answers the page's three paths, not at start (docs/architecture.md, "Start-up and memory").
 */
export async function registerReferencePage(app: FastifyInstance): Promise<void> {
  app.get('/TV2/openapi.json', { schema: { hide: true } }, async () => app.openApiDocument());
  let reference: Promise<FastifyInstance> | undefined;
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    reference ??= referenceApp().catch((error: unknown) => {
      reference = undefined;
      throw error;
    });
    const answer = await (await reference).inject({ method: 'GET', url: request.url });
    reply.code(answer.statusCode);
    for (const name of ['content-type', 'location']) {
      const value = answer.headers[name];
      if (value !== undefined) reply.header(name, value);
    }
    return reply.send(answer.rawPayload);
  };
  // The paths the plugin serves when given the document's URL: the page (and its address without
  // the slash, which redirects to it) and its script.
  for (const url of [REFERENCE_PREFIX, `${REFERENCE_PREFIX}/`, `${REFERENCE_PREFIX}/js/scalar.js`]) {
    app.get(url, { schema: { hide: true }, logLevel: 'warn' }, page);
  }
}

async function referenceApp(): Promise<FastifyInstance> {
  const [{ default: Fastify }, { default: scalar }] = await Promise.all([
    import('fastify'),
    import('@scalar/fastify-api-reference'),
  ]);
  const reference = Fastify({ logger: false });
  await reference.register(scalar, {
    routePrefix: REFERENCE_PREFIX,
    configuration: {
      url: '/TV2/openapi.json',
      title: 'tv2 API reference',
      // Self-hosted and offline: no web fonts, no hosted AI agent, no vendor toolbar.
      withDefaultFonts: false,
      agent: { disabled: true },
      showDeveloperTools: 'never',
      authentication: { preferredSecurityScheme: 'bearer' },
    },
  });
  await reference.ready();
  return reference;
}
