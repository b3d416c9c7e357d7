import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import type { FieldError } from '../../kernel/errors.ts';
import { feedPage } from '../../kernel/feed-page.ts';
import type { Page, PageOf } from '../../kernel/paging.ts';
import { liveArticlesIn } from '../catalog/index.ts';
import { fail, liveCustomer, type WriteResult } from './customer-common.ts';
import { type ArticleLinkRow, CustomerRepository, type LinkFilter } from './customer-repository.ts';
import { checkCustomerNo } from './customer-validation.ts';
import {
  type ArticleLinkKeyWire,
  type ArticleLinkWire,
  articleLinkKeyToWire,
  articleLinkToWire,
} from './customer-wire.ts';
import { CUSTOMERS_ERRORS } from './errors.ts';

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

/**
 * The customer-article links of the customers area (docs/customers.md): a customer's own article
 * numbers for our articles. Every write is one transaction with one SCN.
 */
export class ArticleLinkService {
  readonly #read: CustomerRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new CustomerRepository(database.db);
  }

  /**
   * B2B_GetAllCustomerArticleLink / B2B_GetCustomerArticleLink: links in position order (customer and
   * article order for those made before positions, then creation order): the live ones, or those
   * changed after the page's SCN; with a customer number, that (existing) customer's only.
   */
  async listArticleLinks(
    page: Page,
    filter: LinkFilter = {},
  ): Promise<PageOf<ArticleLinkWire, ArticleLinkKeyWire>> {
    if (filter.customerNo !== undefined) await liveCustomer(this.#read, filter.customerNo);
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#read.linksPage(sinceScn, from, limit, filter),
      position: (r) => r.pos,
      live: (r) => r.deleted === 0,
      items: (live) => live.map(articleLinkToWire),
      tombstone: (r) => r.deleted === 1,
      deletedKey: (r) => articleLinkKeyToWire(r),
    });
  }

  saveArticleLink(input: ArticleLinkInput): Promise<WriteResult> {
    return this.saveArticleLinks([input]);
  }

  /**
   * Creates or replaces customer-article links (one transaction, all or none). The customer and the
   * article must exist; a customer's own article number belongs to one of its live links only.
   * The fields' shape is the schema's (ArticleLinkBody); errors name the record by its index first
   * (`/2/ARTICLE`).
   */
  async saveArticleLinks(inputs: ArticleLinkInput[]): Promise<WriteResult> {
    const errors: FieldError[] = [];
    const keys = new Set<string>();
    const own = new Set<string>();
    const rows = inputs.map((l, i) => {
      const at = `/${i}/`;
      checkCustomerNo(errors, `${at}CUSTOMER`, l.customerNo);
      const articleNo = (l.articleNo ?? '').trim();
      const customerArticleNo = (l.customerArticleNo ?? '').trim();
      const description = (l.customerDescription ?? '').trim();
      const barcode =
        l.customerBarcode == null || l.customerBarcode.trim() === '' ? null : l.customerBarcode.trim();
      const key = `${l.customerNo}\u0000${articleNo}`;
      if (keys.has(key)) errors.push({ name: `${at}ARTICLE`, message: 'the same link is given twice' });
      keys.add(key);
      const ownKey = `${l.customerNo}\u0000${customerArticleNo}`;
      if (own.has(ownKey)) {
        errors.push({ name: `${at}CUSTOMERARTICLE`, message: 'is given twice for this customer' });
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
        const articles = await liveArticlesIn(uow.db, [...new Set(rows.map((r) => r.article_no))]);
        const missing: FieldError[] = [];
        for (const [i, r] of rows.entries()) {
          const c = customers.get(r.customer_no);
          if (!c || c.deleted === 1)
            missing.push({ name: `/${i}/CUSTOMER`, message: `no customer ${r.customer_no}` });
          if (!articles.has(r.article_no))
            missing.push({ name: `/${i}/ARTICLE`, message: `no article "${r.article_no}"` });
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
              throw CUSTOMERS_ERRORS.CUSTOMER_ARTICLE_TAKEN(
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
