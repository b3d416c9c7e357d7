import { Counter, Gauge, type Registry } from 'prom-client';
import type { Services } from '../../kernel/services.ts';

/**
 * GetToken's limits (`services.general.loginGuard`, login-throttle.ts), read on every scrape: secret checks running
 * and queued, checks started, and attempts refused (429 TOO_MANY_FAILED_LOGINS: throttled, 503
 * LOGIN_BUSY: busy). Their answers also show in the request metric as operation="GetToken".
 */
export function registerLoginMetrics(registry: Registry, services: Services): void {
  const stats = () => services.general.loginGuard.stats();
  new Gauge({
    name: 'tv2_login_checks',
    help: 'GetToken secret checks (scrypt) of this process by state: running, or queued for a slot.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const s = stats();
      this.set({ state: 'running' }, s.checksRunning);
      this.set({ state: 'queued' }, s.checksQueued);
    },
  });
  const started = { value: 0 };
  new Counter({
    name: 'tv2_login_checks_started_total',
    help: 'GetToken secret checks started since the process started.',
    registers: [registry],
    collect() {
      const s = stats();
      this.inc(Math.max(0, s.checksStarted - started.value));
      started.value = s.checksStarted;
    },
  });
  const refused = { busy: 0, throttled: 0 };
  new Counter({
    name: 'tv2_login_refused_total',
    help: 'GetToken attempts refused by reason: throttled (429 TOO_MANY_FAILED_LOGINS) or busy (503 LOGIN_BUSY).',
    labelNames: ['reason'] as const,
    registers: [registry],
    collect() {
      const s = stats();
      this.inc({ reason: 'throttled' }, Math.max(0, s.refusedThrottled - refused.throttled));
      this.inc({ reason: 'busy' }, Math.max(0, s.refusedBusy - refused.busy));
      refused.throttled = s.refusedThrottled;
      refused.busy = s.refusedBusy;
    },
  });
}
