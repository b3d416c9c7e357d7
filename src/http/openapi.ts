import swagger from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { VERSION } from '../version.ts';

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

/** Problem responses for the OpenAPI document; the bodies themselves are made in src/http/problem.ts. */
export function errorResponses(statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/problem+json': { schema: Type.Ref('Problem') } },
      },
    ]),
  );
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'tv2: the TV2 trade interface',
        version: VERSION,
        description:
          'Wholesale (B2B_) and retail (B2C_) operations of a self-hostable trade back end. Get a token ' +
          'from /TV2/GetToken with HTTP Basic credentials, then send it as a bearer token. Every error is ' +
          'RFC 9457 problem+json with a stable `code`.',
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
  });
}

export async function registerReferencePage(app: FastifyInstance): Promise<void> {
  app.get('/TV2/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(scalar, {
    routePrefix: '/TV2/docs',
    logLevel: 'warn',
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
}
