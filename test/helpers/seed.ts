import { randomInt } from 'node:crypto';
import { relative } from 'node:path';
import fc from 'fast-check';
import { expect, onTestFailed } from 'vitest';
import { Random } from '../../src/kernel/random.ts';

/**
 * The seed of a test's random work. Tests that draw random inputs or random work (fast-check
 * properties, the random writers of the change-feed tests) take it from here and never from
 * Math.random: when such a test fails, it prints its seed and the command that replays it, e.g.
 *
 *   TV2_TEST_SEED=1234567 npx vitest run test/robustness.test.ts -t 'B2B_GetArticle answers'
 *
 * and a fast-check property also prints the path of its shrunk counterexample, which
 * TV2_TEST_PATH=<path> replays alone. Unset, every test draws a fresh seed, so each run explores
 * other inputs. The seed fixes what the random work does, not how concurrent callers interleave:
 * a concurrency test replayed with its seed runs the same operations, not the same schedule.
 */
export function testSeed(): number {
  const given = process.env.TV2_TEST_SEED;
  const seed = given ? Number(given) : randomInt(2 ** 31);
  if (!Number.isSafeInteger(seed)) throw new Error(`TV2_TEST_SEED must be an integer, not ${given}`);
  const file = relative(process.cwd(), expect.getState().testPath ?? '');
  onTestFailed(({ task }) => {
    console.error(`[seed] "${task.name}" failed with seed ${seed}; replay: ${replay(seed, file, task.name)}`);
  });
  return seed | 0;
}

function replay(seed: number, file: string, name: string, path?: string): string {
  const pattern = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, "'\\''");
  return `TV2_TEST_SEED=${seed}${path ? ` TV2_TEST_PATH=${path}` : ''} npx vitest run ${file} -t '${pattern}'`;
}

/** The kernel's seeded generator (mulberry32) for a test's random work, seeded by testSeed(). */
export function seededRandom(seed = testSeed()): Random {
  return new Random(seed);
}

/**
 * fast-check's assert with the test's seed (and TV2_TEST_PATH, to replay one shrunk case): a
 * failure names the counterexample, the seed, the path and the command that replays it.
 */
export async function assertProperty<Ts extends [unknown, ...unknown[]]>(
  property: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>,
  numRuns: number,
): Promise<void> {
  const seed = testSeed();
  const path = process.env.TV2_TEST_PATH || undefined;
  const details = await fc.check(property, { seed, numRuns, ...(path ? { path } : {}) });
  if (!details.failed) return;
  const state = expect.getState();
  const file = relative(process.cwd(), state.testPath ?? '');
  const name = state.currentTestName?.split(' > ').pop() ?? '';
  throw new Error(
    `${fc.defaultReportMessage(details)}\nreplay: ${replay(seed, file, name, details.counterexamplePath ?? undefined)}`,
    { cause: details.errorInstance },
  );
}
