#!/usr/bin/env node
// Runs the TypeScript CLI on Node's own type stripping: no build step and no compiler at start
// (tsconfig.json's erasableSyntaxOnly keeps the sources strippable). Node's compile cache keeps the
// stripped and compiled modules between runs (in the system's temporary directory;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off). An older Node without type stripping (`./bin/tv2.js`
// on a system Node; npm scripts use the Node 24 of node_modules), or a copy installed under
// node_modules, where Node strips no types, runs through tsx instead.
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// `serve` bounds V8's young generation (docs/architecture.md, "Start-up and memory"; decision 51):
// V8 takes the size from its command line only, so the process runs itself again in place
// (execve: the same process, the same pid) with it, unless the command line already sets it.
// TV2_SEMI_SPACE_MB=0 leaves V8's own sizing (up to 2 × 64 MiB semi-spaces on a large machine);
// empty is the default, as for every setting. A value that is not a whole number runs no second
// start: the configuration (src/config.ts) refuses it at start with its one-line error.
const semiSpaceMb = process.env.TV2_SEMI_SPACE_MB || '16';
if (
  process.argv[2] === 'serve' &&
  /^[0-9]+$/.test(semiSpaceMb) &&
  Number(semiSpaceMb) > 0 &&
  typeof process.execve === 'function' &&
  !process.execArgv.some((flag) => flag.startsWith('--max-semi-space-size'))
) {
  process.execve(
    process.execPath,
    [process.execPath, `--max-semi-space-size=${semiSpaceMb}`, ...process.execArgv, ...process.argv.slice(1)],
    process.env,
  );
}
module.enableCompileCache?.();
const underNodeModules = fileURLToPath(import.meta.url)
  .split(/[\\/]/)
  .includes('node_modules');
if (!process.features.typescript || underNodeModules) {
  const { register } = await import('tsx/esm/api');
  register();
} else {
  // TypeBox and Kysely from one bundle each rather than ~950 modules (bin/prebundle.js).
  const { usePrebundledDependencies } = await import('./prebundle.js');
  usePrebundledDependencies();
}
await import('../src/cli/main.ts');
