import { type FieldError, ValidationError } from '../../kernel/errors.ts';
import { articleSizesIn, articleStatesIn, CATALOG_ERRORS } from '../catalog/index.ts';
import { STOCK_ERRORS } from './errors.ts';
import type { LevelKey, MovementRow, StockRepository } from './stock-repository.ts';
import { describe, keyOf, locationNotFound } from './stock-rules.ts';
import type { MovementReason } from './tables.ts';

/**
 * What the stock services share (docs/stock.md): the field checks, the targets of a movement, the
 * ledger row and the typed refusal of a conditional update.
 *
 * Rules every write of the stock area follows:
 * - one transaction per call; the `...In(uow, ...)` forms run inside a caller's transaction (an
 *   order reserving its lines), the others open their own;
 * - the transaction's SCN is taken before any stock is read or changed: the SCN counter's lock
 *   then orders all stock writers, so what a write reads is what it changes;
 * - a level changes only together with a movement row of the same delta, in the same transaction;
 * - stock that would leave available (on hand - reserved) below zero is refused by a conditional
 *   UPDATE, never by a read-then-write: `ConflictError('INSUFFICIENT_STOCK')`. A refusal is not an
 *   SQL error, so the caller's transaction stays usable (it may try another location).
 */

export function movementRow(
  now: () => Date,
  scn: number,
  key: LevelKey,
  reason: MovementReason,
  onHandDelta: number,
  reservedDelta: number,
  reference: string | undefined,
): MovementRow {
  return {
    scn,
    article_no: key.articleNo,
    sizex: key.sizex,
    location_code: key.locationCode,
    reason,
    on_hand_delta: onHandDelta,
    reserved_delta: reservedDelta,
    reference: reference ?? null,
    created_at: now().toISOString(),
  };
}

export async function applyOnHandDelta(repo: StockRepository, key: LevelKey, delta: number, scn: number) {
  if (delta > 0) return (await repo.addOnHand([{ ...keyOf(key), quantity: delta }], scn))[0];
  if (delta < 0) {
    const row = await repo.takeAvailable(key, -delta, scn);
    if (!row) throw await whyNot(repo, { ...key, quantity: -delta }, 'take');
    return row;
  }
  return undefined;
}

/** A single movement's target: a live location, a live article, one of its sizes. */
export async function checkTarget(repo: StockRepository, key: LevelKey): Promise<void> {
  const location = await repo.findLocation(key.locationCode);
  if (!location || location.deleted === 1) throw locationNotFound(key.locationCode);
  const article = (await articleStatesIn(repo.db, [key.articleNo])).get(key.articleNo);
  if (!article || article.deleted === 1) {
    throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${key.articleNo}".`);
  }
  const sizes = (await articleSizesIn(repo.db, [key.articleNo])).get(key.articleNo) ?? [];
  if (!sizes.includes(key.sizex)) throw unknownSize(key, sizes);
}

/** The refusal of a movement to a size the article does not have, naming those it has. */
export function unknownSize(key: LevelKey, sizes: readonly string[]) {
  return STOCK_ERRORS.UNKNOWN_SIZE([
    { name: '/SIZEX', message: `article ${key.articleNo} has no size "${key.sizex}" (${sizes.join(', ')})` },
  ]);
}

/** The targets of a bulk write, every bad row named in one ValidationError by its index (`/3/SIZEX`). */
export async function checkTargets(repo: StockRepository, keys: readonly LevelKey[]): Promise<void> {
  const locations = new Map((await repo.locations()).map((l) => [l.code, l]));
  const articleNos = keys.map((k) => k.articleNo);
  const [articles, sizes] = await Promise.all([
    articleStatesIn(repo.db, articleNos),
    articleSizesIn(repo.db, articleNos),
  ]);
  const errors: FieldError[] = [];
  for (const [i, key] of keys.entries()) {
    if (!locations.has(key.locationCode)) {
      errors.push({ name: `/${i}/LOCATION`, message: `no location "${key.locationCode}"` });
    }
    const article = articles.get(key.articleNo);
    if (!article || article.deleted === 1) {
      errors.push({ name: `/${i}/ARTICLE`, message: `no article "${key.articleNo}"` });
    } else if (!(sizes.get(key.articleNo) ?? []).includes(key.sizex)) {
      errors.push({
        name: `/${i}/SIZEX`,
        message: `article ${key.articleNo} has no size "${key.sizex}"`,
      });
    }
    if (errors.length >= 50) break;
  }
  if (errors.length > 0) throw new ValidationError(errors);
}

/** Why a conditional update changed nothing: the most specific typed error. */
export async function whyNot(
  repo: StockRepository,
  line: LevelKey & { quantity: number },
  what: 'reserve' | 'release' | 'ship' | 'take',
): Promise<Error> {
  const location = await repo.findLocation(line.locationCode);
  if (!location || location.deleted === 1) return locationNotFound(line.locationCode);
  if (what === 'reserve' && location.active !== 1) {
    return STOCK_ERRORS.LOCATION_INACTIVE(`Location "${line.locationCode}" is not active.`);
  }
  const level = await repo.level(line);
  if (!level) {
    try {
      await checkTarget(repo, line);
    } catch (error) {
      return error as Error;
    }
  }
  const onHand = level?.on_hand ?? 0;
  const reserved = level?.reserved ?? 0;
  if (what === 'release' || what === 'ship') {
    return STOCK_ERRORS.INSUFFICIENT_RESERVATION(
      `Cannot ${what} ${line.quantity} of ${describe(line)}: ${reserved} reserved.`,
    );
  }
  return STOCK_ERRORS.INSUFFICIENT_STOCK(
    `Cannot ${what} ${line.quantity} of ${describe(line)}: ` +
      `${onHand - reserved} available (${onHand} on hand, ${reserved} reserved).`,
  );
}
