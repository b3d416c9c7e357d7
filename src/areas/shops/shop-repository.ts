import { type Kysely, sql } from 'kysely';
import { changedAfter } from '../../kernel/db/feed-sql.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { locationRows } from '../stock/index.ts';
import type {
  CompanyRegexTable,
  HomePageBlockTable,
  PickupPointTable,
  ShopAssistantTable,
  ShopDetailTable,
  ShopImageTable,
} from './tables.ts';

// The rows as the services compare and write them: a paging position is the database's (tables.ts).
export type ShopDetailRow = Omit<ShopDetailTable, 'pos' | 'seen_pickup'>;
export type ShopImageRow = Omit<ShopImageTable, 'data' | 'pos'> & { data: Buffer };
export type AssistantRow = Omit<ShopAssistantTable, 'pos' | 'seen'>;
export type PickupPointRow = Omit<PickupPointTable, 'pos' | 'seen'>;
export type BlockRow = Omit<HomePageBlockTable, 'pos' | 'seen'>;
export type RegexRow = Omit<CompanyRegexTable, 'pos'>;

/** A row of a page: the record and its stable paging position (docs/architecture.md, "Paging"). */
export type Positioned<R> = R & { pos: number };

/** A row read with selectAll, as written back: without the position the database keeps. */
export function written<R extends object>(row: R): Omit<R, 'pos'> {
  const { pos: _, ...rest } = row as R & { pos?: unknown };
  return rest;
}

/** 1 when retail sees the record as written (live and active): kept as its `seen` (tables.ts). */
export function seenAsWritten(row: { active: number; deleted: number }): 0 | 1 {
  return row.active === 1 && row.deleted === 0 ? 1 : 0;
}

/**
 * The `seen` flag an upsert leaves: 1 when the written row is seen (`excluded`), else what it was;
 * once set it is never cleared, so the feeds report what retail once saw (issue 14).
 */
export function stickySeen(column: string) {
  const name = column.split('.')[1] ?? column;
  return sql<number>`case when ${sql.ref(`excluded.${name}`)} = 1 then 1 else ${sql.ref(column)} end`;
}

/** The engines' bigint position and SCN as JS numbers. */
function positioned<R extends { pos: number | string | bigint; scn: number }>(row: R): R & { pos: number } {
  return { ...row, pos: Number(row.pos), scn: Number(row.scn) };
}

/** The stock area's location table, as the shops area reads it (it never writes it). */
type StockLocationTable = DB['stock_location'];

/** The columns of a stock location that decide whether retail sees it as a shop. */
export type LocationFlags = Pick<StockLocationTable, 'kind' | 'active' | 'serves_retail' | 'deleted'>;

/** A stock location with its shop details (null where none were ever written). */
export interface ShopRow
  extends Pick<
      StockLocationTable,
      'code' | 'name' | 'kind' | 'active' | 'serves_retail' | 'deleted' | 'address' | 'house_number'
    >,
    Pick<StockLocationTable, 'postal_code' | 'city' | 'country'> {
  location_scn: number;
  phone: string | null;
  email: string | null;
  latitude_micro: number | null;
  longitude_micro: number | null;
  pickup: number | null;
  time_zone: string | null;
  description: string | null;
  opening_hours: string | null;
  hours_exceptions: string | null;
  detail_scn: number | null;
}

export type ShopImageFeedRow = Awaited<ReturnType<ShopRepository['shopImagesPage']>>[number];
export type AssistantFeedRow = Awaited<ReturnType<ShopRepository['assistantsPage']>>[number];

const IMAGE_META = [
  'i.location_code',
  'i.image_no',
  'i.content_type',
  'i.byte_size',
  'i.sha256',
  'i.deleted',
  'i.scn',
  'l.kind',
  'l.active',
  'l.serves_retail',
  'l.deleted as location_deleted',
  'l.scn as location_scn',
] as const;

/** Every SQL statement of the shops area. */
export class ShopRepository {
  private readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  // --- reads ---------------------------------------------------------------------------------

  findDetail(code: string): Promise<ShopDetailRow | undefined> {
    return this.db.selectFrom('shop_detail').selectAll().where('location_code', '=', code).executeTakeFirst();
  }

  /**
   * One page of the shops list in the stock locations' position order, from position `from`. With
   * `sinceScn` > 0: locations retail ever saw as a shop (`seen_shop`: one that stopped being a shop
   * must reach the feed's DELETED, one that never was one is no news; issue 14) whose row or shop
   * details changed after it, two index reads united; with 0: the shops
   * retail sees (shopVisible), so a page is full whenever enough remain.
   */
  async shopsPage(sinceScn: number, from: number, limit: number): Promise<Positioned<ShopRow>[]> {
    const base = () =>
      this.db
        .selectFrom(locationRows(this.db).as('l'))
        .leftJoin('shop_detail as d', 'd.location_code', 'l.code')
        .select([
          'l.pos as pos',
          'l.code',
          'l.name',
          'l.kind',
          'l.active',
          'l.serves_retail',
          'l.deleted',
          'l.address',
          'l.house_number',
          'l.postal_code',
          'l.city',
          'l.country',
          'l.scn as location_scn',
          'd.phone',
          'd.email',
          'd.latitude_micro',
          'd.longitude_micro',
          'd.pickup',
          'd.time_zone',
          'd.description',
          'd.opening_hours',
          'd.hours_exceptions',
          'd.scn as detail_scn',
        ])
        .where('l.pos', '>=', from);
    const q =
      sinceScn > 0
        ? base()
            .where(changedAfter('l.scn', sinceScn))
            .where('l.seen_shop', '=', 1)
            .union(base().where(changedAfter('d.scn', sinceScn)).where('l.seen_shop', '=', 1))
        : base()
            .where('l.kind', '=', 'SHOP')
            .where('l.active', '=', 1)
            .where('l.serves_retail', '=', 1)
            .where('l.deleted', '=', 0);
    const rows = await q.orderBy('pos').limit(limit).execute();
    return rows.map((r) => ({
      ...r,
      pos: Number(r.pos),
      location_scn: Number(r.location_scn),
      detail_scn: r.detail_scn === null ? null : Number(r.detail_scn),
    }));
  }

  /**
   * One page of shop images in position order from `from`: with `sinceScn` > 0 those whose row or
   * location changed after it (two index reads united), with 0 the live images of visible shops.
   */
  async shopImagesPage(sinceScn: number, from: number, limit: number) {
    const base = () =>
      this.db
        .selectFrom('shop_image as i')
        .innerJoin(locationRows(this.db).as('l'), 'l.code', 'i.location_code')
        .select([...IMAGE_META, 'i.pos as pos'])
        .where('i.pos', '>=', from);
    const q =
      sinceScn > 0
        ? base()
            .where(changedAfter('i.scn', sinceScn))
            .union(base().where(changedAfter('l.scn', sinceScn)).where('l.seen_shop', '=', 1))
        : base()
            .where('i.deleted', '=', 0)
            .where('l.kind', '=', 'SHOP')
            .where('l.active', '=', 1)
            .where('l.serves_retail', '=', 1)
            .where('l.deleted', '=', 0);
    const rows = await q.orderBy('pos').limit(limit).execute();
    return rows.map((r) => ({ ...positioned(r), location_scn: Number(r.location_scn) }));
  }

  findImage(code: string, imageNo: number): Promise<ShopImageRow | undefined> {
    return this.db
      .selectFrom('shop_image')
      .selectAll()
      .where('location_code', '=', code)
      .where('image_no', '=', imageNo)
      .where('deleted', '=', 0)
      .executeTakeFirst();
  }

  /**
   * One page of assistants (of one shop, with `locationCode`) in position order from `from`: with
   * `sinceScn` > 0 those whose row or shop changed after it (two index reads united), with 0 the
   * active assistants of visible shops.
   */
  async assistantsPage(sinceScn: number, from: number, limit: number, locationCode?: string) {
    const base = () => {
      let q = this.db
        .selectFrom('shop_assistant as a')
        .innerJoin(locationRows(this.db).as('l'), 'l.code', 'a.location_code')
        .select([
          'a.pos as pos',
          'a.location_code',
          'a.assistant_no',
          'a.name',
          'a.role',
          'a.photo_image_no',
          'a.active',
          'a.deleted',
          'a.scn',
          'a.updated_at',
          'l.kind',
          'l.active as location_active',
          'l.serves_retail',
          'l.deleted as location_deleted',
          'l.scn as location_scn',
        ])
        .where('a.pos', '>=', from);
      if (locationCode !== undefined) q = q.where('a.location_code', '=', locationCode);
      return q;
    };
    const q =
      sinceScn > 0
        ? base()
            .where(changedAfter('a.scn', sinceScn))
            .where('a.seen', '=', 1)
            .union(
              base()
                .where(changedAfter('l.scn', sinceScn))
                .where('l.seen_shop', '=', 1)
                .where('a.seen', '=', 1),
            )
        : base()
            .where('a.deleted', '=', 0)
            .where('a.active', '=', 1)
            .where('l.kind', '=', 'SHOP')
            .where('l.active', '=', 1)
            .where('l.serves_retail', '=', 1)
            .where('l.deleted', '=', 0);
    const rows = await q.orderBy('pos').limit(limit).execute();
    return rows.map((r) => ({ ...positioned(r), location_scn: Number(r.location_scn) }));
  }

  findAssistant(code: string, assistantNo: number): Promise<AssistantRow | undefined> {
    return this.db
      .selectFrom('shop_assistant')
      .selectAll()
      .where('location_code', '=', code)
      .where('assistant_no', '=', assistantNo)
      .executeTakeFirst();
  }

  async assistantsShowingImage(code: string, imageNo: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('shop_assistant')
      .select('assistant_no')
      .where('location_code', '=', code)
      .where('photo_image_no', '=', imageNo)
      .where('deleted', '=', 0)
      .orderBy('assistant_no')
      .execute();
    return rows.map((r) => r.assistant_no);
  }

  /**
   * One page of home page blocks (of one page, with `page`) in position order from `from`: changed
   * after `sinceScn`, or (0) the active ones.
   */
  async blocksPage(
    sinceScn: number,
    from: number,
    limit: number,
    page?: string,
  ): Promise<Positioned<BlockRow>[]> {
    let q = this.db.selectFrom('home_page_block').selectAll().where('pos', '>=', from);
    q =
      sinceScn > 0
        ? q.where(changedAfter('scn', sinceScn)).where('seen', '=', 1)
        : q.where('deleted', '=', 0).where('active', '=', 1);
    if (page !== undefined) q = q.where('page', '=', page);
    return (await q.orderBy('pos').limit(limit).execute()).map(positioned);
  }

  findBlock(page: string, blockNo: number): Promise<BlockRow | undefined> {
    return this.db
      .selectFrom('home_page_block')
      .selectAll()
      .where('page', '=', page)
      .where('block_no', '=', blockNo)
      .executeTakeFirst();
  }

  /**
   * One page of the table's validation patterns in position order from `from`, without those under
   * a key in `shadowed` (the server's own patterns replace them: never shown nor reported): changed
   * after `sinceScn`, or (0) the live ones.
   */
  async regexPage(
    sinceScn: number,
    from: number,
    limit: number,
    shadowed: ReadonlyArray<{ name: string; country: string }> = [],
  ): Promise<Positioned<RegexRow>[]> {
    let q = this.db.selectFrom('company_regex').selectAll().where('pos', '>=', from);
    q = sinceScn > 0 ? q.where(changedAfter('scn', sinceScn)) : q.where('deleted', '=', 0);
    if (shadowed.length > 0) {
      q = q.where((eb) =>
        eb.not(eb.or(shadowed.map((k) => eb.and([eb('name', '=', k.name), eb('country', '=', k.country)])))),
      );
    }
    return (await q.orderBy('pos').limit(limit).execute()).map(positioned);
  }

  findRegex(name: string, country: string): Promise<RegexRow | undefined> {
    return this.db
      .selectFrom('company_regex')
      .selectAll()
      .where('name', '=', name)
      .where('country', '=', country)
      .executeTakeFirst();
  }

  // --- writes (only on a repository made over a unit of work's transaction) ------------------

  async upsertDetail(stored: ShopDetailRow): Promise<void> {
    const row = written(stored);
    const { location_code, ...changes } = row;
    await this.db
      .insertInto('shop_detail')
      .values({ ...row, seen_pickup: row.pickup === 1 ? 1 : 0 })
      .onConflict((oc) =>
        oc
          .column('location_code')
          .doUpdateSet({ ...changes, seen_pickup: stickySeen('shop_detail.seen_pickup') }),
      )
      .execute();
  }

  async putImage(stored: ShopImageRow): Promise<void> {
    const row = written(stored);
    const { location_code, image_no, ...changes } = row;
    await this.db
      .insertInto('shop_image')
      .values(row)
      .onConflict((oc) => oc.columns(['location_code', 'image_no']).doUpdateSet(changes))
      .execute();
  }

  async softDeleteImage(code: string, imageNo: number, scn: number): Promise<boolean> {
    const result = await this.db
      .updateTable('shop_image')
      .set({ deleted: 1, data: Buffer.alloc(0), byte_size: 0, scn })
      .where('location_code', '=', code)
      .where('image_no', '=', imageNo)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async upsertAssistant(stored: AssistantRow): Promise<void> {
    const row = written(stored);
    const { location_code, assistant_no, ...changes } = row;
    await this.db
      .insertInto('shop_assistant')
      .values({ ...row, seen: seenAsWritten(row) })
      .onConflict((oc) =>
        oc
          .columns(['location_code', 'assistant_no'])
          .doUpdateSet({ ...changes, seen: stickySeen('shop_assistant.seen') }),
      )
      .execute();
  }

  async upsertBlock(stored: BlockRow): Promise<void> {
    const row = written(stored);
    const { page, block_no, ...changes } = row;
    await this.db
      .insertInto('home_page_block')
      .values({ ...row, seen: seenAsWritten(row) })
      .onConflict((oc) =>
        oc
          .columns(['page', 'block_no'])
          .doUpdateSet({ ...changes, seen: stickySeen('home_page_block.seen') }),
      )
      .execute();
  }

  async upsertRegex(stored: RegexRow): Promise<void> {
    const row = written(stored);
    const { name, country, ...changes } = row;
    await this.db
      .insertInto('company_regex')
      .values(row)
      .onConflict((oc) => oc.columns(['name', 'country']).doUpdateSet(changes))
      .execute();
  }
}
