/** 0 or 1: both engines store flags as integers so one query text serves both. */
export type Flag = number;
/** ISO 8601 UTC instant, stored as text on both engines. */
export type Instant = string;
/** JSON text of a `{ LANGUAGE_1: ..., LANGUAGE_2: ... }` object. */
export type LanguageJson = string;

export interface ScnCounterTable {
  id: number;
  value: number;
}

/**
 * Every table. The kernel declares its own; each area adds its tables to this interface from its
 * tables.ts (a module augmentation), so the kernel never imports an area.
 */
export interface DB {
  scn_counter: ScnCounterTable;
}
