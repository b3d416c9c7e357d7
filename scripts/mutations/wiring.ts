import type { Mutation } from './mutation.ts';

export const WIRING_MUTATIONS: Mutation[] = [];
