import type { UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import type { SaveResult } from '../../kernel/import/import-kind.ts';
import { writeChanged } from '../../kernel/write-changed.ts';

/**
 * What the shops services share (docs/shops.md): the write of a row that changed and the
 * tombstone (the page of a change feed is the kernel's feedPage). Every write is one transaction
 * and stamps what it changes with the transaction's SCN; saving what is already stored writes
 * nothing. Deletions keep the row, flagged, as the tombstone the change feeds report.
 */

export type GeoValue = string | number;

export const LATITUDE_MESSAGE = 'must be decimal degrees from -90 to 90 with at most six decimals';
export const LONGITUDE_MESSAGE = 'must be decimal degrees from -180 to 180 with at most six decimals';

/** Writes `wanted` unless the stored row already says the same (writeChanged); stamps it with the SCN. */
export async function upsertRow<R extends { scn: number; updated_at: string; deleted: number }>(
  uow: UnitOfWork,
  now: () => Date,
  stored: R | undefined,
  wanted: R,
  write: (row: R) => Promise<void>,
): Promise<SaveResult> {
  return writeChanged(uow, [{ wanted, stored }], {
    write: async (changed, scn) => {
      for (const c of changed) await write({ ...c.wanted, scn, updated_at: now().toISOString() });
    },
  });
}

export async function tombstone<R extends { scn: number; updated_at: string; deleted: number }>(
  uow: UnitOfWork,
  now: () => Date,
  stored: R,
): Promise<R> {
  return { ...stored, deleted: 1, scn: await uow.scn(), updated_at: now().toISOString() };
}

export function blankToNull(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}
