import type { ImportKind } from '../../kernel/import/import-kind.ts';

/** The orders' `tv2 import` kinds (bulk deliveries). */
// biome-ignore lint/suspicious/noExplicitAny: kinds differ in their input type; each is typed where declared
export const ORDERS_IMPORT_KINDS: ImportKind<any>[] = [];
