import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

/**
 * The package aliases of TV2 operations (TV2_PACKAGE_ALIASES, e.g. APIPACK and GCAPIPACK): each
 * operation is one route, at `/TV2/Execute/<first alias>.<Name>`, and a request to another alias
 * is routed to it as if it named the first (Fastify's `rewriteUrl`, before routing). So the
 * aliases answer identically, with the same compiled schemas, hooks and metrics, and a start
 * registers one route per operation rather than one per alias (docs/architecture.md, "Start-up and
 * memory"). What the client sent stays what answers and logs show: a problem's `instance` and the
 * request log name the path as requested (`request.originalUrl`).
 */
export function packageAliasRewrite(
  aliases: readonly string[],
): ((req: IncomingMessage) => string) | undefined {
  const [documented, ...others] = aliases;
  const prefixes = others.filter((alias) => alias !== documented).map((alias) => `/TV2/Execute/${alias}.`);
  if (documented === undefined || prefixes.length === 0) return undefined;
  const target = `/TV2/Execute/${documented}.`;
  return (req) => {
    const url = req.url ?? '/';
    if (url.startsWith('/TV2/Execute/')) {
      for (const prefix of prefixes) {
        if (url.startsWith(prefix)) return target + url.slice(prefix.length);
      }
    }
    return url;
  };
}

/**
 * Fastify's own request log fields, with the path as the client sent it rather than as routed.
 */
export function requestLogValue(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.originalUrl,
    version: request.headers?.['accept-version'] as string | undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket ? request.socket.remotePort : undefined,
  };
}
