import { type Kysely, sql } from 'kysely';
import { changedAfter } from '../../kernel/db/feed-sql.ts';
import type { DB } from '../../kernel/db/schema.ts';
import type { Audience } from '../../kernel/paging.ts';
import { articleFlags, articleSizePositions } from '../catalog/index.ts';
import type { LevelRow } from './stock-repository.ts';
import type { LocationKind } from './tables.ts';

/** A level with its paging position and what decides who may see it: its article's and its location's flags. */
export interface LevelFeedRow extends LevelRow {
  pos: number;
  article_deleted: number;
  article_active: number;
  article_retail: number;
  location_deleted: number;
  location_active: number;
  serves_wholesale: number;
  serves_retail: number;
}

/**
 * A row of one article's stock answer (`articleStock`): `part` 'article' carries the article's flags
 * and one of its sizes with its place in the size table (no size: an article without sizes);
 * `part` 'location' one location with one level of the article there (no level: none there).
 */
export interface ArticleStockRow {
  part: 'article' | 'location';
  deleted: number | null;
  active: number | null;
  retail: number | null;
  sizex: string | null;
  position: number | null;
  code: string | null;
  name: string | null;
  kind: LocationKind | null;
  on_hand: number | null;
  reserved: number | null;
}

const FEED_COLUMNS = [
  'l.pos as pos',
  'l.article_no as article_no',
  'l.sizex as sizex',
  'l.location_code as location_code',
  'l.on_hand',
  'l.reserved',
  'l.scn',
  'a.deleted as article_deleted',
  'a.active as article_active',
  'a.retail as article_retail',
  'loc.deleted as location_deleted',
  'loc.active as location_active',
  'loc.serves_wholesale',
  'loc.serves_retail',
] as const;

function num(value: unknown): number {
  return Number(value);
}

/**
 * The stock area's reads of what the operations show (docs/stock.md): the stock lists and change
 * feeds, paged by stable position, and one article's stock. Everything else is StockRepository.
 */
export class StockReadRepository {
  readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  /**
   * One page of stock levels by stable position (docs/architecture.md, "Paging"; docs/stock.md):
   * those with `pos >= from`, in `pos` order, at most `limit`, with the flags that decide visibility.
   * Every plan reads the levels in position order off the position index (the location's with
   * `locationCode`) and stops after `limit`; the location and the article are looked up by key.
   *
   * With `sinceScn` > 0 (a feed): the levels changed after it, and every level of an article changed
   * after it (an article taken off retail or deleted takes its stock with it), seen or not: the
   * caller reports the ones `audience` does not see under DELETED. Their positions come from a
   * subquery whose only conditions are the SCNs (`changedAfter`), read off the `scn` indexes (the
   * level's; the article's, then the levels by article): a page costs what changed, whatever the
   * table holds, and the levels are then read by those positions, in order.
   *
   * With `sinceScn` 0 (a full list): only the levels `audience` sees (the rule of stock-wire.ts,
   * `levelVisibleTo`, in SQL), so a page holds `limit` levels whenever that many remain.
   *
   * How it is written keeps both planners on that plan: CROSS JOINs with their conditions in WHERE,
   * the level first (SQLite keeps that order; PostgreSQL plans them as inner joins), so neither
   * starts from the small tables and sorts; and the full list's visibility as a scalar subquery per
   * level (`(select 1 ... where visible) is not null`), not as conditions on the joined rows (SQLite,
   * given statistics, would build a Bloom filter over every article for each page) nor as EXISTS
   * (PostgreSQL may plan it as a join driven by all the articles).
   */
  async levelsPage(
    audience: Audience,
    sinceScn: number,
    from: number,
    limit: number,
    locationCode?: string,
  ): Promise<LevelFeedRow[]> {
    const page = this.db
      .selectFrom('stock_level as l')
      .crossJoin('stock_location as loc')
      .crossJoin(articleFlags(this.db).as('a'))
      .whereRef('loc.code', '=', 'l.location_code')
      .whereRef('a.article_no', '=', 'l.article_no')
      .select(FEED_COLUMNS)
      .where('l.pos', '>=', from)
      .$if(locationCode !== undefined, (qb) => qb.where('l.location_code', '=', locationCode ?? ''))
      .orderBy('l.pos')
      .limit(limit);
    const rows =
      sinceScn > 0
        ? await page
            .where('l.pos', 'in', (eb) =>
              eb
                .selectFrom('stock_level')
                .select('pos')
                .where(changedAfter('scn', sinceScn))
                .union(
                  eb
                    .selectFrom(articleFlags(this.db).as('changed'))
                    .crossJoin('stock_level as of')
                    .whereRef('of.article_no', '=', 'changed.article_no')
                    .select('of.pos')
                    .where(changedAfter('changed.scn', sinceScn)),
                ),
            )
            .execute()
        : await page
            .where((eb) =>
              eb.and([
                eb(
                  eb
                    .selectFrom('stock_location as v')
                    .select(sql<number>`1`.as('seen'))
                    .whereRef('v.code', '=', 'l.location_code')
                    .where('v.deleted', '=', 0)
                    .where('v.active', '=', 1)
                    .where(audience === 'B2B' ? 'v.serves_wholesale' : 'v.serves_retail', '=', 1),
                  'is not',
                  null,
                ),
                eb(
                  eb
                    .selectFrom(articleFlags(this.db).as('f'))
                    .select(sql<number>`1`.as('seen'))
                    .whereRef('f.article_no', '=', 'l.article_no')
                    .where('f.deleted', '=', 0)
                    .$if(audience === 'B2C', (qb) => qb.where('f.retail', '=', 1).where('f.active', '=', 1)),
                  'is not',
                  null,
                ),
              ]),
            )
            .execute();
    return rows.map((r) => ({
      ...r,
      pos: num(r.pos),
      on_hand: num(r.on_hand),
      reserved: num(r.reserved),
      scn: num(r.scn),
    }));
  }

  /**
   * Everything one article's stock answer needs, in one statement: the article's flags and sizes,
   * and each location `audience` sees (the rule of stock-wire.ts, `locationVisibleTo`, in SQL; only
   * `locationCode` if given) with the article's levels there. No order: the caller sorts.
   */
  async articleStock(
    audience: Audience,
    articleNo: string,
    locationCode?: string,
  ): Promise<ArticleStockRow[]> {
    const none = <T>() => sql<T | null>`null`;
    const rows = await this.db
      .selectFrom(articleFlags(this.db).as('a'))
      .leftJoin(articleSizePositions(this.db).as('s'), 's.article_no', 'a.article_no')
      .where('a.article_no', '=', articleNo)
      .select([
        sql<'article' | 'location'>`'article'`.as('part'),
        'a.deleted',
        'a.active',
        'a.retail',
        's.sizex',
        's.position',
        none<string>().as('code'),
        none<string>().as('name'),
        none<LocationKind>().as('kind'),
        none<number>().as('on_hand'),
        none<number>().as('reserved'),
      ])
      .$castTo<ArticleStockRow>()
      .unionAll(
        this.db
          .selectFrom('stock_location as loc')
          .leftJoin('stock_level as l', (join) =>
            join.onRef('l.location_code', '=', 'loc.code').on('l.article_no', '=', articleNo),
          )
          .where('loc.deleted', '=', 0)
          .where('loc.active', '=', 1)
          .where(audience === 'B2B' ? 'loc.serves_wholesale' : 'loc.serves_retail', '=', 1)
          .$if(locationCode !== undefined, (qb) => qb.where('loc.code', '=', locationCode ?? ''))
          .select([
            sql<'article' | 'location'>`'location'`.as('part'),
            none<number>().as('deleted'),
            none<number>().as('active'),
            none<number>().as('retail'),
            'l.sizex',
            none<number>().as('position'),
            'loc.code',
            'loc.name',
            'loc.kind',
            'l.on_hand',
            'l.reserved',
          ])
          .$castTo<ArticleStockRow>(),
      )
      .execute();
    const n = (v: unknown) => (v === null ? null : num(v));
    return rows.map((r) => ({
      ...r,
      deleted: n(r.deleted),
      active: n(r.active),
      retail: n(r.retail),
      position: n(r.position),
      on_hand: n(r.on_hand),
      reserved: n(r.reserved),
    }));
  }
}
