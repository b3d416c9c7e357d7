import type { Mutation } from './mutation.ts';

/** The guards of the orders area's placement (docs/orders.md), each removed in turn. */
export const ORDER_PLACEMENT_MUTATIONS: Mutation[] = [];
