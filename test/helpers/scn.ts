import { expect } from 'vitest';
import { ENGINE } from './test-app.ts';

/**
 * Asserts how a reader's SCN moved between two reads around `commits` committed writes of this
 * database. On SQLite the SCN is a counter of commits: `after` is exactly `before + commits`. On
 * PostgreSQL it is the horizon of transaction ids (docs/architecture.md, "SCN"), which every
 * transaction of the server moves, other databases' included: it never goes back, and it passes
 * `before` when this database committed. What exactly a write changed is asserted on its rows.
 */
export function expectScnStep(before: number, after: number, commits: number): void {
  if (ENGINE === 'sqlite') {
    expect(after).toBe(before + commits);
    return;
  }
  if (commits > 0) expect(after).toBeGreaterThanOrEqual(before + commits);
  else expect(after).toBeGreaterThanOrEqual(before);
}
