import { type CompiledQuery, type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { compiledOnce } from '../../kernel/db/compiled-once.ts';
import { onPostgres } from '../../kernel/db/engine.ts';
import { changedAfter } from '../../kernel/db/feed-sql.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { scnCounterValue } from '../../kernel/db/scn-counter.ts';
import type { Reader } from '../../kernel/db/sqlite-reader.ts';
import type { Audience } from '../../kernel/paging.ts';
import { articleFlags, articleSizePositions } from '../catalog/index.ts';
import {
  ARTICLE_PART,
  type ArticleStockRow,
  LEVEL_PART,
  LOCATION_PART,
  SCN_PART,
  SIZE_PART,
} from './article-stock-rows.ts';
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

/** The module the reader thread makes one article's stock answer with (`articleStockText`). */
const ARTICLE_STOCK_TEXT = new URL('./article-stock-answer.ts', import.meta.url).href;

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

/** The level's own columns of a page. */
const LEVEL_COLUMNS = [
  'l.pos as pos',
  'l.article_no as article_no',
  'l.sizex as sizex',
  'l.location_code as location_code',
  'l.on_hand',
  'l.reserved',
  'l.scn',
] as const;

type FlagColumns = Omit<LevelFeedRow, keyof LevelRow | 'pos'>;

/** A row of `levelsPage` as the statement gives it: the flags as columns, or packed (PostgreSQL feeds). */
type LevelsPageRow = LevelRow & { pos: number } & (
    | FlagColumns
    | { article_flags: number | null; location_flags: number | null }
  ) & { article_flags?: number | null; location_flags?: number | null };

interface LevelsPageValues {
  since: number;
  from: number;
  limit: number;
  location: string;
}

/** `weight` when the 0/1 flag `column` is 1 (the services' rule: only 1 counts), else 0. */
function bit(column: string, weight: number) {
  return sql<number>`(case when ${sql.ref(column)} = 1 then ${sql.lit(weight)} else 0 end)`;
}

/** The article's flags packed by `bit` (deleted 4, active 2, retail 1); none: as deleted. */
function decodeArticleFlags(packed: unknown) {
  if (packed === null || packed === undefined)
    return { article_deleted: 1, article_active: 0, article_retail: 0 };
  const f = Number(packed);
  return { article_deleted: (f >> 2) & 1, article_active: (f >> 1) & 1, article_retail: f & 1 };
}

/** The location's flags packed by `bit` (deleted 8, active 4, wholesale 2, retail 1); none: as deleted. */
function decodeLocationFlags(packed: unknown) {
  if (packed === null || packed === undefined) {
    return { location_deleted: 1, location_active: 0, serves_wholesale: 0, serves_retail: 0 };
  }
  const f = Number(packed);
  return {
    location_deleted: (f >> 3) & 1,
    location_active: (f >> 2) & 1,
    serves_wholesale: (f >> 1) & 1,
    serves_retail: f & 1,
  };
}

function flagsOf(r: FlagColumns): FlagColumns {
  return {
    article_deleted: r.article_deleted,
    article_active: r.article_active,
    article_retail: r.article_retail,
    location_deleted: r.location_deleted,
    location_active: r.location_active,
    serves_wholesale: r.serves_wholesale,
    serves_retail: r.serves_retail,
  };
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
   * after it (an article taken off retail or deleted takes its stock with it), of the locations (and
   * for retail the articles) `audience` ever saw (their `seen_*` flags: a level it never saw is no
   * news to it, issue 14), shown now or not: the caller reports the ones `audience` does not see
   * under DELETED. Their positions come from a
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
    const feed = sinceScn > 0;
    const key = `${audience}${feed ? ' feed' : ''}${locationCode === undefined ? '' : ' at'}`;
    let query = this.#levelsPages.get(key);
    if (!query) {
      query = this.#levelsPageQuery(audience, feed, locationCode !== undefined);
      this.#levelsPages.set(key, query);
    }
    const { rows } = await this.db.executeQuery(
      query({ since: sinceScn, from, limit, location: locationCode ?? '' }),
    );
    return rows.map((r) => {
      const row = {
        pos: num(r.pos),
        article_no: r.article_no,
        sizex: r.sizex,
        location_code: r.location_code,
        on_hand: num(r.on_hand),
        reserved: num(r.reserved),
        scn: num(r.scn),
      };
      if (r.article_flags === undefined) return { ...row, ...flagsOf(r as FlagColumns) };
      return { ...row, ...decodeArticleFlags(r.article_flags), ...decodeLocationFlags(r.location_flags) };
    });
  }

  readonly #levelsPages = new Map<string, (values: LevelsPageValues) => CompiledQuery<LevelsPageRow>>();

  #levelsPageQuery(audience: Audience, feed: boolean, atLocation: boolean) {
    const keys: Array<keyof LevelsPageValues> = ['from', 'limit'];
    if (feed) keys.push('since');
    if (atLocation) keys.push('location');
    return compiledOnce<LevelsPageValues, LevelsPageRow>(keys, (v) => {
      const levels = this.db
        .selectFrom('stock_level as l')
        .where('l.pos', '>=', v.from)
        .$if(atLocation, (qb) => qb.where('l.location_code', '=', v.location))
        .orderBy('l.pos')
        .limit(v.limit);
      const changed = (eb: ExpressionBuilder<DB & { l: DB['stock_level'] }, 'l'>) =>
        eb('l.pos', 'in', (sub) =>
          sub
            .selectFrom('stock_level')
            .select('pos')
            .where(changedAfter('scn', v.since))
            .union(
              sub
                .selectFrom(articleFlags(this.db).as('changed'))
                .crossJoin('stock_level as of')
                .whereRef('of.article_no', '=', 'changed.article_no')
                .select('of.pos')
                .where(changedAfter('changed.scn', v.since)),
            ),
        );
      if (feed && onPostgres(this.db)) {
        // PostgreSQL plans a statement on every call: the flags as two scalar subqueries (one
        // index probe each per level) leave it one table and the semi-join to plan, instead of a
        // three-way join (about 1.1 ms against 1.7 ms for a page of 100 changes on 1.4M levels).
        return levels
          .select(LEVEL_COLUMNS)
          .select((eb) => [
            eb
              .selectFrom(articleFlags(this.db).as('a'))
              .whereRef('a.article_no', '=', 'l.article_no')
              .select(
                sql<number>`${bit('a.deleted', 4)} + ${bit('a.active', 2)} + ${bit('a.retail', 1)}`.as('f'),
              )
              .as('article_flags'),
            eb
              .selectFrom('stock_location as loc')
              .whereRef('loc.code', '=', 'l.location_code')
              .select(
                sql<number>`${bit('loc.deleted', 8)} + ${bit('loc.active', 4)} + ${bit('loc.serves_wholesale', 2)} + ${bit('loc.serves_retail', 1)}`.as(
                  'f',
                ),
              )
              .as('location_flags'),
          ])
          .where((eb) => changed(eb))
          .where((eb) =>
            eb.and([
              eb(
                eb
                  .selectFrom('stock_location as s')
                  .whereRef('s.code', '=', 'l.location_code')
                  .select(audience === 'B2B' ? 's.seen_wholesale' : 's.seen_retail'),
                '=',
                1,
              ),
              ...(audience === 'B2C'
                ? [
                    eb(
                      eb
                        .selectFrom(articleFlags(this.db).as('sa'))
                        .whereRef('sa.article_no', '=', 'l.article_no')
                        .select('sa.seen_retail'),
                      '=',
                      1,
                    ),
                  ]
                : []),
            ]),
          )
          .$castTo<LevelsPageRow>();
      }
      const page = levels
        .crossJoin('stock_location as loc')
        .crossJoin(articleFlags(this.db).as('a'))
        .whereRef('loc.code', '=', 'l.location_code')
        .whereRef('a.article_no', '=', 'l.article_no')
        .select(FEED_COLUMNS);
      if (feed) {
        return page
          .where((eb) => changed(eb))
          .where(audience === 'B2B' ? 'loc.seen_wholesale' : 'loc.seen_retail', '=', 1)
          .$if(audience === 'B2C', (qb) => qb.where('a.seen_retail', '=', 1))
          .$castTo<LevelsPageRow>();
      }
      return page
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
        .$castTo<LevelsPageRow>();
    });
  }

  /**
   * Everything one article's stock answer needs, in one statement of four plain parts (`part`): the
   * article's flags, its sizes, each location `audience` sees (the rule of stock-wire.ts,
   * `locationVisibleTo`, in SQL; only `locationCode` if given) and the article's levels (only at
   * `locationCode` if given; the caller keeps those at the locations listed). Each part reads one
   * table by key, with no join: the levels once by the article's prefix of their key, not once per
   * location. No order: the caller sorts. The statement is compiled once per audience and filter.
   */
  articleStock(
    audience: Audience,
    articleNo: string,
    locationCode?: string,
    reader?: Reader,
  ): Promise<ArticleStockRow[]> {
    const compiled = this.#articleStockStatement(audience, articleNo, locationCode);
    return reader ? reader.shortRows(compiled) : this.db.executeQuery(compiled).then((result) => result.rows);
  }

  /**
   * The JSON text of the answer `{"<root>": ...}` made of `articleStock`'s rows where `reader` reads
   * them (article-stock-answer.ts, `articleStockText`); undefined where it does not make it.
   */
  articleStockText(
    root: string,
    audience: Audience,
    articleNo: string,
    locationCode: string | undefined,
    reader: Reader,
  ): Promise<string | undefined> {
    return reader.textOnThread(this.#articleStockStatement(audience, articleNo, locationCode), {
      module: ARTICLE_STOCK_TEXT,
      name: 'articleStockText',
      args:
        locationCode === undefined ? [root, audience, articleNo] : [root, audience, articleNo, locationCode],
    });
  }

  #articleStockStatement(
    audience: Audience,
    articleNo: string,
    locationCode?: string,
  ): CompiledQuery<ArticleStockRow> {
    const key = `${audience}${locationCode === undefined ? '' : ' at'}`;
    let query = this.#articleStock.get(key);
    if (!query) {
      query = this.#articleStockQuery(audience, locationCode !== undefined);
      this.#articleStock.set(key, query);
    }
    return query({ article: articleNo, location: locationCode ?? '' });
  }

  /**
   * Whether `articleStock`'s rows carry the SCN they were read at (SCN_PART): on SQLite, where one
   * statement reads in one snapshot, so the SCN read with the rows is exactly theirs.
   */
  get articleStockHasScn(): boolean {
    return !onPostgres(this.db);
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
          // The article joined to a one-row table of its number rather than found by `article_no
          // = ?`: SQLite takes a unique key's equality straight to that key and the table's own
          // row (large, with its texts, on a page of its own), where the join weighs the covering
          // index of the flags (migration 0046) and reads that alone.
          .selectFrom(sql<{ k: string }>`(select cast(${v.article} as text) as k)`.as('q'))
          .innerJoin(articleFlags(this.db).as('a'), 'a.article_no', 'q.k')
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
          )
          // SQLite: the SCN in the same statement, so in the snapshot the rest is read in (a
          // PostgreSQL statement's snapshot has no such number: the caller reads the horizon).
          .$if(!onPostgres(this.db), (qb) =>
            qb.unionAll(
              this.db
                .selectFrom(scnCounterValue(this.db).as('c'))
                .select([
                  part(SCN_PART),
                  text.as('sizex'),
                  text.as('code'),
                  text.as('name'),
                  text.as('kind'),
                  sql<number>`${sql.ref('c.value')}`.as('n1'),
                  int.as('n2'),
                  int.as('n3'),
                ])
                .$castTo<ArticleStockRow>(),
            ),
          ),
    );
  }
}

interface ArticleStockValues {
  article: string;
  location: string;
}
