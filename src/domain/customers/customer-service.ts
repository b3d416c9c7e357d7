import type { Database } from '../../db/database.ts';
import { currentScn, inWriteTransaction } from '../../db/unit-of-work.ts';
import { ConflictError, type FieldError, ForbiddenError, NotFoundError, ValidationError } from '../errors.ts';
import { PricingRepository } from '../pricing/pricing-repository.ts';
import type { Page, PageOf } from '../shared/paging.ts';
import {
  type AddressRow,
  type ArticleLinkRow,
  CustomerRepository,
  type CustomerRow,
  type LinkFilter,
  type RepresentativeRow,
} from './customer-repository.ts';
import {
  type AddressFields,
  type AddressInput,
  checkAddress,
  checkCredit,
  checkCurrency,
  checkCustomerGroup,
  checkDiscount,
  checkExternalKey,
  checkLanguage,
  checkName,
  checkOptionalEmail,
  checkOptionalPhone,
  checkRepresentativeCode,
  checkVat,
  checkWhole,
  type InvoiceAddressInput,
  normaliseRepresentative,
  sameAddress,
} from './customer-validation.ts';
import {
  type AddressWire,
  type ArticleLinkKeyWire,
  type ArticleLinkWire,
  addressToWire,
  articleLinkKeyToWire,
  articleLinkToWire,
  type CustomerWire,
  customerToWire,
  type RepresentativeWire,
  representativeToWire,
} from './customer-wire.ts';

export type { AddressInput, InvoiceAddressInput } from './customer-validation.ts';

/**
 * A change to a customer (B2B_PostCustomer): fields left out keep their value. Money in minor
 * units, percentages in basis points. Addresses are always given whole.
 */
export interface CustomerPatch {
  /** Absent: the customer with `externalKey`, or else a new customer with the next free number. */
  customerNo?: number;
  externalKey?: string | null;
  name?: string;
  /** Name 2 / trade name. */
  name2?: string;
  vatNo?: string;
  /** A language slot, LANGUAGE_1 ... */
  language?: string;
  currency?: string;
  priceGroup?: number;
  customerGroup?: string | null;
  discountBp?: number;
  paymentDays?: number;
  creditLimitMinor?: number;
  /** Representative code; null for none. */
  representative?: string | null;
  active?: boolean;
  /** Replaces the invoice address (number 0); null removes it. */
  invoiceAddress?: InvoiceAddressInput | null;
  /** Each one changes the delivery address with its addressNo or, without one, is added. */
  deliveryAddresses?: AddressInput[];
}

/**
 * A whole customer (back office, `tv2 import customerdetails`): what is left out takes its default,
 * and delivery addresses not given are deleted.
 */
export interface CustomerDetailsInput extends CustomerPatch {
  customerNo: number;
  name: string;
  priceGroup: number;
  currency: string;
}

export interface RepresentativeInput {
  code: string;
  name: string;
  email?: string;
  phone?: string;
  /** Default true. */
  active?: boolean;
}

export interface ArticleLinkKey {
  customerNo: number;
  articleNo: string;
}

export interface ArticleLinkInput extends ArticleLinkKey {
  /** The customer's own article number for our article; unique among the customer's links. */
  customerArticleNo: string;
  customerDescription?: string;
  customerBarcode?: string | null;
}

/** What a write did: the SCN it stamped, null when nothing changed (and the SCN did not move). */
export interface WriteResult {
  scn: number | null;
  changed: number;
}

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

const FIRST_CUSTOMER_NO = 10001;
const MAX_CUSTOMER_NO = 2_147_483_647;
const MAX_DELIVERY_ADDRESSES = 999;

/** The commercial terms a customer's own token cannot change (columns and the wire field names). */
const TERMS: ReadonlyArray<[keyof CustomerRow, string]> = [
  ['external_key', 'externalKey'],
  ['currency', 'currency'],
  ['price_group', 'priceGroup'],
  ['customer_group', 'customerGroup'],
  ['discount_bp', 'discountBp'],
  ['payment_days', 'paymentDays'],
  ['credit_limit_minor', 'creditLimitMinor'],
  ['representative_code', 'representative'],
  ['active', 'active'],
];

const CUSTOMER_CONTENT: ReadonlyArray<keyof CustomerRow> = [
  'name',
  'price_group',
  'customer_group',
  'currency',
  'discount_bp',
  'active',
  'deleted',
  'external_key',
  'name2',
  'vat_no',
  'language',
  'payment_days',
  'credit_limit_minor',
  'representative_code',
];

function fail(errors: FieldError[]): void {
  if (errors.length > 0) throw new ValidationError(errors);
}

/** Runs `work` and puts `prefix` before the names of its validation errors (`3/` for row 3 of a batch). */
async function prefixed<T>(prefix: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ValidationError) || prefix === '') throw error;
    throw new ValidationError(
      error.errors.map((e) => ({ ...e, name: `${prefix}${e.name}` })),
      error.code,
    );
  }
}

/** A patch checked and normalised: the fields given, in the stored form. */
interface CheckedPatch {
  customerNo?: number;
  row: Partial<CustomerRow>;
  invoice?: AddressFields | null;
  delivery?: Array<{ addressNo?: number; fields: AddressFields }>;
}

/** What one customer write will do, computed from the stored state (see `#plan`). */
interface Plan {
  customerNo: number;
  created: boolean;
  /** The customer row as it should be (scn and timestamps filled in by `apply`). */
  row: CustomerRow;
  customerChanged: boolean;
  addressWrites: AddressRow[];
  /** The number each given delivery address got, and whether it was added. */
  deliveryNos: number[];
  deliveryAdded: boolean[];
  representative: { from: string | null; to: string | null };
  changed: boolean;
}

/**
 * The wholesale customers area (docs/customers.md): customers with their addresses,
 * representatives and customer-article links. Every write is one transaction and stamps what it
 * changes with one SCN; a write that changes nothing leaves the SCN where it was.
 */
export class CustomerService {
  readonly #read: CustomerRepository;

  constructor(
    readonly database: Database,
    readonly now: () => Date = () => new Date(),
  ) {
    this.#read = new CustomerRepository(database.db);
  }

  // --- reads ------------------------------------------------------------------------------------

  /** B2B_GetAllCustomers: customers changed after the page's SCN in number order, with their addresses. */
  async listCustomers(
    page: Page,
    filter: { customerNo?: number } = {},
  ): Promise<PageOf<CustomerWire, number>> {
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.customersPage(page.sinceScn, page.offset - 1, page.limit + 1, filter);
    return this.#customerPage(
      scn,
      page,
      rows,
      rows.map((r) => r.deleted === 0),
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
      throw new NotFoundError('REPRESENTATIVE_NOT_FOUND', `No representative "${code}".`);
    }
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.representativeCustomersPage(
      rep.code,
      page.sinceScn,
      page.offset - 1,
      page.limit + 1,
      filter,
    );
    return this.#customerPage(
      scn,
      page,
      rows,
      rows.map((r) => r.deleted === 0 && r.member === 1),
    );
  }

  async #customerPage(
    scn: number,
    page: Page,
    rows: CustomerRow[],
    visible: boolean[],
  ): Promise<PageOf<CustomerWire, number>> {
    const more = rows.length > page.limit;
    const slice = more ? rows.slice(0, page.limit) : rows;
    const live = slice.filter((_, i) => visible[i]);
    const addresses = await this.#read.addressesOf(
      live.map((c) => c.customer_no),
      true,
    );
    return {
      scn,
      nextOffset: more ? page.offset + page.limit : null,
      items: live.map((c) => customerToWire(c, addresses)),
      deleted: page.sinceScn > 0 ? slice.filter((_, i) => !visible[i]).map((c) => c.customer_no) : [],
    };
  }

  /** One customer with its addresses; a deleted or unknown one is 404 CUSTOMER_NOT_FOUND. */
  async getCustomer(customerNo: number): Promise<CustomerWire> {
    const row = await this.#liveCustomer(this.#read, customerNo);
    return customerToWire(row, await this.#read.addressesOf([customerNo], true));
  }

  /** The number of the customer with an external key (404 CUSTOMER_NOT_FOUND when none). */
  async customerNoByExternalKey(key: string): Promise<number> {
    const customerNo = await this.#read.customerNoByExternalKey(key);
    if (customerNo === undefined) {
      throw new NotFoundError('CUSTOMER_NOT_FOUND', `No customer with external key "${key}".`);
    }
    const row = await this.#read.findCustomer(customerNo);
    if (!row || row.deleted === 1) {
      throw new NotFoundError('CUSTOMER_NOT_FOUND', `No customer with external key "${key}".`);
    }
    return customerNo;
  }

  /** The representative code of a customer (null for none); 404 for an unknown customer. */
  async representativeOf(customerNo: number): Promise<string | null> {
    return (await this.#liveCustomer(this.#read, customerNo)).representative_code;
  }

  /**
   * B2B_GetRepresentatives: representatives changed after the page's SCN in code order. With a
   * customer number, only the representative that customer has; one it no longer has (or that was
   * deleted) comes under DELETED in a feed.
   */
  async listRepresentatives(
    page: Page,
    filter: { customerNo?: number } = {},
  ): Promise<PageOf<RepresentativeWire, string>> {
    const scn = await currentScn(this.database.db);
    const rows =
      filter.customerNo === undefined
        ? (await this.#read.representativesPage(page.sinceScn, page.offset - 1, page.limit + 1)).map((r) => ({
            ...r,
            member: 1,
          }))
        : await this.#read.representativesOfCustomerPage(
            filter.customerNo,
            page.sinceScn,
            page.offset - 1,
            page.limit + 1,
          );
    const more = rows.length > page.limit;
    const slice = more ? rows.slice(0, page.limit) : rows;
    const visible = (r: RepresentativeRow & { member: number }) => r.deleted === 0 && r.member === 1;
    return {
      scn,
      nextOffset: more ? page.offset + page.limit : null,
      items: slice.filter(visible).map(representativeToWire),
      deleted: page.sinceScn > 0 ? slice.filter((r) => !visible(r)).map((r) => r.code) : [],
    };
  }

  async getRepresentative(code: string): Promise<RepresentativeWire> {
    const row = await this.#read.findRepresentative(normaliseRepresentative(code));
    if (!row || row.deleted === 1) {
      throw new NotFoundError('REPRESENTATIVE_NOT_FOUND', `No representative "${code}".`);
    }
    return representativeToWire(row);
  }

  /**
   * B2B_GetAllCustomerArticleLink / B2B_GetCustomerArticleLink: links changed after the page's SCN
   * in customer and article order; with a customer number, that (existing) customer's only.
   */
  async listArticleLinks(
    page: Page,
    filter: LinkFilter = {},
  ): Promise<PageOf<ArticleLinkWire, ArticleLinkKeyWire>> {
    if (filter.customerNo !== undefined) await this.#liveCustomer(this.#read, filter.customerNo);
    const scn = await currentScn(this.database.db);
    const rows = await this.#read.linksPage(page.sinceScn, page.offset - 1, page.limit + 1, filter);
    const more = rows.length > page.limit;
    const slice = more ? rows.slice(0, page.limit) : rows;
    return {
      scn,
      nextOffset: more ? page.offset + page.limit : null,
      items: slice.filter((r) => r.deleted === 0).map(articleLinkToWire),
      deleted: page.sinceScn > 0 ? slice.filter((r) => r.deleted === 1).map(articleLinkKeyToWire) : [],
    };
  }

  async #liveCustomer(repo: CustomerRepository, customerNo: number): Promise<CustomerRow> {
    const row = await repo.findCustomer(customerNo);
    if (!row || row.deleted === 1)
      throw new NotFoundError('CUSTOMER_NOT_FOUND', `No customer ${customerNo}.`);
    return row;
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
   * A new customer needs name, price group and currency.
   */
  async postCustomer(patch: CustomerPatch, options: WriteOptions = {}): Promise<PostedCustomer> {
    const checked = this.#checkPatch(patch, false);
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
   */
  async saveCustomersDetails(inputs: CustomerDetailsInput[]): Promise<WriteResult> {
    const errors: FieldError[] = [];
    const seen = new Set<number>();
    const checked: CheckedPatch[] = [];
    for (const [i, input] of inputs.entries()) {
      try {
        checked.push(this.#checkPatch(withDefaults(input), true));
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        errors.push(...error.errors.map((e) => ({ ...e, name: `${i}/${e.name}` })));
      }
      if (seen.has(input.customerNo)) errors.push({ name: `${i}/customerNo`, message: 'repeats' });
      seen.add(input.customerNo);
      if (errors.length > 20) break;
    }
    fail(errors);
    if (inputs.length === 0) return { scn: null, changed: 0 };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      let any = false;
      for (const [i, c] of checked.entries()) {
        if ((await prefixed(`${i}/`, () => this.#plan(repo, c, true))).changed) {
          any = true;
          break;
        }
      }
      if (!any) return { scn: null, changed: 0 };
      const scn = await uow.scn();
      let changed = 0;
      for (const [i, c] of checked.entries()) {
        const plan = await prefixed(`${i}/`, () => this.#plan(repo, c, true));
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
   * (nothing is added), so a retried add does not add twice.
   */
  async postDeliveryAddress(
    customerNo: number,
    address: AddressInput,
    options: WriteOptions = {},
  ): Promise<PostedAddress> {
    const errors: FieldError[] = [];
    if (address.addressNo === 0) {
      errors.push({
        name: 'addressNo',
        message: '0 is the invoice address; change it with B2B_PostCustomer ("INVOICE ADDRESSES")',
      });
    } else if (address.addressNo !== undefined) {
      checkWhole(errors, 'addressNo', address.addressNo, 1, MAX_DELIVERY_ADDRESSES);
    }
    const fields = checkAddress(errors, '', address);
    fail(errors);
    const checked: CheckedPatch = {
      customerNo,
      row: {},
      delivery: [{ addressNo: address.addressNo, fields }],
    };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const check = async () => {
        await this.#liveCustomer(repo, customerNo);
        if (address.addressNo !== undefined) {
          const stored = (await repo.addressesOf([customerNo], true)).find(
            (a) => a.address_no === address.addressNo,
          );
          if (!stored) {
            throw new NotFoundError(
              'ADDRESS_NOT_FOUND',
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

  /** Deletes a delivery address (back office); its number is not given out again. */
  /**
   * Deletes a customer with everything that only means something with it: its article links and
   * its place in its representative's list go in the same transaction, so every feed reports them.
   */
  async deleteCustomer(customerNo: number): Promise<WriteResult> {
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const customer = await repo.findCustomer(customerNo);
      if (!customer || customer.deleted === 1) {
        throw new NotFoundError('CUSTOMER_NOT_FOUND', `No customer ${customerNo}.`);
      }
      const scn = await uow.scn();
      const at = this.now().toISOString();
      await new PricingRepository(uow.db).softDeleteCustomer(customerNo, scn, at);
      for (const link of await repo.linksOfCustomer(customerNo)) {
        if (link.deleted === 0) await repo.upsertLink({ ...link, deleted: 1, scn, updated_at: at });
      }
      if (customer.representative_code)
        await repo.setMembership(customer.representative_code, customerNo, 1, scn);
      return { scn, changed: 1 };
    });
  }

  async deleteDeliveryAddress(customerNo: number, addressNo: number): Promise<WriteResult> {
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const find = async () => {
        await this.#liveCustomer(repo, customerNo);
        const row = (await repo.addressesOf([customerNo], true)).find((a) => a.address_no === addressNo);
        if (!row || addressNo === 0) {
          throw new NotFoundError(
            'ADDRESS_NOT_FOUND',
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

  #checkPatch(patch: CustomerPatch, whole: boolean): CheckedPatch {
    const errors: FieldError[] = [];
    const row: Partial<CustomerRow> = {};
    if (patch.customerNo !== undefined)
      checkWhole(errors, 'customerNo', patch.customerNo, 1, MAX_CUSTOMER_NO);
    if (patch.externalKey !== undefined) {
      const key =
        patch.externalKey === null || patch.externalKey.trim() === '' ? null : patch.externalKey.trim();
      checkExternalKey(errors, 'externalKey', key);
      row.external_key = key;
    }
    if (patch.name !== undefined) row.name = checkName(errors, 'name', patch.name, true);
    if (patch.name2 !== undefined) row.name2 = checkName(errors, 'name2', patch.name2, false);
    if (patch.vatNo !== undefined) row.vat_no = checkVat(errors, 'vatNo', patch.vatNo);
    const invoiceVat = patch.invoiceAddress?.vatNo;
    if (invoiceVat !== undefined) {
      const vat = checkVat(errors, 'invoiceAddress/vatNo', invoiceVat);
      if (row.vat_no === undefined) row.vat_no = vat;
      else if (vat !== row.vat_no && errors.length === 0) {
        errors.push({ name: 'invoiceAddress/vatNo', message: "differs from the customer's VAT number" });
      }
    }
    if (patch.language !== undefined) {
      checkLanguage(errors, 'language', patch.language);
      row.language = patch.language;
    }
    if (patch.currency !== undefined) {
      checkCurrency(errors, 'currency', patch.currency);
      row.currency = patch.currency;
    }
    if (patch.priceGroup !== undefined) {
      checkWhole(errors, 'priceGroup', patch.priceGroup, 1, 9999);
      row.price_group = patch.priceGroup;
    }
    if (patch.customerGroup !== undefined) {
      const group =
        patch.customerGroup === null || patch.customerGroup.trim() === '' ? null : patch.customerGroup;
      checkCustomerGroup(errors, 'customerGroup', group);
      row.customer_group = group;
    }
    if (patch.discountBp !== undefined) {
      checkDiscount(errors, 'discountBp', patch.discountBp);
      row.discount_bp = patch.discountBp;
    }
    if (patch.paymentDays !== undefined) {
      checkWhole(errors, 'paymentDays', patch.paymentDays, 0, 365);
      row.payment_days = patch.paymentDays;
    }
    if (patch.creditLimitMinor !== undefined) {
      checkCredit(errors, 'creditLimitMinor', patch.creditLimitMinor);
      row.credit_limit_minor = patch.creditLimitMinor;
    }
    if (patch.representative !== undefined) {
      const code =
        patch.representative === null || patch.representative.trim() === ''
          ? null
          : normaliseRepresentative(patch.representative);
      if (code !== null) checkRepresentativeCode(errors, 'representative', code);
      row.representative_code = code;
    }
    if (patch.active !== undefined) row.active = patch.active ? 1 : 0;

    let invoice: AddressFields | null | undefined;
    if (patch.invoiceAddress === null) invoice = null;
    else if (patch.invoiceAddress !== undefined) {
      const no = patch.invoiceAddress.addressNo;
      if (no !== undefined && no !== 0) {
        errors.push({ name: 'invoiceAddress/addressNo', message: 'the invoice address is number 0' });
      }
      invoice = checkAddress(errors, 'invoiceAddress/', patch.invoiceAddress);
    }
    let delivery: CheckedPatch['delivery'];
    if (patch.deliveryAddresses !== undefined) {
      const numbers = new Set<number>();
      delivery = patch.deliveryAddresses.map((a, i) => {
        const at = `deliveryAddresses/${i}/`;
        if (a.addressNo !== undefined) {
          checkWhole(errors, `${at}addressNo`, a.addressNo, 1, MAX_DELIVERY_ADDRESSES);
          if (numbers.has(a.addressNo)) errors.push({ name: `${at}addressNo`, message: 'repeats' });
          numbers.add(a.addressNo);
        }
        return { addressNo: a.addressNo, fields: checkAddress(errors, at, a) };
      });
      if (patch.deliveryAddresses.length > MAX_DELIVERY_ADDRESSES) {
        errors.push({ name: 'deliveryAddresses', message: `at most ${MAX_DELIVERY_ADDRESSES}` });
      }
    }
    if (whole && patch.customerNo === undefined) errors.push({ name: 'customerNo', message: 'is required' });
    fail(errors);
    return { customerNo: patch.customerNo, row, invoice, delivery };
  }

  /**
   * Works out one customer write against what is stored now. `whole`: the patch is a whole customer
   * (delivery addresses not in it are deleted). Reads only.
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
    if (customerNo === undefined)
      customerNo = Math.max(await repo.maxCustomerNo(), FIRST_CUSTOMER_NO - 1) + 1;
    const confinedTo = options.confinedTo ?? null;
    if (confinedTo !== null && customerNo !== confinedTo) {
      throw new ForbiddenError('OUTSIDE_SCOPE', `This token is confined to customer ${confinedTo}.`);
    }
    const live = stored !== undefined && stored.deleted === 0;
    if (!live && confinedTo !== null) {
      throw new NotFoundError('CUSTOMER_NOT_FOUND', `No customer ${customerNo}.`);
    }
    if (!live) {
      const missing = (['name', 'price_group', 'currency'] as const).filter(
        (k) => patch.row[k] === undefined,
      );
      if (missing.length > 0) {
        const names = { name: 'name', price_group: 'priceGroup', currency: 'currency' };
        throw new ValidationError(
          missing.map((k) => ({ name: names[k], message: 'is required for a new customer' })),
        );
      }
    }
    const at = this.now().toISOString();
    const base: CustomerRow =
      stored && live
        ? stored
        : {
            customer_no: customerNo,
            name: '',
            price_group: 0,
            customer_group: null,
            currency: '',
            discount_bp: 0,
            active: 1,
            deleted: 0,
            scn: 0,
            created_at: at,
            updated_at: at,
            external_key: null,
            name2: '',
            vat_no: '',
            language: 'LANGUAGE_1',
            payment_days: 30,
            credit_limit_minor: 0,
            representative_code: null,
          };
    const row: CustomerRow = { ...base, ...patch.row, customer_no: customerNo, deleted: 0 };

    if (confinedTo !== null && stored) {
      const refused = TERMS.filter(([column]) => row[column] !== stored[column]).map(([, name]) => name);
      if (refused.length > 0) {
        throw new ForbiddenError(
          'OUTSIDE_SCOPE',
          `A token confined to customer ${confinedTo} cannot change its commercial terms (${refused.join(', ')}).`,
        );
      }
    }

    if (row.representative_code !== null && row.representative_code !== stored?.representative_code) {
      const rep = await repo.findRepresentative(row.representative_code);
      if (!rep || rep.deleted === 1) {
        throw new ValidationError([
          { name: 'representative', message: `no representative "${row.representative_code}"` },
        ]);
      }
    }
    if (patch.row.external_key) {
      const owner = await repo.customerNoByExternalKey(patch.row.external_key);
      if (owner !== undefined && owner !== customerNo) {
        throw new ConflictError(
          'EXTERNAL_KEY_TAKEN',
          `External key "${patch.row.external_key}" belongs to customer ${owner}.`,
        );
      }
    }

    // Addresses.
    const storedAddresses = stored ? await repo.addressesOf([customerNo]) : [];
    const liveAddresses = new Map(
      storedAddresses.filter((a) => a.deleted === 0 && live).map((a) => [a.address_no, a]),
    );
    let nextNo = Math.max(0, ...storedAddresses.map((a) => a.address_no)) + 1;
    const wanted = new Map<number, AddressFields | null>();
    if (patch.invoice !== undefined) wanted.set(0, patch.invoice);
    const deliveryNos: number[] = [];
    const deliveryAdded: boolean[] = [];
    const missingNos: FieldError[] = [];
    for (const [i, d] of (patch.delivery ?? []).entries()) {
      if (d.addressNo !== undefined) {
        // A whole customer (back office) may bring its own numbers; a change must name a live one.
        if (!whole && !liveAddresses.has(d.addressNo)) {
          missingNos.push({
            name: `deliveryAddresses/${i}/addressNo`,
            message: `customer ${customerNo} has no delivery address ${d.addressNo}`,
          });
        }
        wanted.set(d.addressNo, d.fields);
        deliveryNos.push(d.addressNo);
        deliveryAdded.push(false);
      }
    }
    if (missingNos.length > 0) throw new ValidationError(missingNos);
    nextNo = Math.max(nextNo, ...[...wanted.keys()].map((no) => no + 1));
    for (const d of patch.delivery ?? []) {
      if (d.addressNo !== undefined) continue;
      // An address equal to a live one that is not being changed, or to one added in this call, is that one.
      const same =
        [...liveAddresses.values()].find(
          (a) => a.address_no > 0 && !wanted.has(a.address_no) && sameAddress(a, d.fields),
        )?.address_no ??
        [...wanted.entries()].find(
          ([no, f]) => no > 0 && f !== null && !liveAddresses.has(no) && sameAddress(f, d.fields),
        )?.[0];
      if (same !== undefined) {
        wanted.set(same, d.fields);
        deliveryNos.push(same);
        deliveryAdded.push(false);
      } else {
        const no = nextNo++;
        wanted.set(no, d.fields);
        deliveryNos.push(no);
        deliveryAdded.push(true);
      }
    }
    if (whole) {
      for (const no of liveAddresses.keys()) if (no > 0 && !wanted.has(no)) wanted.set(no, null);
    }
    if (nextNo - 1 > MAX_DELIVERY_ADDRESSES) {
      throw new ConflictError(
        'TOO_MANY_ADDRESSES',
        `Customer ${customerNo} has used all ${MAX_DELIVERY_ADDRESSES} delivery address numbers.`,
      );
    }
    const addressWrites: AddressRow[] = [];
    for (const [no, fields] of wanted) {
      const current = liveAddresses.get(no);
      const prior = storedAddresses.find((a) => a.address_no === no);
      if (fields === null) {
        if (current) addressWrites.push({ ...current, deleted: 1, updated_at: at });
      } else if (!current || !sameAddress(current, fields)) {
        addressWrites.push({
          customer_no: customerNo,
          address_no: no,
          ...fields,
          deleted: 0,
          scn: 0,
          created_at: prior?.created_at ?? at,
          updated_at: at,
        });
      }
    }
    // A re-created customer starts without the addresses it had.
    if (stored && !live) {
      for (const a of storedAddresses) {
        if (a.deleted === 0 && !wanted.has(a.address_no))
          addressWrites.push({ ...a, deleted: 1, updated_at: at });
      }
    }

    const customerChanged = !live || CUSTOMER_CONTENT.some((k) => row[k] !== stored?.[k]);
    return {
      customerNo,
      created: !live,
      row,
      customerChanged,
      addressWrites,
      deliveryNos,
      deliveryAdded,
      // A deleted customer keeps its membership row until it is re-created with another representative.
      representative: { from: stored?.representative_code ?? null, to: row.representative_code },
      changed: customerChanged || addressWrites.length > 0,
    };
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
    const row = await this.#liveCustomer(repo, customerNo);
    return customerToWire(row, await repo.addressesOf([customerNo], true));
  }

  // --- representatives --------------------------------------------------------------------------

  saveRepresentative(input: RepresentativeInput): Promise<WriteResult> {
    return this.saveRepresentatives([input]);
  }

  /** Creates or replaces representatives (one transaction); unchanged ones are skipped. */
  async saveRepresentatives(inputs: RepresentativeInput[]): Promise<WriteResult> {
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    const rows = inputs.map((r, i) => {
      const at = `${i}/`;
      const code = normaliseRepresentative(r.code ?? '');
      checkRepresentativeCode(errors, `${at}code`, code);
      if (seen.has(code)) errors.push({ name: `${at}code`, message: 'repeats' });
      seen.add(code);
      return {
        code,
        name: checkName(errors, `${at}name`, r.name ?? '', true),
        email: checkOptionalEmail(errors, `${at}email`, r.email ?? ''),
        phone: checkOptionalPhone(errors, `${at}phone`, r.phone ?? ''),
        active: r.active === false ? 0 : 1,
        deleted: 0,
      };
    });
    fail(errors);
    if (rows.length === 0) return { scn: null, changed: 0 };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const changedOf = async () => {
        const stored = new Map(
          (await repo.findRepresentatives(rows.map((r) => r.code))).map((r) => [r.code, r]),
        );
        return rows.filter((w) => {
          const s = stored.get(w.code);
          return !s || (Object.keys(w) as Array<keyof typeof w>).some((k) => w[k] !== s[k]);
        });
      };
      if ((await changedOf()).length === 0) return { scn: null, changed: 0 };
      const scn = await uow.scn();
      const changed = await changedOf();
      const at = this.now().toISOString();
      for (const r of changed) await repo.upsertRepresentative({ ...r, scn, created_at: at, updated_at: at });
      return { scn, changed: changed.length };
    });
  }

  /** Deletes a representative; one that live customers still have is 409 REPRESENTATIVE_IN_USE. */
  async deleteRepresentative(code: string): Promise<WriteResult> {
    const key = normaliseRepresentative(code);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const check = async () => {
        const row = await repo.findRepresentative(key);
        if (!row || row.deleted === 1) {
          throw new NotFoundError('REPRESENTATIVE_NOT_FOUND', `No representative "${code}".`);
        }
        const customers = await repo.liveCustomersOfRepresentative(key);
        if (customers > 0) {
          throw new ConflictError(
            'REPRESENTATIVE_IN_USE',
            `Representative "${key}" still has ${customers} customer(s); give them another representative first.`,
          );
        }
        return row;
      };
      await check();
      const scn = await uow.scn();
      const row = await check();
      await repo.upsertRepresentative({
        ...row,
        deleted: 1,
        active: 0,
        scn,
        updated_at: this.now().toISOString(),
      });
      return { scn, changed: 1 };
    });
  }

  // --- customer-article links -------------------------------------------------------------------

  saveArticleLink(input: ArticleLinkInput): Promise<WriteResult> {
    return this.saveArticleLinks([input]);
  }

  /**
   * Creates or replaces customer-article links (one transaction, all or none). The customer and the
   * article must exist; a customer's own article number belongs to one of its live links only.
   */
  async saveArticleLinks(inputs: ArticleLinkInput[]): Promise<WriteResult> {
    const errors: FieldError[] = [];
    const keys = new Set<string>();
    const own = new Set<string>();
    const rows = inputs.map((l, i) => {
      const at = `${i}/`;
      checkWhole(errors, `${at}customerNo`, l.customerNo, 1, MAX_CUSTOMER_NO);
      const articleNo = (l.articleNo ?? '').trim();
      if (articleNo === '') errors.push({ name: `${at}articleNo`, message: 'is required' });
      const customerArticleNo = (l.customerArticleNo ?? '').trim();
      if (customerArticleNo === '' || customerArticleNo.length > 40) {
        errors.push({ name: `${at}customerArticleNo`, message: 'is 1 to 40 characters' });
      }
      const description = (l.customerDescription ?? '').trim();
      if (description.length > 200) {
        errors.push({ name: `${at}customerDescription`, message: 'is longer than 200 characters' });
      }
      const barcode =
        l.customerBarcode == null || l.customerBarcode.trim() === '' ? null : l.customerBarcode.trim();
      if (barcode !== null && !/^[\x21-\x7E]{1,40}$/.test(barcode)) {
        errors.push({
          name: `${at}customerBarcode`,
          message: 'is 1 to 40 printable characters without spaces',
        });
      }
      const key = `${l.customerNo}\u0000${articleNo}`;
      if (keys.has(key)) errors.push({ name: `${at}articleNo`, message: 'the same link is given twice' });
      keys.add(key);
      const ownKey = `${l.customerNo}\u0000${customerArticleNo}`;
      if (own.has(ownKey)) {
        errors.push({ name: `${at}customerArticleNo`, message: 'is given twice for this customer' });
      }
      own.add(ownKey);
      return {
        customer_no: l.customerNo,
        article_no: articleNo,
        customer_article_no: customerArticleNo,
        customer_description: description,
        customer_barcode: barcode,
        deleted: 0,
      };
    });
    fail(errors.slice(0, 20));
    if (rows.length === 0) return { scn: null, changed: 0 };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const customerNos = [...new Set(rows.map((r) => r.customer_no))];
      const plan = async () => {
        const customers = new Map((await repo.findCustomers(customerNos)).map((c) => [c.customer_no, c]));
        const articles = await repo.liveArticles([...new Set(rows.map((r) => r.article_no))]);
        const missing: FieldError[] = [];
        for (const [i, r] of rows.entries()) {
          const c = customers.get(r.customer_no);
          if (!c || c.deleted === 1)
            missing.push({ name: `${i}/customerNo`, message: `no customer ${r.customer_no}` });
          if (!articles.has(r.article_no))
            missing.push({ name: `${i}/articleNo`, message: `no article "${r.article_no}"` });
          if (missing.length > 20) break;
        }
        fail(missing);
        const changed: typeof rows = [];
        for (const customerNo of customerNos) {
          const stored = new Map((await repo.linksOfCustomer(customerNo)).map((l) => [l.article_no, l]));
          const mine = rows.filter((r) => r.customer_no === customerNo);
          for (const r of mine) {
            const s = stored.get(r.article_no);
            if (!s || (Object.keys(r) as Array<keyof typeof r>).some((k) => r[k] !== s[k])) changed.push(r);
          }
          // The customer's article numbers after this write must each name one article.
          const after = new Map(
            [...stored.values()].filter((l) => l.deleted === 0).map((l) => [l.article_no, l]),
          );
          for (const r of mine) after.set(r.article_no, { ...r, scn: 0, created_at: '', updated_at: '' });
          const owners = new Map<string, string>();
          for (const l of after.values()) {
            const other = owners.get(l.customer_article_no);
            if (other !== undefined) {
              throw new ConflictError(
                'CUSTOMER_ARTICLE_TAKEN',
                `Customer ${customerNo} would use its article number "${l.customer_article_no}" for both ${other} and ${l.article_no}.`,
              );
            }
            owners.set(l.customer_article_no, l.article_no);
          }
        }
        return changed;
      };
      if ((await plan()).length === 0) return { scn: null, changed: 0 };
      const scn = await uow.scn();
      const changed = await plan();
      const at = this.now().toISOString();
      for (const r of changed) await repo.upsertLink({ ...r, scn, created_at: at, updated_at: at });
      return { scn, changed: changed.length };
    });
  }

  /** Deletes links (one transaction); keys without a live link are skipped. */
  async deleteArticleLinks(keys: ArticleLinkKey[]): Promise<WriteResult> {
    if (keys.length === 0) return { scn: null, changed: 0 };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CustomerRepository(uow.db);
      const liveOf = async () => {
        const out: ArticleLinkRow[] = [];
        for (const customerNo of new Set(keys.map((k) => k.customerNo))) {
          const wanted = new Set(keys.filter((k) => k.customerNo === customerNo).map((k) => k.articleNo));
          out.push(
            ...(await repo.linksOfCustomer(customerNo)).filter(
              (l) => l.deleted === 0 && wanted.has(l.article_no),
            ),
          );
        }
        return out;
      };
      if ((await liveOf()).length === 0) return { scn: null, changed: 0 };
      const scn = await uow.scn();
      const live = await liveOf();
      const at = this.now().toISOString();
      for (const l of live) await repo.upsertLink({ ...l, deleted: 1, scn, updated_at: at });
      return { scn, changed: live.length };
    });
  }
}

/** A whole customer: what is left out takes its default (replace, not merge). */
function withDefaults(input: CustomerDetailsInput): CustomerDetailsInput {
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  return {
    externalKey: null,
    name2: '',
    vatNo: '',
    language: 'LANGUAGE_1',
    customerGroup: null,
    discountBp: 0,
    paymentDays: 30,
    creditLimitMinor: 0,
    representative: null,
    active: true,
    invoiceAddress: null,
    deliveryAddresses: [],
    ...(given as unknown as CustomerDetailsInput),
  };
}
