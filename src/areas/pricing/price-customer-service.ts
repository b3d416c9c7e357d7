import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import type { FieldError } from '../../kernel/errors.ts';
import { type CustomerTerms, liveCustomerTerms, saveCustomerTermsIn } from '../customers/index.ts';
import { checkBp, fail } from './pricing-rules.ts';
import type { WriteResult } from './pricing-shared.ts';

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
 * The wholesale customers' pricing terms (price group, customer group, currency, discount): what
 * prices are resolved against (docs/pricing.md). The terms are checked here by the pricing rules;
 * the customers area, which owns customers, stores and reads them (customers/customer-terms.ts).
 */
export class PriceCustomerService {
  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
  }

  /** The terms of a live customer; 404 CUSTOMER_NOT_FOUND for a deleted or unknown one. */
  customer(customerNo: number): Promise<CustomerTerms> {
    return liveCustomerTerms(this.database.db, customerNo);
  }

  saveCustomer(input: CustomerInput): Promise<WriteResult> {
    return this.saveCustomers([input]);
  }

  /**
   * Creates customers or replaces their terms (all in one transaction); unchanged ones are skipped.
   * The shape of each record is the request schema's (CustomerBody); here a customer given twice
   * and the discount's range, named by the record's index (`/3/DISCOUNTPERC`).
   */
  async saveCustomers(inputs: CustomerInput[]): Promise<WriteResult> {
    const errors: FieldError[] = [];
    const seen = new Set<number>();
    for (const [i, c] of inputs.entries()) {
      if (seen.has(c.customerNo)) errors.push({ name: `/${i}/CUSTOMER`, message: 'repeats' });
      seen.add(c.customerNo);
      checkBp(errors, `/${i}/DISCOUNTPERC`, c.discountBp ?? 0);
    }
    fail(errors);
    const terms = inputs.map((c) => ({
      customer_no: c.customerNo,
      name: c.name.trim(),
      price_group: c.priceGroup,
      customer_group: c.customerGroup ?? null,
      currency: c.currency,
      discount_bp: c.discountBp ?? 0,
      active: c.active === false ? 0 : 1,
    }));
    return inWriteTransaction(this.database, (uow) =>
      saveCustomerTermsIn(uow, terms, this.now().toISOString()),
    );
  }
}
