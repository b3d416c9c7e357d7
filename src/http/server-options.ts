import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/**
 * The HTTP server settings that operations cares about: the trusted proxies (so `request.ip`, the
 * logs and the login limit see the real client), the time a request may take to arrive, and what
 * happens to requests during a graceful shutdown.
 */
export function serverOptions(config: Config): FastifyServerOptions {
  const requestTimeoutMs = config.requestTimeoutSeconds * 1000;
  return {
    trustProxy: config.trustProxy,
    // The whole request, headers and body, must arrive within this time: a client that trickles
    // its body gets 408 and its connection closed instead of holding a socket (and, during a
    // shutdown, the process) open. Node checks this every connectionsCheckingInterval (30 s by
    // default, far too coarse for a 30 s limit); headersTimeout may not exceed the request timeout.
    requestTimeout: requestTimeoutMs,
    ...(requestTimeoutMs > 0
      ? {
          http: {
            requestTimeout: requestTimeoutMs,
            headersTimeout: requestTimeoutMs,
            connectionsCheckingInterval: Math.min(1000, requestTimeoutMs),
          },
        }
      : {}),
    // While shutting down, a request already received on an open connection is answered normally
    // (with Connection: close) instead of Fastify's own non-problem+json 503: new connections are
    // refused anyway, and the shutdown deadline bounds the wait.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  };
}
