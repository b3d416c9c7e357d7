import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { type FieldError, ValidationError, withRoot } from '../../kernel/errors.ts';
import { feedPage } from '../../kernel/feed-page.ts';
import type { Page, PageOf } from '../../kernel/paging.ts';
import { fail, liveCustomer, type WriteResult } from './customer-common.ts';
import { CustomerRepository, type CustomerRow, type Positioned } from './customer-repository.ts';
import { type AddressInput, checkAddress, normaliseRepresentative } from './customer-validation.ts';
import { type AddressWire, addressToWire, type CustomerWire, customerToWire } from './customer-wire.ts';
import {
  type CheckedPatch,
  type CustomerDetailsInput,
  type CustomerPatch,
  checkPatch,
  nextCustomerNo,
  type Plan,
  planCustomerRow,
  planCustomerWrite,
  withDefaults,
} from './customer-write-plan.ts';
import { CUSTOMERS_ERRORS } from './errors.ts';

export interface PostedCustomer {
  customerNo: number;
  created: boolean;
  scn: number | null;
  customer: CustomerWire;
}

export interface PostedAddress {
  customerNo: number;
  addressNo: number;
  created: boolean;
  scn: number | null;
  address: AddressWire;
}

export interface WriteOptions {
  /**
   * The caller is confined to this customer: it may change its own names, VAT number, language and
   * addresses, but its commercial terms only to what they already are.
   */
  confinedTo?: number | null;
}

/**
 * The wholesale customers (docs/customers.md) with their addresses; representatives and
 * customer-article links have their own services beside this one. Every write is one transaction
 * and stamps what it changes with one SCN; a write that changes nothing leaves the SCN where it was.
 */
export class CustomerService {
  readonly #read: CustomerRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new CustomerRepository(database.db);
  }

  // --- reads ------------------------------------------------------------------------------------

  /**
   * B2B_GetAllCustomers: customers with their addresses, in position order (customer-number order for
   * those created before positions, then creation order): the live ones, or those changed after the
   * page's SCN.
   */
  listCustomers(page: Page, filter: { customerNo?: number } = {}): Promise<PageOf<CustomerWire, number>> {
    return this.#customerPage(
      page,
      (sinceScn, from, limit) => this.#read.customersPage(sinceScn, from, limit, filter),
      (r) => r.deleted === 0,
    );
  }

  /**
   * B2B_GetRepresentativeCustomers: the customers of a representative. In a feed, customers that
   * changed and are no longer its (moved to another representative, deleted) come under DELETED.
   */
  async listRepresentativeCustomers(
    code: string,
    page: Page,
    filter: { customerNo?: number } = {},
  ): Promise<PageOf<CustomerWire, number>> {
    const rep = await this.#read.findRepresentative(normaliseRepresentative(code));
    if (!rep || rep.deleted === 1) {
      throw CUSTOMERS_ERRORS.REPRESENTATIVE_NOT_FOUND(`No representative "${code}".`);
    }
    return this.#customerPage(
      page,
      (sinceScn, from, limit) =>
        this.#read.representativeCustomersPage(rep.code, sinceScn, from, limit, filter),
      (r) => r.deleted === 0 && r.member === 1,
    );
  }

  #customerPage<R extends Positioned<CustomerRow>>(
    page: Page,
    rows: (sinceScn: number, from: number, limit: number) => Promise<R[]>,
    visible: (row: R) => boolean,
  ): Promise<PageOf<CustomerWire, number>> {
    return feedPage(this.database.db, page, {
      rows,
      position: (r) => r.pos,
      live: visible,
      items: async (live) => {
        const addresses = await this.#read.addressesOf(
          live.map((c) => c.customer_no),
          true,
        );
        return live.map((c) => customerToWire(c, addresses));
      },
      deletedKey: (c) => c.customer_no,
    });
  }

  /** One customer with its addresses; a deleted or unknown one is 404 CUSTOMER_NOT_FOUND. */
  async getCustomer(customerNo: number): Promise<CustomerWire> {
    const row = await liveCustomer(this.#read, customerNo);
    return customerToWire(row, await this.#read.addressesOf([customerNo], true));
  }

  /** The number of the customer with an external key (404 CUSTOMER_NOT_FOUND when none). */
  async customerNoByExternalKey(key: string): Promise<number> {
    const customerNo = await this.#read.customerNoByExternalKey(key);
    if (customerNo === undefined) {
      throw CUSTOMERS_ERRORS.CUSTOMER_NOT_FOUND(`No customer with external key "${key}".`);
    }
    const row = await this.#read.findCustomer(customerNo);
    if (!row || row.deleted === 1) {
      throw CUSTOMERS_ERRORS.CUSTOMER_NOT_FOUND(`No customer with external key "${key}".`);
    }
    return customerNo;
  }

  /** The representative code of a customer (null for none); 404 for an unknown customer. */
  async representativeOf(customerNo: number): Promise<string | null> {
    return (await liveCustomer(this.#read, customerNo)).representative_code;
  }

  // --- customer writes --------------------------------------------------------------------------
  //
  // Pattern (as in pricing): plan the write from what is stored; when nothing differs, end without
  // an SCN. Otherwise take the SCN (on PostgreSQL this holds the counter's row lock, so no other
  // synchronised writer is between its SCN and its commit), plan again under it and apply. The
  // second plan also picks new customer and address numbers safely.

  /**
   * B2B_PostCustomer: creates or changes one customer. With `customerNo` that customer (created
   * when unknown); without it, the customer with `externalKey`, or a new one with the next number.
   * A new customer needs name, price group and currency. Errors name the fields of the customer
   * record (`/VATNO`).
   */
  async postCustomer(patch: CustomerPatch, options: WriteOptions = {}): Promise<PostedCustomer> {
    const checked = checkPatch(patch);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const first = await this.#plan(repo, checked, false, options);
      if (!first.changed) {
        return {
          customerNo: first.customerNo,
          created: false,
          scn: null,
          customer: await this.#wireOf(repo, first.customerNo),
        };
      }
      const scn = await uow.scn();
      const plan = await this.#plan(repo, checked, false, options);
      await this.#apply(repo, plan, scn);
      return {
        customerNo: plan.customerNo,
        created: plan.created,
        scn,
        customer: await this.#wireOf(repo, plan.customerNo),
      };
    });
  }

  saveCustomerDetails(input: CustomerDetailsInput): Promise<WriteResult> {
    return this.saveCustomersDetails([input]);
  }

  /**
   * Creates or replaces whole customers (back office, import), all in one transaction: fields left
   * out take their defaults, delivery addresses not given are deleted (their numbers are not
   * reused), an address given without number that equals a live one keeps that one's number.
   * Errors name the record by its index first (`/3/VATNO`).
   */
  async saveCustomersDetails(inputs: CustomerDetailsInput[]): Promise<WriteResult> {
    const errors: FieldError[] = [];
    const seen = new Set<number>();
    const checked: CheckedPatch[] = [];
    for (const [i, input] of inputs.entries()) {
      try {
        checked.push(checkPatch(withDefaults(input)));
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        errors.push(...error.errors.map((e) => ({ ...e, name: `/${i}${e.name}` })));
      }
      if (seen.has(input.customerNo)) errors.push({ name: `/${i}/CUSTOMER`, message: 'repeats' });
      seen.add(input.customerNo);
      if (errors.length > 20) break;
    }
    fail(errors);
    if (inputs.length === 0) return { scn: null, changed: 0 };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      let any = false;
      for (const [i, c] of checked.entries()) {
        if ((await withRoot(`/${i}`, () => this.#plan(repo, c, true))).changed) {
          any = true;
          break;
        }
      }
      if (!any) return { scn: null, changed: 0 };
      const scn = await uow.scn();
      let changed = 0;
      for (const [i, c] of checked.entries()) {
        const plan = await withRoot(`/${i}`, () => this.#plan(repo, c, true));
        if (!plan.changed) continue;
        await this.#apply(repo, plan, scn);
        changed++;
      }
      return { scn, changed };
    });
  }

  /**
   * B2B_PostDeliveryAddress: changes delivery address `address.addressNo` of a customer or, without
   * a number, adds one with the next number. Adding an address equal to a live one answers that one
   * (nothing is added), so a retried add does not add twice. Errors name the fields of the address
   * record (`/POSTALCODE`).
   */
  async postDeliveryAddress(
    customerNo: number,
    address: AddressInput,
    options: WriteOptions = {},
  ): Promise<PostedAddress> {
    const errors: FieldError[] = [];
    if (address.addressNo === 0) {
      errors.push({
        name: '/EXTRAADDRESSNO',
        message: '0 is the invoice address; change it with B2B_PostCustomer ("INVOICE ADDRESSES")',
      });
    }
    const fields = checkAddress(errors, '/', address);
    fail(errors);
    const checked: CheckedPatch = {
      customerNo,
      row: {},
      delivery: [{ addressNo: address.addressNo, fields }],
    };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const check = async () => {
        await liveCustomer(repo, customerNo);
        if (address.addressNo !== undefined) {
          const stored = (await repo.addressesOf([customerNo], true)).find(
            (a) => a.address_no === address.addressNo,
          );
          if (!stored) {
            throw CUSTOMERS_ERRORS.ADDRESS_NOT_FOUND(
              `Customer ${customerNo} has no delivery address ${address.addressNo}.`,
            );
          }
        }
      };
      await check();
      let plan = await this.#plan(repo, checked, false, options);
      let scn: number | null = null;
      if (plan.changed) {
        scn = await uow.scn();
        await check();
        plan = await this.#plan(repo, checked, false, options);
        await this.#apply(repo, plan, scn);
      }
      const addressNo = plan.deliveryNos[0] as number;
      const row = (await repo.addressesOf([customerNo], true)).find((a) => a.address_no === addressNo);
      if (!row) throw new Error(`address ${customerNo}/${addressNo} vanished inside its transaction`);
      return {
        customerNo,
        addressNo,
        created: plan.deliveryAdded[0] === true,
        scn,
        address: addressToWire(row),
      };
    });
  }

  /**
   * Deletes a customer with everything that only means something with it: its article links and
   * its place in its representative's list go in the same transaction, so every feed reports them.
   */
  async deleteCustomer(customerNo: number): Promise<WriteResult> {
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const customer = await repo.findCustomer(customerNo);
      if (!customer || customer.deleted === 1) {
        throw CUSTOMERS_ERRORS.CUSTOMER_NOT_FOUND(`No customer ${customerNo}.`);
      }
      const scn = await uow.scn();
      const at = this.now().toISOString();
      await repo.softDeleteCustomer(customerNo, scn, at);
      for (const link of await repo.linksOfCustomer(customerNo)) {
        if (link.deleted === 0) await repo.upsertLink({ ...link, deleted: 1, scn, updated_at: at });
      }
      if (customer.representative_code)
        await repo.setMembership(customer.representative_code, customerNo, 1, scn);
      return { scn, changed: 1 };
    });
  }

  /** Deletes a delivery address (back office); its number is not given out again. */
  async deleteDeliveryAddress(customerNo: number, addressNo: number): Promise<WriteResult> {
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const find = async () => {
        await liveCustomer(repo, customerNo);
        const row = (await repo.addressesOf([customerNo], true)).find((a) => a.address_no === addressNo);
        if (!row || addressNo === 0) {
          throw CUSTOMERS_ERRORS.ADDRESS_NOT_FOUND(
            `Customer ${customerNo} has no delivery address ${addressNo}.`,
          );
        }
        return row;
      };
      await find();
      const scn = await uow.scn();
      const row = await find();
      const at = this.now().toISOString();
      await repo.upsertAddress({ ...row, deleted: 1, scn, updated_at: at });
      await repo.updateCustomer(customerNo, { scn, updated_at: at });
      return { scn, changed: 1 };
    });
  }

  /**
   * Works out one customer write against what is stored now (customer-write-plan.ts decides, this
   * reads what it needs). `whole`: the patch is a whole customer (delivery addresses not in it are
   * deleted). Reads only.
   */
  async #plan(
    repo: CustomerRepository,
    patch: CheckedPatch,
    whole: boolean,
    options: WriteOptions = {},
  ): Promise<Plan> {
    // Which customer.
    let customerNo = patch.customerNo;
    if (customerNo === undefined && patch.row.external_key) {
      customerNo = await repo.customerNoByExternalKey(patch.row.external_key);
    }
    const stored = customerNo === undefined ? undefined : await repo.findCustomer(customerNo);
    if (customerNo === undefined) customerNo = nextCustomerNo(await repo.maxCustomerNo());
    const at = this.now().toISOString();
    const { row, live } = planCustomerRow(patch, customerNo, stored, options.confinedTo ?? null, at);

    if (row.representative_code !== null && row.representative_code !== stored?.representative_code) {
      const rep = await repo.findRepresentative(row.representative_code);
      if (!rep || rep.deleted === 1) {
        throw new ValidationError([
          { name: '/REPRESENTATIVE', message: `no representative "${row.representative_code}"` },
        ]);
      }
    }
    if (patch.row.external_key) {
      const owner = await repo.customerNoByExternalKey(patch.row.external_key);
      if (owner !== undefined && owner !== customerNo) {
        throw CUSTOMERS_ERRORS.EXTERNAL_KEY_TAKEN(
          `External key "${patch.row.external_key}" belongs to customer ${owner}.`,
        );
      }
    }
    const storedAddresses = stored ? await repo.addressesOf([customerNo]) : [];
    return planCustomerWrite({ patch, whole, row, live, stored, storedAddresses, at });
  }

  async #apply(repo: CustomerRepository, plan: Plan, scn: number): Promise<void> {
    const at = this.now().toISOString();
    const exists = (await repo.findCustomer(plan.customerNo)) !== undefined;
    const row = { ...plan.row, scn, updated_at: at };
    if (!exists) await repo.insertCustomer({ ...row, created_at: at });
    else await repo.updateCustomer(plan.customerNo, row);
    for (const a of plan.addressWrites) await repo.upsertAddress({ ...a, scn });
    const { from, to } = plan.representative;
    if (from !== to) {
      if (from !== null) await repo.setMembership(from, plan.customerNo, 1, scn);
      if (to !== null) await repo.setMembership(to, plan.customerNo, 0, scn);
    } else if (to !== null && plan.created) {
      await repo.setMembership(to, plan.customerNo, 0, scn);
    }
  }

  async #wireOf(repo: CustomerRepository, customerNo: number): Promise<CustomerWire> {
    const row = await liveCustomer(repo, customerNo);
    return customerToWire(row, await repo.addressesOf([customerNo], true));
  }
}
