import type { UnitOfWork } from './db/unit-of-work.ts';
import type { SaveResult } from './import/import-kind.ts';

/**
 * The idempotent save (docs/architecture.md, "SCN"): compare each wanted row with the stored one,
 * and write only the rows that differ, stamped with the transaction's SCN. When nothing differs
 * nothing is written and the SCN is not taken, so saving what is already stored moves no SCN and
 * counts as unchanged.
 */

/** The columns a save stamps itself: never a difference between a wanted and a stored row. */
export const BOOKKEEPING: readonly string[] = ['scn', 'created_at', 'updated_at'];

/** A row a save wants stored, with the row stored under its key now (undefined: none). */
export interface WantedRow<W, S = W> {
  wanted: W;
  stored: S | undefined;
}

export interface WriteChangedOptions<W, S> {
  /** Columns not compared (default BOOKKEEPING); used only without `same`. */
  ignore?: readonly string[];
  /**
   * Whether the stored row already says what is wanted (default: there is one and sameRow with
   * `ignore`). Also called without a stored row, for saves where nothing stored can be unchanged.
   */
  same?: (wanted: W, stored: S | undefined) => boolean;
  /** Writes the rows that differ (in the order given), stamped with `scn`; called only if any differ. */
  write: (changed: Array<WantedRow<W, S>>, scn: number) => Promise<void>;
}

/**
 * Whether `stored` says what `wanted` says: every column of `wanted` not in `ignore` is equal (===,
 * with undefined and null the same). Columns only `stored` has are not compared; binary columns
 * compare by identity, so compare those by a hash.
 */
export function sameRow<W extends object>(
  wanted: W,
  stored: object,
  ignore: readonly string[] = BOOKKEEPING,
): boolean {
  const s = stored as Record<string, unknown>;
  return Object.entries(wanted).every(([k, v]) => ignore.includes(k) || (v ?? null) === (s[k] ?? null));
}

/** The rows of `rows` whose stored row does not already say what is wanted, in their order. */
export function changedRows<W extends object, S extends object = W>(
  rows: readonly WantedRow<W, S>[],
  options: Pick<WriteChangedOptions<W, S>, 'ignore' | 'same'> = {},
): Array<WantedRow<W, S>> {
  const ignore = options.ignore ?? BOOKKEEPING;
  const same = options.same ?? ((w: W, s: S | undefined) => s !== undefined && sameRow(w, s, ignore));
  return rows.filter((r) => !same(r.wanted, r.stored));
}

/**
 * Writes the rows that changed (changedRows) in `uow`, stamping them only when there are any
 * (`uow.stamp()`: the SCN the work took with `uow.scn()` if it did, else the number the real SCN
 * replaces at commit). `written` counts them, `unchanged` the others.
 */
export async function writeChanged<W extends object, S extends object = W>(
  uow: Pick<UnitOfWork, 'stamp'>,
  rows: readonly WantedRow<W, S>[],
  options: WriteChangedOptions<W, S>,
): Promise<SaveResult> {
  const changed = changedRows(rows, options);
  if (changed.length > 0) await options.write(changed, await uow.stamp());
  return { written: changed.length, unchanged: rows.length - changed.length };
}
