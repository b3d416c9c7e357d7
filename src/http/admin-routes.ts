import type { FastifyInstance } from 'fastify';
import type { AdminRoute } from '../kernel/admin-route.ts';
import type { Services } from '../kernel/services.ts';
import { principalFor } from './auth.ts';
import { errorResponses } from './openapi.ts';

/** Serves back-office routes: ADMIN role, problem answers, 204 for routes without an answer. */
export function registerAdminRoutes(app: FastifyInstance, services: Services, routes: AdminRoute[]): void {
  for (const route of routes) {
    const ok = route.response ? { 200: route.response } : { 204: { description: 'Done.', type: 'null' } };
    app.route({
      method: route.method,
      url: route.url,
      schema: {
        operationId: `Admin_${route.method}_${route.url.replace(/^\/TV2\/Admin\//, '').replace(/[^A-Za-z0-9]+/g, '_')}`,
        summary: route.summary,
        description: route.rawBodyTypes
          ? `${route.description ?? ''} The body is the raw bytes, sent as ${route.rawBodyTypes.join(', ')}.`.trim()
          : route.description,
        tags: ['Admin'],
        security: [{ bearer: [] }],
        ...(route.params ? { params: route.params } : {}),
        ...(route.body ? { body: route.body } : {}),
        response: { ...ok, ...errorResponses([400, 401, 403, 404, 409, 413, 415, 500, 503]) },
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
