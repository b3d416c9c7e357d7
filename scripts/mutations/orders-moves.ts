import type { Mutation } from './mutation.ts';

/** The guards of the orders area's moves (docs/orders.md), each removed in turn. */
export const ORDER_MOVE_MUTATIONS: Mutation[] = [];
