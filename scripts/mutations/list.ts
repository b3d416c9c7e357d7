import { CONCURRENCY_MUTATIONS } from './concurrency.ts';
import type { Mutation } from './mutation.ts';
import { ORDER_MOVE_MUTATIONS } from './orders-moves.ts';
import { ORDER_PLACEMENT_MUTATIONS } from './orders-placement.ts';
import { WIRING_MUTATIONS } from './wiring.ts';

export type { Engine, Mutation } from './mutation.ts';

/** Every mutation `npm run test:mutations` applies, guards under concurrency first. */
export const MUTATIONS: Mutation[] = [
  ...CONCURRENCY_MUTATIONS,
  ...ORDER_PLACEMENT_MUTATIONS,
  ...ORDER_MOVE_MUTATIONS,
  ...WIRING_MUTATIONS,
];
