import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { compiledOnce } from '../../kernel/db/compiled-once.ts';
import type { DB } from '../../kernel/db/schema.ts';
import { transactionScnSql } from '../../kernel/db/scn-horizon.ts';
import { articleFlags, articleSizePositions } from '../catalog/index.ts';
import type { LevelKey, LevelRow } from './stock-batches.ts';

/** What a receipt of one statement found and, when its target held, the level after it. */
export interface ReceiptOutcome {
  /** The location exists and is not deleted. */
  location: boolean;
  /** The article exists and is not deleted. */
  article: boolean;
  /** The article has the size. */
  size: boolean;
  /** The level after the receipt; absent when nothing was written (a check failed). */
  level?: LevelRow;
}

interface ReceiptValues {
  article: string;
  size: string;
  location: string;
  quantity: number;
  reference: string | null;
  at: string;
}

interface ReceiptRow {
  location: number;
  article: number;
  size: number;
  on_hand: number | null;
  reserved: number | null;
  scn: number | string | null;
}

/**
 * PostgreSQL: a stock receipt as one statement (decision 46; StockLedgerService.receive). It holds
 * the location and the article with a shared row lock (FOR SHARE) while it checks that both are
 * live and that the article has the size, adds to on hand (creating the level) and writes the
 * movement, all stamped with the transaction's SCN. Run on its own it is its own transaction: one
 * round trip to the server where the same work as separate statements took ten (BEGIN, the SCN,
 * three checks, the level, the movement, two locks, COMMIT).
 *
 * The lock is taken before the write, which keeps what the separate statements' lock after it
 * kept (decision 27): a deletion that committed before is seen here and refused; one that has
 * marked its row and not committed makes the lock wait, after which the row is read again (its
 * newest version) and found deleted; one that comes later waits for this statement's transaction
 * and then sees the stock it wrote. Nothing is written when a check fails: the insert selects
 * from the checks, and a failed check gives it no row.
 */
export class ReceiptRepository {
  private readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  /** The receipt of `line` at `at` (PostgreSQL only): what the statement found, and the level after it. */
  async receive(
    line: LevelKey & { quantity: number; reference: string | null },
    at: string,
  ): Promise<ReceiptOutcome> {
    receipt ??= receiptStatement(this.db);
    const { rows } = await this.db.executeQuery(
      receipt({
        article: line.articleNo,
        size: line.sizex,
        location: line.locationCode,
        quantity: line.quantity,
        reference: line.reference,
        at,
      }),
    );
    const row = rows[0] as ReceiptRow;
    const outcome: ReceiptOutcome = {
      location: Number(row.location) > 0,
      article: Number(row.article) > 0,
      size: Number(row.size) > 0,
    };
    if (row.on_hand !== null) {
      outcome.level = {
        article_no: line.articleNo,
        sizex: line.sizex,
        location_code: line.locationCode,
        on_hand: Number(row.on_hand),
        reserved: Number(row.reserved),
        scn: Number(row.scn),
      };
    }
    return outcome;
  }
}

/** Built and compiled once (its SQL is the same for every PostgreSQL connection). */
let receipt: ((values: ReceiptValues) => CompiledQuery<ReceiptRow>) | undefined;

function receiptStatement(db: Kysely<DB>) {
  return compiledOnce<ReceiptValues, ReceiptRow>(
    ['article', 'size', 'location', 'quantity', 'reference', 'at'],
    (v) => {
      const location = db
        .selectFrom('stock_location')
        .select('code')
        .where('code', '=', v.location)
        .where('deleted', '=', 0)
        .forShare();
      const article = articleFlags(db)
        .where('article_no', '=', v.article)
        .where('deleted', '=', 0)
        .forShare();
      const size = articleSizePositions(db).where('article_no', '=', v.article).where('sizex', '=', v.size);
      const statement = sql<ReceiptRow>`
        WITH loc AS (${location}), art AS (${article}), sz AS (${size}),
        lvl AS (
          INSERT INTO stock_level (article_no, sizex, location_code, on_hand, reserved, scn)
          SELECT art.article_no, sz.sizex, loc.code, cast(${v.quantity} AS integer), 0, ${transactionScnSql}
          FROM loc, art, sz
          ON CONFLICT (article_no, sizex, location_code)
          DO UPDATE SET on_hand = stock_level.on_hand + excluded.on_hand, scn = excluded.scn
          RETURNING on_hand, reserved, scn
        ),
        mv AS (
          INSERT INTO stock_movement
            (scn, article_no, sizex, location_code, reason, on_hand_delta, reserved_delta, reference, created_at)
          SELECT lvl.scn, cast(${v.article} AS text), cast(${v.size} AS text), cast(${v.location} AS text),
            'RECEIPT', cast(${v.quantity} AS integer), 0,
            cast(${v.reference} AS text), cast(${v.at} AS text)
          FROM lvl
        )
        SELECT (SELECT count(*) FROM loc) AS location, (SELECT count(*) FROM art) AS article,
          (SELECT count(*) FROM sz) AS size, lvl.on_hand, lvl.reserved, lvl.scn
        FROM (SELECT 1) AS one LEFT JOIN lvl ON true`;
      return { compile: () => statement.compile(db) };
    },
  );
}
