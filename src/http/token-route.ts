import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { RateLimitedError, UnauthenticatedError } from '../domain/errors.ts';
import type { Services } from '../services.ts';
import { basicCredentials } from './auth.ts';
import { LoginThrottle } from './login-throttle.ts';
import { errorResponses } from './openapi.ts';

export const GetTokenResponse = Type.Object({
  GETTOKEN: Type.Object({
    TOKEN: Type.String({ description: 'Opaque bearer token.' }),
    TOKEN_TYPE: Type.Literal('Bearer'),
    EXPIRES_IN: Type.Integer({ description: 'Seconds the token is valid.' }),
    EXPIRES: Type.String({ description: 'Expiry instant, ISO 8601 UTC.' }),
  }),
});

export function registerTokenRoute(app: FastifyInstance, services: Services): void {
  const throttle = new LoginThrottle(services.config.loginMaxFailures, services.config.loginWindowSeconds);
  app.get(
    '/TV2/GetToken',
    {
      schema: {
        operationId: 'GetToken',
        summary: 'Get token',
        description:
          'Exchanges HTTP Basic credentials of an API user for a bearer token. Failed attempts are ' +
          'limited per client address: past the limit the answer is 429 with Retry-After.',
        tags: ['General'],
        security: [{ basic: [] }],
        querystring: Type.Object({}, { additionalProperties: false }),
        response: { 200: GetTokenResponse, ...errorResponses([400, 401, 429]) },
      },
    },
    async (request, reply) => {
      const wait = throttle.retryAfter(request.ip);
      if (wait > 0) {
        throw new RateLimitedError(
          'TOO_MANY_FAILED_LOGINS',
          `Too many failed attempts; try again in ${wait} s.`,
          wait,
        );
      }
      const credentials = basicCredentials(request.headers.authorization);
      if (!credentials) {
        reply.header('www-authenticate', 'Basic realm="TV2"');
        throw new UnauthenticatedError(
          'CREDENTIALS_MISSING',
          'Send the API user and secret as HTTP Basic credentials.',
        );
      }
      try {
        const issued = await services.auth.issueToken(credentials.name, credentials.secret);
        throttle.succeed(request.ip);
        reply.header('cache-control', 'no-store');
        return {
          GETTOKEN: {
            TOKEN: issued.token,
            TOKEN_TYPE: 'Bearer' as const,
            EXPIRES_IN: issued.expiresIn,
            EXPIRES: issued.expires.toISOString().replace(/\.\d{3}Z$/, 'Z'),
          },
        };
      } catch (error) {
        if (error instanceof UnauthenticatedError) {
          throttle.fail(request.ip);
          reply.header('www-authenticate', 'Basic realm="TV2"');
        }
        throw error;
      }
    },
  );
}
