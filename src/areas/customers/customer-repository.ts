import type { Kysely } from 'kysely';
import { MAX_PARTY_NO } from '../../kernel/access.ts';
import { changedAfter } from '../../kernel/db/feed-sql.ts';
import type { DB } from '../../kernel/db/schema.ts';
import type {
  CustomerAddressTable,
  CustomerArticleLinkTable,
  CustomerTable,
  RepresentativeTable,
} from './tables.ts';

/** A customer row with every column but its paging position (the database's: tables.ts). */
export type CustomerRow = Omit<CustomerTable, 'pos'>;

/** A row of a page: the record and its stable paging position (docs/architecture.md, "Paging"). */
export type Positioned<R> = R & { pos: number };

/** The pricing terms of a customer: the columns the pricing area reads and writes (customer-terms.ts). */
export type CustomerTermsRow = Pick<
  CustomerRow,
  | 'customer_no'
  | 'name'
  | 'price_group'
  | 'customer_group'
  | 'currency'
  | 'discount_bp'
  | 'active'
  | 'deleted'
  | 'scn'
  | 'created_at'
  | 'updated_at'
>;

/** The other columns of a customer created with its terms alone: the columns' defaults (0007_customers). */
const DETAILS_DEFAULTS = {
  external_key: null,
  name2: '',
  vat_no: '',
  language: 'LANGUAGE_1',
  payment_days: 30,
  credit_limit_minor: 0,
  representative_code: null,
} satisfies Omit<CustomerRow, keyof CustomerTermsRow>;

export type AddressRow = CustomerAddressTable;
export type RepresentativeRow = Omit<RepresentativeTable, 'pos'>;
export type ArticleLinkRow = Omit<CustomerArticleLinkTable, 'pos'>;

const CUSTOMER_COLUMNS = [
  'customer_no',
  'name',
  'price_group',
  'customer_group',
  'currency',
  'discount_bp',
  'active',
  'deleted',
  'scn',
  'created_at',
  'updated_at',
  'external_key',
  'name2',
  'vat_no',
  'language',
  'payment_days',
  'credit_limit_minor',
  'representative_code',
] as const;

/** Keys per IN list: well below both engines' parameter limits. */
const IN_CHUNK = 1000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The optional columns come back as the engine stores them; bigint money as a JS number. */
function toCustomerRow(r: Record<string, unknown>): CustomerRow {
  return {
    ...(r as unknown as CustomerRow),
    scn: Number(r.scn),
    credit_limit_minor: Number(r.credit_limit_minor ?? 0),
    external_key: (r.external_key as string | null | undefined) ?? null,
    name2: (r.name2 as string | undefined) ?? '',
    vat_no: (r.vat_no as string | undefined) ?? '',
    language: (r.language as string | undefined) ?? 'LANGUAGE_1',
    payment_days: Number(r.payment_days ?? 30),
    representative_code: (r.representative_code as string | null | undefined) ?? null,
  };
}

const num = <T extends { scn: number }>(r: T): T => ({ ...r, scn: Number(r.scn) });

/** A row read with selectAll, without its paging position (what is compared and written back). */
function unpositioned<T extends { scn: number; pos: number }>(r: T): Omit<T, 'pos'> {
  const { pos, ...rest } = r;
  return { ...rest, scn: Number(rest.scn) };
}

/** A page row: the engine's bigint position and SCN as JS numbers. */
const positioned = <T extends { scn: number; pos: number }>(r: T): T => ({
  ...r,
  scn: Number(r.scn),
  pos: Number(r.pos),
});

export interface CustomerFilter {
  customerNo?: number;
}

export interface LinkFilter {
  customerNo?: number;
  articleNo?: string;
  customerArticleNo?: string;
}

/**
 * The customers' pricing terms as a query fragment (a subquery over `customer`), for the pricing
 * area's price read, which takes a customer's terms in the same statement as the article's prices
 * (decision 26) rather than in a statement of its own before it: B2B_GetArticlePrice is one
 * statement. Filter it by `customer_no`; a deleted customer is among the rows (`deleted` 1).
 */
export function customerTermsFragment(db: Kysely<DB>) {
  return db
    .selectFrom('customer')
    .select(['customer_no', 'price_group', 'customer_group', 'currency', 'discount_bp', 'active', 'deleted']);
}

/** Every SQL statement of the customers area. */
export class CustomerRepository {
  private readonly db: Kysely<DB>;

  constructor(db: Kysely<DB>) {
    this.db = db;
  }

  // --- customers --------------------------------------------------------------------------------

  async findCustomer(customerNo: number): Promise<CustomerRow | undefined> {
    // The column is a 32-bit integer: a larger number is no customer (PostgreSQL would refuse it).
    if (!Number.isSafeInteger(customerNo) || customerNo < 0 || customerNo > MAX_PARTY_NO) return undefined;
    const row = await this.db
      .selectFrom('customer')
      .select(CUSTOMER_COLUMNS)
      .where('customer_no', '=', customerNo)
      .executeTakeFirst();
    return row && toCustomerRow(row);
  }

  async findCustomers(customerNos: readonly number[]): Promise<CustomerRow[]> {
    const out: CustomerRow[] = [];
    for (const part of chunks(customerNos, IN_CHUNK)) {
      const rows = await this.db
        .selectFrom('customer')
        .select(CUSTOMER_COLUMNS)
        .where('customer_no', 'in', part)
        .execute();
      out.push(...rows.map(toCustomerRow));
    }
    return out;
  }

  async customerNoByExternalKey(key: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('customer')
      .select('customer_no')
      .where('external_key', '=', key)
      .executeTakeFirst();
    return row?.customer_no;
  }

  async maxCustomerNo(): Promise<number> {
    const row = await this.db
      .selectFrom('customer')
      .select((eb) => eb.fn.max('customer_no').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  }

  /**
   * One page of customers in position order from position `from`: with `sinceScn` > 0 those changed
   * after it, tombstones included (the feed); with 0 the live ones only (the full list).
   */
  async customersPage(
    sinceScn: number,
    from: number,
    limit: number,
    filter: CustomerFilter = {},
  ): Promise<Positioned<CustomerRow>[]> {
    let q = this.db
      .selectFrom('customer')
      .select([...CUSTOMER_COLUMNS, 'pos'])
      .where('pos', '>=', from);
    q = sinceScn > 0 ? q.where(changedAfter('scn', sinceScn)) : q.where('deleted', '=', 0);
    if (filter.customerNo !== undefined) q = q.where('customer_no', '=', filter.customerNo);
    const rows = await q.orderBy('pos').limit(limit).execute();
    return rows.map((r) => ({ ...toCustomerRow(r), pos: Number(r.pos) }));
  }

  /**
   * One page of a representative's customers (ever assigned) in the position order of their
   * membership rows, from position `from`. With `sinceScn` > 0: those whose membership or customer
   * row changed after it (two index reads, one per table's SCN, united); `member` is 0 when the
   * customer moved away. With 0: the live customers it has now.
   */
  async representativeCustomersPage(
    code: string,
    sinceScn: number,
    from: number,
    limit: number,
    filter: CustomerFilter = {},
  ): Promise<Array<Positioned<CustomerRow> & { member: number }>> {
    const base = () => {
      let q = this.db
        .selectFrom('representative_customer as m')
        .innerJoin('customer as c', 'c.customer_no', 'm.customer_no')
        .select(CUSTOMER_COLUMNS.map((c) => `c.${c}` as const))
        .select(['m.deleted as member_deleted', 'm.pos as pos'])
        .where('m.representative_code', '=', code)
        .where('m.pos', '>=', from);
      if (filter.customerNo !== undefined) q = q.where('m.customer_no', '=', filter.customerNo);
      return q;
    };
    const q =
      sinceScn > 0
        ? base()
            .where(changedAfter('m.scn', sinceScn))
            .union(base().where(changedAfter('c.scn', sinceScn)))
        : base().where('m.deleted', '=', 0).where('c.deleted', '=', 0);
    const rows = await q.orderBy('pos').limit(limit).execute();
    return rows.map((r) => ({
      ...toCustomerRow(r),
      pos: Number(r.pos),
      member: r.member_deleted === 0 ? 1 : 0,
    }));
  }

  async insertCustomer(row: CustomerRow): Promise<void> {
    await this.db.insertInto('customer').values(row).execute();
  }

  async updateCustomer(customerNo: number, changes: Partial<CustomerRow>): Promise<void> {
    const { customer_no, created_at, ...rest } = changes;
    await this.db.updateTable('customer').set(rest).where('customer_no', '=', customerNo).execute();
  }

  /**
   * Creates a customer with its pricing terms (the other columns their defaults) or replaces the
   * terms of a stored one, leaving its other columns as they are.
   */
  async upsertCustomerTerms(row: CustomerTermsRow): Promise<void> {
    const { customer_no, created_at, ...changes } = row;
    await this.db
      .insertInto('customer')
      .values({ ...DETAILS_DEFAULTS, ...row })
      .onConflict((oc) => oc.column('customer_no').doUpdateSet(changes))
      .execute();
  }

  /** Flags a live customer deleted (and inactive); false when there is none. */
  async softDeleteCustomer(customerNo: number, scn: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('customer')
      .set({ deleted: 1, active: 0, scn, updated_at: at })
      .where('customer_no', '=', customerNo)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  // --- addresses --------------------------------------------------------------------------------

  /** Every address row (deleted ones included) of the given customers, in customer and number order. */
  async addressesOf(customerNos: readonly number[], liveOnly = false): Promise<AddressRow[]> {
    const out: AddressRow[] = [];
    for (const part of chunks(customerNos, IN_CHUNK)) {
      let q = this.db.selectFrom('customer_address').selectAll().where('customer_no', 'in', part);
      if (liveOnly) q = q.where('deleted', '=', 0);
      out.push(...(await q.orderBy('customer_no').orderBy('address_no').execute()).map(num));
    }
    return out;
  }

  async upsertAddress(row: AddressRow): Promise<void> {
    const { customer_no, address_no, created_at, ...changes } = row;
    await this.db
      .insertInto('customer_address')
      .values(row)
      .onConflict((oc) => oc.columns(['customer_no', 'address_no']).doUpdateSet(changes))
      .execute();
  }

  // --- representatives --------------------------------------------------------------------------

  async findRepresentative(code: string): Promise<RepresentativeRow | undefined> {
    const row = await this.db
      .selectFrom('representative')
      .selectAll()
      .where('code', '=', code)
      .executeTakeFirst();
    return row && unpositioned(row);
  }

  async findRepresentatives(codes: readonly string[]): Promise<RepresentativeRow[]> {
    const out: RepresentativeRow[] = [];
    for (const part of chunks(codes, IN_CHUNK)) {
      out.push(
        ...(await this.db.selectFrom('representative').selectAll().where('code', 'in', part).execute()).map(
          unpositioned,
        ),
      );
    }
    return out;
  }

  /** One page of representatives in position order from `from`: changed after `sinceScn`, or the live ones (0). */
  async representativesPage(
    sinceScn: number,
    from: number,
    limit: number,
  ): Promise<Positioned<RepresentativeRow>[]> {
    let q = this.db.selectFrom('representative').selectAll().where('pos', '>=', from);
    q = sinceScn > 0 ? q.where(changedAfter('scn', sinceScn)) : q.where('deleted', '=', 0);
    return (await q.orderBy('pos').limit(limit).execute()).map(positioned);
  }

  /**
   * The representatives one customer has or had, in the position order of the membership rows from
   * `from`: with `sinceScn` > 0 those whose row or membership changed after it (`member` is 0 for
   * one the customer no longer has), with 0 the live one it has now.
   */
  async representativesOfCustomerPage(
    customerNo: number,
    sinceScn: number,
    from: number,
    limit: number,
  ): Promise<Array<Positioned<RepresentativeRow> & { member: number }>> {
    const base = () =>
      this.db
        .selectFrom('representative_customer as m')
        .innerJoin('representative as r', 'r.code', 'm.representative_code')
        .select([
          'r.code',
          'r.name',
          'r.email',
          'r.phone',
          'r.active',
          'r.deleted',
          'r.scn',
          'r.created_at',
          'r.updated_at',
          'm.deleted as member_deleted',
          'm.pos as pos',
        ])
        .where('m.customer_no', '=', customerNo)
        .where('m.pos', '>=', from);
    const q =
      sinceScn > 0
        ? base()
            .where(changedAfter('m.scn', sinceScn))
            .union(base().where(changedAfter('r.scn', sinceScn)))
        : base().where('m.deleted', '=', 0).where('r.deleted', '=', 0);
    const rows = await q.orderBy('pos').limit(limit).execute();
    return rows.map(({ member_deleted, ...r }) => ({
      ...positioned(r),
      member: member_deleted === 0 ? 1 : 0,
    }));
  }

  async upsertRepresentative(row: RepresentativeRow): Promise<void> {
    const { code, created_at, ...changes } = row;
    await this.db
      .insertInto('representative')
      .values(row)
      .onConflict((oc) => oc.column('code').doUpdateSet(changes))
      .execute();
  }

  async liveCustomersOfRepresentative(code: string): Promise<number> {
    const row = await this.db
      .selectFrom('customer')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('representative_code', '=', code)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Records that `customerNo` is (deleted = 0) or no longer is (deleted = 1) one of `code`'s customers. */
  async setMembership(code: string, customerNo: number, deleted: number, scn: number): Promise<void> {
    await this.db
      .insertInto('representative_customer')
      .values({ representative_code: code, customer_no: customerNo, deleted, scn })
      .onConflict((oc) => oc.columns(['representative_code', 'customer_no']).doUpdateSet({ deleted, scn }))
      .execute();
  }

  // --- customer-article links -------------------------------------------------------------------

  /** Every link row (deleted ones included) of one customer. */
  async linksOfCustomer(customerNo: number): Promise<ArticleLinkRow[]> {
    const rows = await this.db
      .selectFrom('customer_article_link')
      .selectAll()
      .where('customer_no', '=', customerNo)
      .execute();
    return rows.map(unpositioned);
  }

  /**
   * One page of links in position order from `from`: with `sinceScn` > 0 those changed after it,
   * tombstones included; with 0 the live ones.
   */
  async linksPage(
    sinceScn: number,
    from: number,
    limit: number,
    filter: LinkFilter = {},
  ): Promise<Positioned<ArticleLinkRow>[]> {
    let q = this.db.selectFrom('customer_article_link').selectAll().where('pos', '>=', from);
    q = sinceScn > 0 ? q.where(changedAfter('scn', sinceScn)) : q.where('deleted', '=', 0);
    if (filter.customerNo !== undefined) q = q.where('customer_no', '=', filter.customerNo);
    if (filter.articleNo !== undefined) q = q.where('article_no', '=', filter.articleNo);
    if (filter.customerArticleNo !== undefined) {
      q = q.where('customer_article_no', '=', filter.customerArticleNo);
    }
    return (await q.orderBy('pos').limit(limit).execute()).map(positioned);
  }

  async upsertLink(row: ArticleLinkRow): Promise<void> {
    const { customer_no, article_no, created_at, ...changes } = row;
    await this.db
      .insertInto('customer_article_link')
      .values(row)
      .onConflict((oc) => oc.columns(['customer_no', 'article_no']).doUpdateSet(changes))
      .execute();
  }
}
