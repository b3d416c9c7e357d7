/**
 * Preloaded into a server process (`node --import ./test/helpers/module-log.ts bin/tv2.js serve`):
 * appends the URL of every module the process loads, one a line, to the file TV2_TEST_MODULE_LOG
 * names. Used by test/startup-lazy-packages.test.ts (decision 53).
 */
import { appendFileSync } from 'node:fs';
import module from 'node:module';

const file = process.env.TV2_TEST_MODULE_LOG;
if (file) {
  module.registerHooks({
    load(url, context, nextLoad) {
      appendFileSync(file, `${url}\n`);
      return nextLoad(url, context);
    },
  });
}
