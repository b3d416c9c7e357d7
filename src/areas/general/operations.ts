import { Type } from 'typebox';
import { DomainError } from '../../kernel/errors.ts';
import { operation } from '../../kernel/operation.ts';
import { queryObject } from '../../kernel/params.ts';
import { VERSION } from '../../version.ts';

export const APIPing = operation({
  name: 'APIPing',
  method: 'GET',
  audience: 'PUBLIC',
  area: 'General',
  summary: 'API ping',
  description:
    'Liveness without a token: version and server time. When a bearer token is sent, TOKENVALID says ' +
    'whether it is valid (null when none was sent); an invalid token does not make the ping fail.',
  query: queryObject({}),
  response: Type.Object({
    APIPING: Type.Object({
      STATUS: Type.Literal('OK'),
      VERSION: Type.String({ description: 'The tv2 release.' }),
      APIVERSION: Type.String({ description: 'The TV2 interface version served under /TV2.' }),
      SERVERTIME: Type.String({ description: 'ISO 8601 UTC.' }),
      TOKENVALID: Type.Union([Type.Boolean(), Type.Null()]),
    }),
  }),
  async handler({ request, services }) {
    const header = request.headers.authorization;
    let tokenValid: boolean | null = null;
    if (header !== undefined) {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      tokenValid = false;
      if (match?.[1]) {
        try {
          await services.general.auth.authenticate(match[1]);
          tokenValid = true;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
        }
      }
    }
    return {
      APIPING: {
        STATUS: 'OK',
        VERSION,
        APIVERSION: '2.0',
        SERVERTIME: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        TOKENVALID: tokenValid,
      },
    };
  },
});
