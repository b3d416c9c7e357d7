/**
 * Dependency rules of tv2 (docs/architecture.md): one home per business area under src/areas/,
 * the kernel (src/kernel/) and the HTTP layer (src/http/) below them. `npm run lint:deps` checks
 * them in CI (.ci/run). Paths are relative to the repository root.
 */

/** Test files: `*.test.ts` anywhere, and everything under an area's test/ folder or test/. */
const TESTS = ['\\.test\\.ts$', '^src/areas/[^/]+/test/', '^test/'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles: a cycle makes load order matter (an area index half-initialised when another ' +
        'reads it) and ties modules that should change apart. Type-only imports count too (swc does not ' +
        'tell them apart, and a type cycle between areas is the same tangle). Areas that need each other ' +
        'both ways do so at run time through `services` (src/kernel/services.ts; e.g. the catalog asks ' +
        'stock and pricing when an article is deleted), not through imports.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'kernel-imports-no-area',
      severity: 'error',
      comment:
        'The kernel is what no area owns: it knows the areas only through the Area type and the ' +
        '`Services` interface they augment, so any area can be added or removed without touching it. ' +
        'It sits below the HTTP layer too (the HTTP layer uses the kernel, not the other way round).',
      from: { path: '^src/kernel/', pathNot: TESTS },
      to: { path: ['^src/areas/', '^src/areas\\.ts$', '^src/http/'] },
    },
    {
      name: 'http-imports-no-area',
      severity: 'error',
      comment:
        'The HTTP layer serves whatever areas src/areas.ts lists, handed in by src/app.ts; it never ' +
        'names an area, so an area is one folder and one line in src/areas.ts.',
      from: { path: '^src/http/' },
      to: { path: ['^src/areas/', '^src/areas\\.ts$'] },
    },
    {
      name: 'area-only-through-index',
      severity: 'error',
      comment:
        "An area's index.ts is its only public face: another area (its tests included) imports only " +
        'what that index exports, so the rest of an area can change without breaking its neighbours.',
      from: { path: '^src/areas/([^/]+)/' },
      to: { path: '^src/areas/[^/]+/', pathNot: ['^src/areas/$1/', '^src/areas/[^/]+/index\\.ts$'] },
    },
    {
      name: 'no-foreign-repository',
      severity: 'error',
      comment:
        "A repository holds an area's SQL over the tables that area owns; only that area's own code " +
        "may use it, so each table has one owner and one place its SQL lives (another area's data " +
        'comes through its services or index).',
      from: { path: '^src/areas/([^/]+)/' },
      to: { path: '^src/areas/[^/]+/.*-repository\\.ts$', pathNot: '^src/areas/$1/' },
    },
    {
      name: 'no-repository-outside-areas',
      severity: 'error',
      comment:
        'The same rule as no-foreign-repository for code outside the areas (kernel, HTTP layer, CLI, ' +
        "bench, cross-cutting tests): an area's repository is its own.",
      from: { pathNot: '^src/areas/' },
      to: { path: '^src/areas/[^/]+/.*-repository\\.ts$' },
    },
    {
      name: 'client-imports-no-server',
      severity: 'error',
      comment:
        'The typed client (client/) is what an application of the interface copies or imports: it ' +
        'depends only on its generated types (client/schema.d.ts) and openapi-fetch, never on the ' +
        "server's code, so it works against any tv2 over HTTP. Only its generator (client/generate.ts) " +
        'builds the OpenAPI document in-process from src/.',
      from: { path: '^client/', pathNot: '^client/generate\\.ts$' },
      to: { path: '^(src|test|bench|scripts)/' },
    },
    {
      name: 'client-only-through-index',
      severity: 'error',
      comment:
        'Tests and applications use the client through client/index.ts, so its modules can change ' +
        'behind it (the generator is the exception: the test that keeps the types current calls it).',
      from: { pathNot: '^client/' },
      to: { path: '^client/', pathNot: ['^client/index\\.ts$', '^client/generate\\.ts$'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every import resolves to a file or an installed package.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'A module nothing imports is dead code or a forgotten entry point. Tests, test helpers, the ' +
        'entry points (bin/, the CLI, benches) and configuration files are used without being imported.',
      from: {
        orphan: true,
        pathNot: [
          ...TESTS,
          '(^|/)\\.[^/]+\\.(c|m)?js$',
          '\\.d\\.ts$',
          '^src/cli/main\\.ts$',
          '^bench/',
          '^scripts/',
          '^vitest\\.config\\.ts$',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // TypeScript 7 has no JavaScript compiler API: parse with swc (@swc/core). It sees `import type`
    // and `import { type X }` as ordinary imports (no 'type-only' dependency type).
    parser: 'swc',
    tsPreCompilationDeps: true,
    // Imports name their .ts files; packages resolve through their `exports` as Node's ESM loader does.
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default'],
      mainFields: ['module', 'main'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
