import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { changedAfter } from '../../kernel/db/feed-sql.ts';
import type { DB } from '../../kernel/db/schema.ts';
import type { Audience } from '../../kernel/paging.ts';
import { articleFlags, articleSizePositions } from '../catalog/index.ts';
import { compiledOnce } from './compiled-once.ts';
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

/** What a row of one article's stock answer (`articleStock`) carries, by its `part`. */
export const ARTICLE_PART = 0;
/** One of the article's sizes: `sizex`, `n1` its place in the size table. */
export const SIZE_PART = 1;
/** A location the audience sees: `code`, `name`, `kind`. */
export const LOCATION_PART = 2;
/** A level of the article: `sizex` at `code`, `n1` on hand, `n2` reserved. */
export const LEVEL_PART = 3;

/**
 * A row of one article's stock answer: `part` says which (the constants above); the article's own
 * row carries its flags as `n1` deleted, `n2` active, `n3` retail. Columns a part does not use are
 * null.
 */
export interface ArticleStockRow {
  part: number;
  sizex: string | null;
  code: string | null;
  name: string | null;
  kind: LocationKind | null;
  n1: number | null;
  n2: number | null;
  n3: number | null;
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
   * Everything one article's stock answer needs, in one statement of four plain parts (`part`): the
   * article's flags, its sizes, each location `audience` sees (the rule of stock-wire.ts,
   * `locationVisibleTo`, in SQL; only `locationCode` if given) and the article's levels (only at
   * `locationCode` if given; the caller keeps those at the locations listed). Each part reads one
   * table by key, with no join: the levels once by the article's prefix of their key, not once per
   * location. No order: the caller sorts. The statement is compiled once per audience and filter.
   */
  articleStock(audience: Audience, articleNo: string, locationCode?: string): Promise<ArticleStockRow[]> {
    const key = `${audience}${locationCode === undefined ? '' : ' at'}`;
    let query = this.#articleStock.get(key);
    if (!query) {
      query = this.#articleStockQuery(audience, locationCode !== undefined);
      this.#articleStock.set(key, query);
    }
    return this.db
      .executeQuery(query({ article: articleNo, location: locationCode ?? '' }))
      .then((result) => result.rows);
  }

  readonly #articleStock = new Map<string, (values: ArticleStockValues) => CompiledQuery<ArticleStockRow>>();

  #articleStockQuery(audience: Audience, atLocation: boolean) {
    // Typed nulls: PostgreSQL types a UNION's column from its first part, so a bare NULL there
    // would be text and clash with an integer further down.
    const text = sql<string | null>`cast(null as text)`;
    const int = sql<number | null>`cast(null as integer)`;
    const part = (n: number) => sql<number>`${sql.lit(n)}`.as('part');
    return compiledOnce<ArticleStockValues, ArticleStockRow>(
      atLocation ? ['article', 'location'] : ['article'],
      (v) =>
        this.db
          .selectFrom(articleFlags(this.db).as('a'))
          .where('a.article_no', '=', v.article)
          .select([
            part(ARTICLE_PART),
            text.as('sizex'),
            text.as('code'),
            text.as('name'),
            sql<LocationKind | null>`cast(null as text)`.as('kind'),
            'a.deleted as n1',
            'a.active as n2',
            'a.retail as n3',
          ])
          .$castTo<ArticleStockRow>()
          .unionAll(
            this.db
              .selectFrom(articleSizePositions(this.db).as('s'))
              .where('s.article_no', '=', v.article)
              .select([
                part(SIZE_PART),
                's.sizex',
                text.as('code'),
                text.as('name'),
                text.as('kind'),
                's.position as n1',
                int.as('n2'),
                int.as('n3'),
              ])
              .$castTo<ArticleStockRow>(),
          )
          .unionAll(
            this.db
              .selectFrom('stock_location as loc')
              .where('loc.deleted', '=', 0)
              .where('loc.active', '=', 1)
              .where(audience === 'B2B' ? 'loc.serves_wholesale' : 'loc.serves_retail', '=', 1)
              .$if(atLocation, (qb) => qb.where('loc.code', '=', v.location))
              .select([
                part(LOCATION_PART),
                text.as('sizex'),
                'loc.code',
                'loc.name',
                'loc.kind',
                int.as('n1'),
                int.as('n2'),
                int.as('n3'),
              ])
              .$castTo<ArticleStockRow>(),
          )
          .unionAll(
            this.db
              .selectFrom('stock_level as l')
              .where('l.article_no', '=', v.article)
              .$if(atLocation, (qb) => qb.where('l.location_code', '=', v.location))
              .select([
                part(LEVEL_PART),
                'l.sizex',
                'l.location_code as code',
                text.as('name'),
                text.as('kind'),
                'l.on_hand as n1',
                'l.reserved as n2',
                int.as('n3'),
              ])
              .$castTo<ArticleStockRow>(),
          ),
    );
  }
}

interface ArticleStockValues {
  article: string;
  location: string;
}
