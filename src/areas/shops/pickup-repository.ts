import { type Kysely, sql } from 'kysely';
import { changedAfter } from '../../kernel/db/feed-sql.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { locationRows } from '../stock/index.ts';
import { type PickupPointRow, seenAsWritten, stickySeen, written } from './shop-repository.ts';

/**
 * The pickup list's positions (docs/shops.md, "Paging"): a shop that allows pickup is at its shop
 * details' position, an external pickup point at this plus its own, so every shop comes before every
 * point, as the list has always had them, and both keep their places.
 */
export const PICKUP_POINT_POSITIONS = 1_000_000_000;

/** A row of the pickup list: a shop that allows pickup (sort 1) or an external point (sort 2). */
export interface PickupRow {
  sort: number;
  /** The position in the pickup list (PICKUP_POINT_POSITIONS). */
  pos: number;
  code: string;
  name: string;
  address: string | null;
  house_number: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  latitude_micro: number | null;
  longitude_micro: number | null;
  description: string;
  /** 1 when retail sees it as a pickup location now. */
  visible: number;
  scn: number;
  other_scn: number;
}

/** The SQL of the pickup list and of external pickup points (the rest of the shops area: shop-repository.ts). */
export class PickupRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  /**
   * One page of the pickup list from position `from` (PICKUP_POINT_POSITIONS): shops that have
   * details (only they can allow pickup) in their details' position order, then external points in
   * theirs; at most two index range reads. With `sinceScn` > 0 those changed after it (a shop: its
   * location or its details), with 0 those retail sees as pickup locations now.
   */
  async pickupPage(sinceScn: number, from: number, limit: number): Promise<PickupRow[]> {
    const shops = from < PICKUP_POINT_POSITIONS ? await this.#pickupShops(sinceScn, from, limit) : [];
    if (shops.length >= limit) return shops;
    const points = await this.#pickupPoints(
      sinceScn,
      Math.max(1, from - PICKUP_POINT_POSITIONS),
      limit - shops.length,
    );
    return [...shops, ...points];
  }

  async #pickupShops(sinceScn: number, from: number, limit: number): Promise<PickupRow[]> {
    const visible = sql<number>`case when l.kind = 'SHOP' and l.active = 1 and l.serves_retail = 1 and l.deleted = 0 and d.pickup = 1 then 1 else 0 end`;
    const base = () =>
      this.db
        .selectFrom('shop_detail as d')
        .innerJoin(locationRows(this.db).as('l'), 'l.code', 'd.location_code')
        .select([
          sql<number>`1`.as('sort'),
          'd.pos as pos',
          'l.code',
          'l.name',
          'l.address',
          'l.house_number',
          'l.postal_code',
          'l.city',
          'l.country',
          'd.latitude_micro',
          'd.longitude_micro',
          'd.description',
          visible.as('visible'),
          'l.scn',
          'd.scn as other_scn',
        ])
        .where('d.pos', '>=', from);
    const q =
      sinceScn > 0
        ? // Only shops retail once saw as pickup locations (issue 14; tables.ts).
          base()
            .where(changedAfter('l.scn', sinceScn))
            .where('l.seen_shop', '=', 1)
            .where('d.seen_pickup', '=', 1)
            .union(
              base()
                .where(changedAfter('d.scn', sinceScn))
                .where('l.seen_shop', '=', 1)
                .where('d.seen_pickup', '=', 1),
            )
        : base()
            .where('d.pickup', '=', 1)
            .where('l.kind', '=', 'SHOP')
            .where('l.active', '=', 1)
            .where('l.serves_retail', '=', 1)
            .where('l.deleted', '=', 0);
    const rows = await q.orderBy('pos').limit(limit).execute();
    return rows.map((r) => ({
      ...r,
      pos: Number(r.pos),
      scn: Number(r.scn),
      other_scn: Number(r.other_scn),
    }));
  }

  async #pickupPoints(sinceScn: number, from: number, limit: number): Promise<PickupRow[]> {
    let q = this.db
      .selectFrom('pickup_point as p')
      .select([
        sql<number>`2`.as('sort'),
        'p.pos',
        'p.code',
        'p.name',
        'p.address',
        'p.house_number',
        'p.postal_code',
        'p.city',
        'p.country',
        'p.latitude_micro',
        'p.longitude_micro',
        'p.description',
        sql<number>`case when p.active = 1 and p.deleted = 0 then 1 else 0 end`.as('visible'),
        'p.scn',
        'p.scn as other_scn',
      ])
      .where('p.pos', '>=', from);
    q =
      sinceScn > 0
        ? q.where(changedAfter('p.scn', sinceScn)).where('p.seen', '=', 1)
        : q.where('p.active', '=', 1).where('p.deleted', '=', 0);
    const rows = await q.orderBy('p.pos').limit(limit).execute();
    return rows.map((r) => ({
      ...r,
      pos: PICKUP_POINT_POSITIONS + Number(r.pos),
      scn: Number(r.scn),
      other_scn: Number(r.other_scn),
    }));
  }

  /** Every pickup location retail sees now (for the answer sorted by distance). */
  visiblePickups(): Promise<PickupRow[]> {
    return this.pickupPage(0, 1, Number.MAX_SAFE_INTEGER);
  }

  findPickupPoint(code: string): Promise<PickupPointRow | undefined> {
    return this.db.selectFrom('pickup_point').selectAll().where('code', '=', code).executeTakeFirst();
  }

  async upsertPickupPoint(stored: PickupPointRow): Promise<void> {
    const row = written(stored);
    const { code, ...changes } = row;
    await this.db
      .insertInto('pickup_point')
      .values({ ...row, seen: seenAsWritten(row) })
      .onConflict((oc) =>
        oc.column('code').doUpdateSet({ ...changes, seen: stickySeen('pickup_point.seen') }),
      )
      .execute();
  }
}
