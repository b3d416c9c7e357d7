#!/usr/bin/env node
// Runs the TypeScript CLI on Node's own type stripping: no build step and no compiler at start
// (tsconfig.json's erasableSyntaxOnly keeps the sources strippable). Node's compile cache keeps the
// stripped and compiled modules between runs (in the system's temporary directory;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node does not strip types under node_modules, so a
// copy installed there (not a link) is run through tsx instead.
import module from 'node:module';

module.enableCompileCache?.();
if (import.meta.dirname.split(/[\\/]/).includes('node_modules')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('../src/cli/main.ts');
