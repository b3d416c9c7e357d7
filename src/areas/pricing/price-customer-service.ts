import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { type FieldError, NotFoundError } from '../../kernel/errors.ts';
import { type CustomerRow, PricingRepository } from './pricing-repository.ts';
import { checkBp, checkCode, checkCurrency, checkPositiveInt, fail, sameRow } from './pricing-rules.ts';
import { liveCustomer, type WriteResult } from './pricing-shared.ts';

export interface CustomerInput {
  customerNo: number;
  name: string;
  priceGroup: number;
  customerGroup?: string | null;
  currency: string;
  /** Basis points (250 = 2.5 %); default 0. */
  discountBp?: number;
  /** Default true. */
  active?: boolean;
}

/**
 * The wholesale customers' pricing terms (price group, customer group, currency, discount): the
 * minimal customer record prices are resolved against (docs/pricing.md).
 */
export class PriceCustomerService {
  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {}

  customer(customerNo: number): Promise<CustomerRow> {
    return liveCustomer(new PricingRepository(this.database.db), customerNo);
  }

  saveCustomer(input: CustomerInput): Promise<WriteResult> {
    return this.saveCustomers([input]);
  }

  /** Creates or replaces customers (all in one transaction); unchanged ones are skipped. */
  async saveCustomers(inputs: CustomerInput[]): Promise<WriteResult> {
    const errors: FieldError[] = [];
    const seen = new Set<number>();
    for (const [i, c] of inputs.entries()) {
      const at = `${i}/`;
      checkPositiveInt(errors, `${at}customerNo`, c.customerNo);
      if (seen.has(c.customerNo)) errors.push({ name: `${at}customerNo`, message: 'repeats' });
      seen.add(c.customerNo);
      if (typeof c.name !== 'string' || c.name.trim() === '' || c.name.length > 100) {
        errors.push({ name: `${at}name`, message: 'a name is 1 to 100 characters' });
      }
      checkPositiveInt(errors, `${at}priceGroup`, c.priceGroup, 9999);
      if (c.customerGroup != null) checkCode(errors, `${at}customerGroup`, c.customerGroup);
      checkCurrency(errors, `${at}currency`, c.currency);
      checkBp(errors, `${at}discountBp`, c.discountBp ?? 0);
    }
    fail(errors);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      const at = this.now().toISOString();
      const wanted = (scn: number): CustomerRow[] =>
        inputs.map((c) => ({
          customer_no: c.customerNo,
          name: c.name.trim(),
          price_group: c.priceGroup,
          customer_group: c.customerGroup ?? null,
          currency: c.currency,
          discount_bp: c.discountBp ?? 0,
          active: c.active === false ? 0 : 1,
          deleted: 0,
          scn,
          created_at: at,
          updated_at: at,
        }));
      const changedOf = async () => {
        const stored = new Map(
          (await repo.findCustomers(inputs.map((c) => c.customerNo))).map((r) => [r.customer_no, r]),
        );
        return wanted(0).filter((w) => {
          const s = stored.get(w.customer_no);
          return !s || !sameRow(w, s, ['scn', 'created_at', 'updated_at']);
        });
      };
      if ((await changedOf()).length === 0) return { scn: null, changed: 0 };
      const scn = await uow.scn();
      const changed = new Set((await changedOf()).map((c) => c.customer_no));
      for (const row of wanted(scn)) if (changed.has(row.customer_no)) await repo.upsertCustomer(row);
      return { scn, changed: changed.size };
    });
  }

  /** Deletes a customer (the row stays as the tombstone); its agreements and line discounts stay. */
  async deleteCustomer(customerNo: number): Promise<WriteResult> {
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new PricingRepository(uow.db);
      await liveCustomer(repo, customerNo);
      const scn = await uow.scn();
      if (!(await repo.softDeleteCustomer(customerNo, scn, this.now().toISOString()))) {
        throw new NotFoundError('CUSTOMER_NOT_FOUND', `No customer ${customerNo}.`);
      }
      return { scn, changed: 1 };
    });
  }
}
