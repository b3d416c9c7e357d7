/**
 * Mutation check: each mutation in ./list.ts is a small patch that removes one guard (a conditional
 * UPDATE, a conflict clause, a registered route ...). The script applies it, runs the tests named
 * for that guard on each engine the mutation lists, requires at least one of them to fail, and puts
 * the file back (also when interrupted). A mutation the tests survive fails the run.
 *
 *   npm run test:mutations                    # SQLite, and PostgreSQL when TV2_TEST_DATABASE_URL is set
 *   npm run test:mutations -- --only NAME     # one mutation
 *   npm run test:mutations -- --list          # the list, without running anything
 *
 * It edits source files while it runs: run it in a checkout nobody else is editing (CI does).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Engine, MUTATIONS, type Mutation } from './list.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const REPORT = join(ROOT, '.tmp', 'mutation-vitest.json');
const PG_URL = process.env.TV2_TEST_DATABASE_URL;

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

if (args.includes('--list')) {
  for (const m of MUTATIONS)
    console.log(`${m.name} [${m.engines.join(', ')}]: ${m.what}\n  tests: ${m.tests.join(' ')}`);
  process.exit(0);
}

const chosen = MUTATIONS.filter((m) => only === undefined || m.name === only);
if (chosen.length === 0) {
  console.error(`no mutation named ${only}`);
  process.exit(2);
}

let restore: (() => void) | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    restore?.();
    process.exit(130);
  });
}

/** Applies every edit of a mutation; each `find` must occur exactly once in its file. */
function apply(m: Mutation): () => void {
  const originals = new Map<string, string>();
  for (const edit of m.edits) {
    const path = join(ROOT, edit.file);
    const text = originals.get(path) ?? readFileSync(path, 'utf8');
    if (!originals.has(path)) originals.set(path, text);
    const current = readFileSync(path, 'utf8');
    const count = current.split(edit.find).length - 1;
    if (count !== 1) {
      for (const [p, t] of originals) writeFileSync(p, t);
      throw new Error(`${m.name}: expected the text to change once in ${edit.file}, found it ${count} times`);
    }
    writeFileSync(
      path,
      current.replace(edit.find, () => edit.replace),
    );
  }
  return () => {
    for (const [p, t] of originals) writeFileSync(p, t);
  };
}

interface Outcome {
  failed: number;
  passed: number;
}

function runTests(m: Mutation, engine: Engine): Outcome {
  rmSync(REPORT, { force: true });
  const env = { ...process.env, CI: 'true' };
  if (engine === 'sqlite') delete env.TV2_TEST_DATABASE_URL;
  else env.TV2_TEST_DATABASE_URL = PG_URL;
  spawnSync(
    join(ROOT, 'node_modules', '.bin', 'vitest'),
    [
      'run',
      ...m.tests,
      '--reporter=json',
      `--outputFile=${REPORT}`,
      ...(m.testNames ? ['-t', m.testNames] : []),
    ],
    { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'ignore'], timeout: 10 * 60_000 },
  );
  try {
    const report = JSON.parse(readFileSync(REPORT, 'utf8')) as {
      numFailedTests: number;
      numPassedTests: number;
    };
    return { failed: report.numFailedTests, passed: report.numPassedTests };
  } catch {
    return { failed: 0, passed: 0 };
  }
}

mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const survived: string[] = [];
for (const m of chosen) {
  for (const engine of m.engines) {
    if (engine === 'postgres' && !PG_URL) {
      console.log(`- ${m.name} (postgres): skipped, TV2_TEST_DATABASE_URL is not set`);
      continue;
    }
    restore = apply(m);
    let outcome: Outcome;
    try {
      outcome = runTests(m, engine);
    } finally {
      restore();
      restore = undefined;
    }
    // Caught only when a test failed: a file that does not load counts no failed test.
    const caught = outcome.failed > 0;
    if (!caught) survived.push(`${m.name} (${engine})`);
    console.log(
      `${caught ? 'caught  ' : 'SURVIVED'} ${m.name} (${engine}): ${outcome.failed} failed, ${outcome.passed} passed`,
    );
  }
}
if (survived.length > 0) {
  console.log(`\n${survived.length} mutation(s) survived: ${survived.join(', ')}`);
  process.exit(1);
}
console.log('\nevery mutation was caught');
