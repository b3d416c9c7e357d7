/** What a mutation is: see run.ts. */
export type Engine = 'sqlite' | 'postgres';

export interface Edit {
  /** From the repository's root. */
  file: string;
  /** Exact text; it must occur exactly once in the file. */
  find: string;
  replace: string;
}

export interface Mutation {
  name: string;
  /** The guard it removes, in a sentence. */
  what: string;
  edits: Edit[];
  /** Test files (from the root) that must catch it. */
  tests: string[];
  /** Only the tests whose names match (vitest -t), when the files hold many. */
  testNames?: string;
  /** The engines on which the tests must catch it (both, unless the guard is one engine's). */
  engines: Engine[];
}
