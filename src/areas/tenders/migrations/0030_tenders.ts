import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../../kernel/db/engine.ts';
import { addPositionColumn } from '../../../kernel/db/position.ts';

/**
 * Tenders as ledgers (docs/tenders.md, decision "Tenders as ledgers"): a tender (gift voucher,
 * credit-note voucher, client cheque, bonus card) with its balance, and its entries. The balance is
 * the sum of the entries; it changes only together with an entry, by one conditional UPDATE, and the
 * database refuses a negative one (CHECK). An entry is unique per (tender, kind, reference), which
 * makes every posting exactly-once. Money in integer minor units; days and instants as text.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? sql`bigserial` : sql`integer`;
  await db.schema
    .createTable('tender')
    .addColumn('id', id, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('client_no', 'integer')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('valid_until', 'text', (c) => c.notNull())
    .addColumn('blocked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('balance', 'bigint', (c) => c.notNull())
    .addColumn('issued_amount', 'bigint', (c) => c.notNull())
    .addColumn('web_id', 'text')
    .addColumn('email', 'text')
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint(
      'tender_kind',
      sql`kind in ('GIFT_VOUCHER', 'CREDIT_NOTE_VOUCHER', 'CLIENT_CHEQUE', 'BONUS_CARD')`,
    )
    // The last line of defence against spending twice: whatever a statement does, no balance below 0.
    .addCheckConstraint('tender_balance_not_negative', sql`balance >= 0`)
    .addCheckConstraint('tender_blocked_flag', sql`blocked in (0, 1)`)
    .execute();
  await db.schema.createIndex('tender_code').on('tender').column('code').unique().execute();
  // Exactly one tender per issuing request (WEBID) and kind; NULLs (no WEBID) never clash.
  await db.schema.createIndex('tender_web_id').on('tender').columns(['kind', 'web_id']).unique().execute();
  await db.schema.createIndex('tender_client').on('tender').columns(['client_no', 'kind']).execute();
  await db.schema.createIndex('tender_scn').on('tender').column('scn').execute();
  await addPositionColumn(db, engine, 'tender', ['id']);

  await db.schema
    .createTable('tender_entry')
    .addColumn('id', id, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('tender_id', 'bigint', (c) => c.notNull().references('tender.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('scn', 'bigint', (c) => c.notNull())
    .addCheckConstraint(
      'tender_entry_kind_sign',
      sql`(kind in ('ISSUE', 'REFUND_CREDIT') and amount > 0) or (kind in ('REDEEM', 'EXPIRE') and amount < 0) or (kind = 'ADJUST' and amount <> 0)`,
    )
    .execute();
  // Exactly once: one entry per tender, kind and reference (a cashing's reference, an issue's WEBID).
  await db.schema
    .createIndex('tender_entry_once')
    .on('tender_entry')
    .columns(['tender_id', 'kind', 'reference'])
    .unique()
    .execute();
  await db.schema.createIndex('tender_entry_scn').on('tender_entry').column('scn').execute();

  // Failed voucher checks per caller in the current window (the throttle of B2C_ValidateVoucher).
  await db.schema
    .createTable('tender_check_failure')
    .addColumn('caller', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .execute();
}
