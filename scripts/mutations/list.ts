import { CONCURRENCY_MUTATIONS } from './concurrency.ts';
import type { Mutation } from './mutation.ts';
import { WIRING_MUTATIONS } from './wiring.ts';

export type { Engine, Mutation } from './mutation.ts';

/** Every mutation `npm run test:mutations` applies, guards under concurrency first. */
export const MUTATIONS: Mutation[] = [...CONCURRENCY_MUTATIONS, ...WIRING_MUTATIONS];
