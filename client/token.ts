/**
 * The bearer token of a tv2 client: fetched from GET /TV2/GetToken with HTTP Basic, kept until
 * shortly before the EXPIRES the server gave, and renewed once when the server refuses it anyway
 * (401: expired early, revoked, or the server forgot it). Concurrent callers share one renewal, so
 * a burst of calls after expiry costs one GetToken, not one per call.
 */
import type { paths } from './schema.d.ts';

type GetTokenAnswer = paths['/TV2/GetToken']['get']['responses'][200]['content']['application/json'];

export interface TokenSource {
  /** A token that is not known to have expired (fetching one if there is none). */
  current(): Promise<string>;
  /** A new token, unless one other than `refused` is already held (another call renewed it). */
  renew(refused: string): Promise<string>;
}

export interface TokenOptions {
  baseUrl: string;
  user: string;
  secret: string;
  fetch: (request: Request) => Promise<Response>;
  /** The client's clock (tests); Date.now by default. */
  now?: () => number;
}

/** Renew this long before EXPIRES (or a tenth of the lifetime if shorter), so a call never races it. */
const EARLY_MS = 30_000;

export class TokenError extends Error {
  readonly status: number;
  readonly problem: unknown;
  constructor(message: string, status: number, problem: unknown) {
    super(message);
    this.name = 'TokenError';
    this.status = status;
    this.problem = problem;
  }
}

export function tokenSource(options: TokenOptions): TokenSource {
  const now = options.now ?? Date.now;
  let held: { token: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const fetchToken = async (): Promise<string> => {
    // UTF-8 then base64 (RFC 7617), with what browsers have as well as Node: no Buffer.
    const basic = btoa(String.fromCharCode(...new TextEncoder().encode(`${options.user}:${options.secret}`)));
    const response = await options.fetch(
      new Request(`${options.baseUrl}/TV2/GetToken`, { headers: { authorization: `Basic ${basic}` } }),
    );
    const body = (await response.json().catch(() => undefined)) as GetTokenAnswer | undefined;
    if (!response.ok || !body) {
      throw new TokenError(`GetToken answered ${response.status}`, response.status, body);
    }
    const { TOKEN, EXPIRES_IN } = body.GETTOKEN;
    const lifetimeMs = EXPIRES_IN * 1000;
    held = { token: TOKEN, renewAt: now() + lifetimeMs - Math.min(EARLY_MS, lifetimeMs / 10) };
    return TOKEN;
  };

  // One GetToken at a time: everyone waiting for a token waits for the same one.
  const renewOnce = (): Promise<string> => {
    pending ??= fetchToken().finally(() => {
      pending = undefined;
    });
    return pending;
  };

  return {
    current: () => (held && now() < held.renewAt ? Promise.resolve(held.token) : renewOnce()),
    renew: (refused) => (held && held.token !== refused ? Promise.resolve(held.token) : renewOnce()),
  };
}
