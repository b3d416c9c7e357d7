import type { FastifyInstance } from 'fastify';
import type { AdminRoute } from '../kernel/admin-route.ts';
import type { Services } from '../kernel/services.ts';
import { principalFor } from './auth.ts';
import { errorResponses } from './openapi.ts';
import { adminOperationId } from './openapi-admin-ids.ts';

/** Serves back-office routes: ADMIN role, problem answers, 204 for routes without an answer. */
export function registerAdminRoutes(app: FastifyInstance, services: Services, routes: AdminRoute[]): void {
  for (const route of routes) {
    const ok = route.response ? { 200: route.response } : { 204: { description: 'Done.', type: 'null' } };
    app.route({
      method: route.method,
      url: route.url,
      schema: {
        operationId: adminOperationId(route.method, route.url, route.rawBodyTypes !== undefined),
        summary: route.summary,
        description: route.rawBodyTypes
          ? `${route.description ?? ''} The body is the raw bytes, sent as ${route.rawBodyTypes.join(', ')}.`.trim()
          : route.description,
        tags: ['Admin'],
        security: [{ bearer: [] }],
        ...(route.params ? { params: route.params } : {}),
        ...(route.body ? { body: route.body } : {}),
        // The raw body's media types, for the document only (openapi.ts makes its requestBody):
        // a `body` schema would have Fastify validate the bytes.
        ...(route.rawBodyTypes ? { 'x-tv2-raw-body': route.rawBodyTypes } : {}),
        // The statuses every route shares (413, 415, 405, ...) are added to the document by
        // openapi-responses.ts; these are the ones a back-office route answers itself.
        response: { ...ok, ...errorResponses([400, 401, 403, 404, 409, 500, 503]) },
      },
      onRequest: async (request) => {
        request.principal = await principalFor(request, 'ADMIN', services);
      },
      handler: async (request, reply) => {
        const result = await route.handler({
          params: request.params,
          body: request.body,
          services,
          request,
          reply,
        });
        if (!route.response) return reply.code(204).send();
        return result;
      },
    });
  }
}
