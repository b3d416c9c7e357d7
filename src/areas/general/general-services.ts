import type { Config } from '../../config.ts';
import type { Database } from '../../kernel/db/database.ts';
import { AuthService } from './auth-service.ts';
import { IdempotencyService } from './idempotency-service.ts';
import { LoginGuard } from './login-throttle.ts';

/** The general area's services: API users and tokens, and Idempotency-Key claims. */
export interface GeneralServices {
  auth: AuthService;
  idempotency: IdempotencyService;
  /** GetToken's throttle and secret-check gate, one per process (its stats feed the metrics). */
  loginGuard: LoginGuard;
}

export function createGeneralServices(config: Config, database: Database): GeneralServices {
  return {
    auth: new AuthService(database, {
      tokenTtlSeconds: config.tokenTtlSeconds,
      tokenCacheSeconds: config.tokenCacheSeconds,
    }),
    idempotency: new IdempotencyService(database, { leaseSeconds: config.idempotencyLeaseSeconds }),
    loginGuard: new LoginGuard(database, {
      maxFailuresPerAddress: config.loginMaxFailures,
      maxFailuresPerUser: config.loginMaxFailuresPerUser,
      windowSeconds: config.loginWindowSeconds,
      concurrentChecks: config.loginConcurrentChecks,
      queuedChecks: config.loginQueue,
      checksPerAddress: config.loginChecksPerAddress,
      queueWaitMs: config.loginQueueWaitMs,
    }),
  };
}
