import { mkdirSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname } from 'node:path';

export interface Config {
  host: string;
  port: number;
  databaseUrl: string;
  /** Load the demo data set and the demo user when the database is empty. */
  demo: boolean;
  tokenTtlSeconds: number;
  /** Package names accepted in `/TV2/Execute/<PACKAGE>.<Operation>`; the first is the documented one. */
  packageAliases: string[];
  bodyLimitBytes: number;
  logLevel: string;
  /** Failed GetToken attempts per client address within `loginWindowSeconds` before 429. */
  loginMaxFailures: number;
  /** Failed GetToken attempts per user name (from any address) within `loginWindowSeconds` before 429. */
  loginMaxFailuresPerUser: number;
  loginWindowSeconds: number;
  /** Secret checks (scrypt) run at once per process; more wait in a queue of `loginQueue`. */
  loginConcurrentChecks: number;
  loginQueue: number;
  /** Secret checks one client address may have running or waiting at once per process. */
  loginChecksPerAddress: number;
  /** How long a GetToken waits for a free check before 503 LOGIN_BUSY. */
  loginQueueWaitMs: number;
  /** How long a verified token is trusted from the in-process cache before the database is asked again. */
  tokenCacheSeconds: number;
  /** How long a pending Idempotency-Key claim is held for its request before a retry may take it over. */
  idempotencyLeaseSeconds: number;
  /** PostgreSQL connections per process. */
  dbPoolSize: number;
  /** PostgreSQL: how long to wait for a connection (opening one, or a free one from the pool); 0 = no limit. */
  dbConnectTimeoutMs: number;
  /** PostgreSQL: longest statement (server side); the client stops waiting a second later. 0 = no limit. */
  dbStatementTimeoutMs: number;
  /** PostgreSQL: a session idle inside a transaction this long is ended by the server. 0 = no limit. */
  dbIdleInTransactionTimeoutMs: number;
  /** SQLite: how long a write waits for another process's write lock before 503. */
  sqliteBusyTimeoutMs: number;
  /** SQLite: MiB of the database file read through memory-mapped I/O (0: none). */
  sqliteMmapMb: number;
  /** SQLite: WAL checkpoints on a worker thread instead of inside a request's commit. */
  sqliteBackgroundCheckpoints: boolean;
  /** SQLite: write transactions that wait share one COMMIT, each in a savepoint (group-commit.ts). */
  sqliteGroupCommit: boolean;
  /** SQLite: hot reads (B2B_GetArticlePrice) on a worker thread with a connection of its own (sqlite-reader.ts). */
  sqliteReader: boolean;
  /** SQLite: MiB of the database file the reader thread's connection reads through memory-mapped I/O (0: none). */
  sqliteReaderMmapMb: number;
  /**
   * `tv2 serve`: MiB of each of V8's young-generation semi-spaces (0: V8's own sizing). bin/tv2.js
   * applies it before anything of tv2 is loaded (decision 51); it is read here so that a value that
   * is not a whole number is refused at start like every other setting.
   */
  semiSpaceMb: number;
  /** The whole request (headers and body) must arrive within this time, or 408 and the connection closes. */
  requestTimeoutSeconds: number;
  /** After SIGTERM/SIGINT, requests already received may finish within this time; then the process exits anyway. */
  shutdownTimeoutSeconds: number;
  /** Fastify `trustProxy`: false, true (every peer) or the addresses/CIDRs of the proxies whose X-Forwarded-For is believed. */
  trustProxy: boolean | string[];
  /** Bearer token that /metrics requires; /metrics is off (404) when unset. */
  metricsToken: string | undefined;
  /** Orders: the stock location orders reserve at and deliver from (docs/orders.md, "Settings"). */
  orderLocation: string;
  /** Orders: a wholesale order may reserve less than it orders and keep the rest as a back-order. */
  orderBackorders: boolean;
  /** Orders: the price group whose SELLING prices (or a running action price) a web order pays. */
  retailPriceGroup: number;
  /** Tenders: days a new voucher is valid when its issue states no end (at least two years; docs/tenders.md). */
  voucherValidityDays: number;
  /** Tenders: refused voucher codes per API user within `voucherCheckWindowSeconds` before 429. */
  voucherCheckMaxFailures: number;
  voucherCheckWindowSeconds: number;
  /**
   * Tenders: what a delivered web order earns on its bonus card, in basis points of what was paid
   * for the kept pieces outside tenders (TV2_BONUS_EARN_PERCENT, default 1 %; 0: nothing is earned).
   */
  bonusEarnBp: number;
  /** Billing: the trader on every invoice and credit note (TV2_SELLER_*; docs/billing-issuing.md, "Settings"). */
  seller: SellerSettings;
  /** Billing: days from an invoice's date to its due date, for a customer without its own payment days. */
  invoicePaymentDays: number;
}

/** The seller's identity as invoices print it (demo defaults pass the VAT, enterprise number and IBAN checks). */
export interface SellerSettings {
  name: string;
  street: string;
  postalCode: string;
  city: string;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  /** With its country prefix, e.g. BE0123456749 (a Belgian one gives the enterprise number, scheme 0208). */
  vatNumber: string;
  /** No spaces. */
  iban: string;
  bic: string;
  email: string;
}

/** A setting with a value tv2 cannot use; its message names the setting. */
export class ConfigError extends Error {}

export const DEFAULT_SQLITE_URL = 'sqlite:./data/tv2.db';

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  return Number(raw);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  return {
    host: env.HOST ?? '127.0.0.1',
    port: intFrom(env, 'PORT', 8080),
    databaseUrl: env.DATABASE_URL ?? DEFAULT_SQLITE_URL,
    demo: env.TV2_DEMO !== '0',
    tokenTtlSeconds: intFrom(env, 'TV2_TOKEN_TTL_SECONDS', 3600),
    packageAliases: (env.TV2_PACKAGE_ALIASES ?? 'APIPACK,GCAPIPACK')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    bodyLimitBytes: intFrom(env, 'TV2_BODY_LIMIT_BYTES', 1024 * 1024),
    logLevel: env.LOG_LEVEL ?? 'info',
    loginMaxFailures: intFrom(env, 'TV2_LOGIN_MAX_FAILURES', 10),
    loginMaxFailuresPerUser: intFrom(env, 'TV2_LOGIN_MAX_FAILURES_PER_USER', 10),
    loginWindowSeconds: intFrom(env, 'TV2_LOGIN_WINDOW_SECONDS', 300),
    loginConcurrentChecks: Math.max(1, intFrom(env, 'TV2_LOGIN_CONCURRENT_CHECKS', 2)),
    loginQueue: intFrom(env, 'TV2_LOGIN_QUEUE', 8),
    loginChecksPerAddress: Math.max(1, intFrom(env, 'TV2_LOGIN_CHECKS_PER_ADDRESS', 4)),
    loginQueueWaitMs: intFrom(env, 'TV2_LOGIN_QUEUE_WAIT_MS', 5000),
    tokenCacheSeconds: intFrom(env, 'TV2_TOKEN_CACHE_SECONDS', 15),
    idempotencyLeaseSeconds: intFrom(env, 'TV2_IDEMPOTENCY_LEASE_SECONDS', 60),
    dbPoolSize: Math.max(1, intFrom(env, 'TV2_DB_POOL_SIZE', 10)),
    dbConnectTimeoutMs: intFrom(env, 'TV2_DB_CONNECT_TIMEOUT_MS', 5000),
    dbStatementTimeoutMs: intFrom(env, 'TV2_DB_STATEMENT_TIMEOUT_MS', 30_000),
    dbIdleInTransactionTimeoutMs: intFrom(env, 'TV2_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 60_000),
    sqliteBusyTimeoutMs: intFrom(env, 'TV2_SQLITE_BUSY_TIMEOUT_MS', 10_000),
    sqliteMmapMb: Math.min(2047, intFrom(env, 'TV2_SQLITE_MMAP_MB', 0)),
    sqliteBackgroundCheckpoints: env.TV2_SQLITE_BACKGROUND_CHECKPOINTS !== '0',
    sqliteGroupCommit: env.TV2_SQLITE_GROUP_COMMIT !== '0',
    sqliteReader: env.TV2_SQLITE_READER !== '0',
    sqliteReaderMmapMb: Math.min(2047, intFrom(env, 'TV2_SQLITE_READER_MMAP_MB', 0)),
    semiSpaceMb: intFrom(env, 'TV2_SEMI_SPACE_MB', 16),
    requestTimeoutSeconds: intFrom(env, 'TV2_REQUEST_TIMEOUT_SECONDS', 30),
    shutdownTimeoutSeconds: intFrom(env, 'TV2_SHUTDOWN_TIMEOUT_SECONDS', 25),
    trustProxy: trustProxyFrom(env.TV2_TRUST_PROXY),
    metricsToken: env.TV2_METRICS_TOKEN || undefined,
    orderLocation: env.TV2_ORDER_LOCATION || 'WH',
    orderBackorders: env.TV2_ORDER_BACKORDERS !== '0',
    retailPriceGroup: Math.max(1, intFrom(env, 'TV2_RETAIL_PRICE_GROUP', 1)),
    voucherValidityDays: validityDaysFrom(env),
    voucherCheckMaxFailures: Math.max(1, intFrom(env, 'TV2_VOUCHER_CHECK_MAX_FAILURES', 10)),
    voucherCheckWindowSeconds: Math.max(1, intFrom(env, 'TV2_VOUCHER_CHECK_WINDOW_SECONDS', 300)),
    bonusEarnBp: bonusEarnFrom(env),
    seller: sellerFrom(env),
    invoicePaymentDays: intFrom(env, 'TV2_SELLER_PAYMENT_DAYS', 30),
    ...overrides,
  };
}

/** TV2_SELLER_*: the seller's identity; the defaults are an invented Belgian demo trader. */
function sellerFrom(env: NodeJS.ProcessEnv): SellerSettings {
  const text = (name: string, fallback: string) => env[name]?.trim() || fallback;
  return {
    name: text('TV2_SELLER_NAME', 'TV2 Demo Trading NV'),
    street: text('TV2_SELLER_STREET', 'Kortrijksesteenweg 120'),
    postalCode: text('TV2_SELLER_POSTAL_CODE', '9000'),
    city: text('TV2_SELLER_CITY', 'Gent'),
    countryCode: text('TV2_SELLER_COUNTRY', 'BE').toUpperCase(),
    vatNumber: text('TV2_SELLER_VAT', 'BE0123456749').replace(/[\s.]/g, '').toUpperCase(),
    iban: text('TV2_SELLER_IBAN', 'BE68539007547034').replace(/\s/g, '').toUpperCase(),
    bic: text('TV2_SELLER_BIC', 'GKCCBEBB'),
    email: text('TV2_SELLER_EMAIL', 'billing@tv2-demo.example'),
  };
}

/** `TV2_VOUCHER_VALIDITY_DAYS`: at least two years (730 days), so no voucher is sold to lapse soon. */
/** TV2_BONUS_EARN_PERCENT: 0 to 100 with at most two decimals, as basis points (1.5 -> 150). */
function bonusEarnFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.TV2_BONUS_EARN_PERCENT?.trim() || '1';
  const match = /^([0-9]{1,3})(?:\.([0-9]{1,2}))?$/.exec(raw);
  const bp = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : Number.NaN;
  if (!(bp >= 0 && bp <= 10_000)) {
    throw new ConfigError(`TV2_BONUS_EARN_PERCENT must be a percentage from 0 to 100, got "${raw}"`);
  }
  return bp;
}

function validityDaysFrom(env: NodeJS.ProcessEnv): number {
  const days = intFrom(env, 'TV2_VOUCHER_VALIDITY_DAYS', 1095);
  if (days < 730 || days > 36_500) {
    throw new ConfigError(`TV2_VOUCHER_VALIDITY_DAYS must be from 730 (two years) to 36500, got "${days}"`);
  }
  return days;
}

/**
 * `TV2_TRUST_PROXY`: unset, empty or `false`: off (X-Forwarded-For is ignored); `true`: every peer
 * is a proxy (only when nothing but the proxy can reach the port); otherwise a comma-separated list
 * of proxy addresses or CIDR ranges. A hop count is refused: Fastify 5 ignores it (fails closed).
 */
export function trustProxyFrom(raw: string | undefined): boolean | string[] {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^[0-9]+$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || extra !== undefined) {
      throw new ConfigError(
        `TV2_TRUST_PROXY must be false, true or a comma-separated list of proxy addresses/CIDRs, got "${entry}"`,
      );
    }
  }
  return entries;
}

/** Turns `sqlite:./data/tv2.db`, `file:...`, a bare path or `:memory:` into a file path for better-sqlite3. */
export function sqlitePathFrom(url: string): string {
  const path = url.replace(/^sqlite:(\/\/)?/, '').replace(/^file:/, '');
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  return path;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}
