import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * The tests `npm run mutation` (Stryker, stryker.config.mjs) runs against each mutant of the rule
 * modules: the unit tests beside them, each fast and on one database. The area tests that drive the
 * same rules through HTTP and across threads are left out: a mutant is not active in another thread
 * or process, and their set-up would run again for every mutant. SQLite only (TV2_TEST_DATABASE_URL
 * unset), so the run fits in CI.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // replaces the base list (mergeConfig would add to it)
    include: [
      // price resolution
      'src/areas/pricing/price-resolution.test.ts',
      // the stock guards: the pure checks, and the conditional UPDATEs on a real database
      'src/areas/stock/stock-rules.test.ts',
      'src/areas/stock/stock-guards.test.ts',
      // the SCN unit of work
      'src/kernel/db/unit-of-work.test.ts',
      'src/kernel/db/unit-of-work-dispatch.test.ts',
      'src/kernel/db/scn-reader.test.ts',
      'src/kernel/db/statistics.test.ts',
      // access control
      'src/kernel/access.test.ts',
      // idempotency
      'src/areas/general/idempotency-service.test.ts',
    ],
  },
});
