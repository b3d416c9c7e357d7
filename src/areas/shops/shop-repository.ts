import { type Kysely, sql } from 'kysely';
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

export type ShopDetailRow = ShopDetailTable;
export type ShopImageRow = Omit<ShopImageTable, 'data'> & { data: Buffer };
export type AssistantRow = ShopAssistantTable;
export type PickupPointRow = PickupPointTable;
export type BlockRow = HomePageBlockTable;
export type RegexRow = CompanyRegexTable;

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

/** A row of the pickup list: a shop that allows pickup (sort 1) or an external point (sort 2). */
export interface PickupRow {
  sort: number;
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
   * Locations (every kind: one that stopped being a shop must reach the feed's DELETED) whose row
   * or shop details changed after `sinceScn`, in code order.
   */
  shopsPage(sinceScn: number, offset: number, limit: number): Promise<ShopRow[]> {
    return this.db
      .selectFrom(locationRows(this.db).as('l'))
      .leftJoin('shop_detail as d', 'd.location_code', 'l.code')
      .select([
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
      .where((eb) => eb.or([eb('l.scn', '>', sinceScn), eb('d.scn', '>', sinceScn)]))
      .orderBy('l.code')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  shopImagesPage(sinceScn: number, offset: number, limit: number) {
    return this.db
      .selectFrom('shop_image as i')
      .innerJoin(locationRows(this.db).as('l'), 'l.code', 'i.location_code')
      .select(IMAGE_META)
      .where((eb) => eb.or([eb('i.scn', '>', sinceScn), eb('l.scn', '>', sinceScn)]))
      .orderBy('i.location_code')
      .orderBy('i.image_no')
      .limit(limit)
      .offset(offset)
      .execute();
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

  assistantsPage(sinceScn: number, offset: number, limit: number, locationCode?: string) {
    let q = this.db
      .selectFrom('shop_assistant as a')
      .innerJoin(locationRows(this.db).as('l'), 'l.code', 'a.location_code')
      .selectAll('a')
      .select([
        'l.kind',
        'l.active as location_active',
        'l.serves_retail',
        'l.deleted as location_deleted',
        'l.scn as location_scn',
      ])
      .where((eb) => eb.or([eb('a.scn', '>', sinceScn), eb('l.scn', '>', sinceScn)]));
    if (locationCode !== undefined) q = q.where('a.location_code', '=', locationCode);
    return q.orderBy('a.location_code').orderBy('a.assistant_no').limit(limit).offset(offset).execute();
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
   * Shops that have details (only they can allow pickup) and external points changed after
   * `sinceScn`: shops first, then points, each in code order.
   */
  pickupPage(sinceScn: number, offset: number, limit: number): Promise<PickupRow[]> {
    const shops = this.db
      .selectFrom(locationRows(this.db).as('l'))
      .innerJoin('shop_detail as d', 'd.location_code', 'l.code')
      .select([
        sql<number>`1`.as('sort'),
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
        sql<number>`case when l.kind = 'SHOP' and l.active = 1 and l.serves_retail = 1 and l.deleted = 0 and d.pickup = 1 then 1 else 0 end`.as(
          'visible',
        ),
        'l.scn',
        'd.scn as other_scn',
      ])
      .where((eb) => eb.or([eb('l.scn', '>', sinceScn), eb('d.scn', '>', sinceScn)]));
    const points = this.db
      .selectFrom('pickup_point as p')
      .select([
        sql<number>`2`.as('sort'),
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
      .where('p.scn', '>', sinceScn);
    return shops
      .unionAll(points)
      .orderBy('sort')
      .orderBy('code')
      .limit(limit)
      .offset(offset)
      .execute() as Promise<PickupRow[]>;
  }

  /** Every pickup location retail sees now (for the answer sorted by distance). */
  async visiblePickups(): Promise<PickupRow[]> {
    const rows = await this.pickupPage(0, 0, Number.MAX_SAFE_INTEGER);
    return rows.filter((r) => Number(r.visible) === 1);
  }

  findPickupPoint(code: string): Promise<PickupPointRow | undefined> {
    return this.db.selectFrom('pickup_point').selectAll().where('code', '=', code).executeTakeFirst();
  }

  blocksPage(sinceScn: number, offset: number, limit: number, page?: string): Promise<BlockRow[]> {
    let q = this.db.selectFrom('home_page_block').selectAll().where('scn', '>', sinceScn);
    if (page !== undefined) q = q.where('page', '=', page);
    return q.orderBy('page').orderBy('block_no').limit(limit).offset(offset).execute();
  }

  findBlock(page: string, blockNo: number): Promise<BlockRow | undefined> {
    return this.db
      .selectFrom('home_page_block')
      .selectAll()
      .where('page', '=', page)
      .where('block_no', '=', blockNo)
      .executeTakeFirst();
  }

  regexPage(sinceScn: number, offset: number, limit: number): Promise<RegexRow[]> {
    return this.db
      .selectFrom('company_regex')
      .selectAll()
      .where('scn', '>', sinceScn)
      .orderBy('name')
      .orderBy('country')
      .limit(limit)
      .offset(offset)
      .execute();
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

  async upsertDetail(row: ShopDetailRow): Promise<void> {
    const { location_code, ...changes } = row;
    await this.db
      .insertInto('shop_detail')
      .values(row)
      .onConflict((oc) => oc.column('location_code').doUpdateSet(changes))
      .execute();
  }

  async putImage(row: ShopImageRow): Promise<void> {
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

  async upsertAssistant(row: AssistantRow): Promise<void> {
    const { location_code, assistant_no, ...changes } = row;
    await this.db
      .insertInto('shop_assistant')
      .values(row)
      .onConflict((oc) => oc.columns(['location_code', 'assistant_no']).doUpdateSet(changes))
      .execute();
  }

  async upsertPickupPoint(row: PickupPointRow): Promise<void> {
    const { code, ...changes } = row;
    await this.db
      .insertInto('pickup_point')
      .values(row)
      .onConflict((oc) => oc.column('code').doUpdateSet(changes))
      .execute();
  }

  async upsertBlock(row: BlockRow): Promise<void> {
    const { page, block_no, ...changes } = row;
    await this.db
      .insertInto('home_page_block')
      .values(row)
      .onConflict((oc) => oc.columns(['page', 'block_no']).doUpdateSet(changes))
      .execute();
  }

  async upsertRegex(row: RegexRow): Promise<void> {
    const { name, country, ...changes } = row;
    await this.db
      .insertInto('company_regex')
      .values(row)
      .onConflict((oc) => oc.columns(['name', 'country']).doUpdateSet(changes))
      .execute();
  }
}
