import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { basicCredentials } from '../../http/auth.ts';
import { errorResponses } from '../../http/openapi.ts';
import { problemOf, sendProblem } from '../../http/problem.ts';
import { UnauthenticatedError } from '../../kernel/errors.ts';
import type { Services } from '../../kernel/services.ts';
import { GENERAL_ERRORS } from './errors.ts';
import { LoginBusyError } from './login-throttle.ts';

export const GetTokenResponse = Type.Object({
  GETTOKEN: Type.Object({
    TOKEN: Type.String({ description: 'Opaque bearer token.' }),
    TOKEN_TYPE: Type.Literal('Bearer'),
    EXPIRES_IN: Type.Integer({ description: 'Seconds the token is valid.' }),
    EXPIRES: Type.String({ description: 'Expiry instant, ISO 8601 UTC.' }),
  }),
});

export function registerTokenRoute(app: FastifyInstance, services: Services): void {
  const guard = services.general.loginGuard;
  app.get(
    '/TV2/GetToken',
    {
      schema: {
        operationId: 'GetToken',
        summary: 'Get token',
        description:
          'Exchanges HTTP Basic credentials of an API user for a bearer token. Failed attempts are ' +
          'limited per client address and per user name: past either limit the answer is 429 ' +
          'TOO_MANY_FAILED_LOGINS with Retry-After. While too many secrets are being checked the ' +
          'answer is 503 LOGIN_BUSY with Retry-After.',
        tags: ['General'],
        security: [{ basic: [] }],
        querystring: Type.Object({}, { additionalProperties: false }),
        response: {
          200: GetTokenResponse,
          ...errorResponses([400, 401, 403, 429]),
          503: {
            description: 'Too many logins are being checked at the moment; see Retry-After.',
            content: { 'application/problem+json': { schema: Type.Ref('Problem') } },
          },
        },
      },
    },
    async (request, reply) => {
      const credentials = basicCredentials(request.headers.authorization);
      if (!credentials) {
        reply.header('www-authenticate', 'Basic realm="TV2"');
        throw GENERAL_ERRORS.CREDENTIALS_MISSING('Send the API user and secret as HTTP Basic credentials.');
      }
      // A client that goes away while its check waits gives its place up.
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableEnded) gone.abort();
      };
      reply.raw.once('close', onClose);
      try {
        const issued = await guard.attempt(
          request.ip,
          credentials.name,
          () => services.general.auth.issueToken(credentials.name, credentials.secret),
          gone.signal,
        );
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
        if (error instanceof UnauthenticatedError) reply.header('www-authenticate', 'Basic realm="TV2"');
        if (error instanceof LoginBusyError) {
          reply.header('retry-after', String(error.retryAfterSeconds));
          return sendProblem(
            reply,
            problemOf(
              request,
              GENERAL_ERRORS.LOGIN_BUSY,
              `Too many logins are being checked right now; try again in ${error.retryAfterSeconds} s.`,
            ),
          );
        }
        throw error;
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );
}
