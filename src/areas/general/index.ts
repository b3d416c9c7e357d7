import type { Area } from '../../kernel/area.ts';
import { GENERAL_ERRORS } from './errors.ts';
import { createGeneralServices, type GeneralServices } from './general-services.ts';
import { registerLoginMetrics } from './login-metrics.ts';
import * as m0005 from './migrations/0005_idempotency.ts';
import * as m0008 from './migrations/0008_login_attempts.ts';
import * as m0009 from './migrations/0009_idempotency_lease.ts';
import { APIPing } from './operations.ts';
import { registerTokenRoute } from './token-route.ts';
import './tables.ts';

declare module '../../kernel/services.ts' {
  interface Services {
    general: GeneralServices;
  }
}

/**
 * The general area: API users and their tokens (GetToken, with its login throttle), Idempotency-Key
 * claims, and APIPing (docs/security.md).
 */
export const generalArea: Area = {
  name: 'general',
  docs: 'docs/security.md',
  errors: GENERAL_ERRORS,
  operations: [APIPing],
  migrations: {
    '0005_idempotency': m0005,
    '0008_login_attempts': m0008,
    '0009_idempotency_lease': m0009,
  },
  services: (config, database) => ({ general: createGeneralServices(config, database) }),
  routes: registerTokenRoute,
  metrics: registerLoginMetrics,
};
