import type { Mutation } from './mutation.ts';

export const CONCURRENCY_MUTATIONS: Mutation[] = [];
