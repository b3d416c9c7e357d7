import type { Database } from '../../kernel/db/database.ts';
import { CoalescedScnReader } from '../../kernel/db/scn-reader.ts';
import { inWriteTransaction, type UnitOfWork } from '../../kernel/db/unit-of-work.ts';
import { type FieldError, ValidationError, withRoot } from '../../kernel/errors.ts';
import { feedPage } from '../../kernel/feed-page.ts';
import type { SaveResult } from '../../kernel/import/import-kind.ts';
import type { Audience, Page, PageOf } from '../../kernel/paging.ts';
import { answerOf, documentsOf } from './article-document.ts';
import { ArticleDocumentRepository } from './article-document-repository.ts';
import type { ListedArticle } from './article-list-answer.ts';
import {
  type ArticleInput,
  articleErrors,
  childrenOf,
  sameArticle,
  toRow,
  visibleTo,
} from './article-rules.ts';
import { type ArticleWire, articlesToWire } from './article-wire.ts';
import { type ArticleRow, CatalogRepository } from './catalog-repository.ts';
import { CATALOG_ERRORS } from './errors.ts';
import { ImageRepository } from './image-repository.ts';

/**
 * What other areas say when an article is deleted, asked inside the deleting transaction. Those
 * areas depend on the catalog, not the other way round: catalog/index.ts hands in their services
 * (services.stock, services.pricing) when it builds the catalog's.
 */
export interface ArticleDeletionRules {
  /** The locations holding stock of the article, on hand or reserved: deletion is refused while any do. */
  stockedLocationsIn(uow: UnitOfWork, articleNo: string): Promise<string[]>;
  /** Deletes the article's list prices, so the price feeds report them deleted. */
  deletePricesIn(uow: UnitOfWork, articleNo: string): Promise<void>;
}

/** About 2.5 KiB an answer: at most some 50 MiB of cached answers per process. */
const ARTICLE_CACHE_LIMIT = 20_000;

/** Articles with their sizes, barcodes and parameters (B2B/B2C_GetAllArticles, _GetArticle). */
export class ArticleService {
  readonly #read: CatalogRepository;
  readonly #documents: ArticleDocumentRepository;
  /**
   * Serialised single-article answers. An entry is valid while the article's SCN is unchanged; it
   * was last confirmed when the database-wide SCN stood at `checkedAt`, and while that SCN has not
   * moved nothing can have changed, so no per-article query is needed.
   */
  readonly #articleJson = new Map<string, { scn: number; json: string; checkedAt: number }>();
  readonly #scn: CoalescedScnReader;

  private readonly database: Database;
  private readonly now: () => Date;
  private readonly deletion?: ArticleDeletionRules;

  constructor(database: Database, now: () => Date = () => new Date(), deletion?: ArticleDeletionRules) {
    this.database = database;
    this.now = now;
    this.deletion = deletion;
    this.#read = new CatalogRepository(database.db);
    this.#documents = new ArticleDocumentRepository(database.db);
    this.#scn = new CoalescedScnReader(database.db);
  }

  listArticles(audience: Audience, page: Page): Promise<PageOf<ArticleWire, string>> {
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#read.articlesPage(audience, sinceScn, from, limit),
      position: (a) => a.pos,
      live: (a) => visibleTo(audience, a),
      items: async (visible) =>
        articlesToWire(visible, await this.#read.childrenOf(visible.map((a) => a.article_no))),
      deletedKey: (a) => a.article_no,
    });
  }

  /**
   * A page of articles as the JSON of their wire objects (the operations' answer,
   * article-list-answer.ts), from their documents' UTF-8 bytes as the database gives them: the
   * SCN and one statement a page. An article without a current document is built from its tables.
   */
  listArticleJson(audience: Audience, page: Page): Promise<PageOf<ListedArticle, string>> {
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#documents.page(audience, sinceScn, from, limit),
      position: (a) => a.pos,
      live: (a) => visibleTo(audience, a),
      items: async (visible) => {
        const missing = visible.filter((a) => a.document === null).map((a) => a.article_no);
        const built = new Map<string, ListedArticle>();
        if (missing.length > 0) {
          const rows = await this.#read.findArticles(missing);
          for (const wire of articlesToWire(rows, await this.#read.childrenOf(missing))) {
            built.set(wire.ARTICLE, { text: JSON.stringify(wire), scn: null });
          }
        }
        return visible.flatMap((a) => {
          const item = a.document !== null ? { text: a.document, scn: a.scn } : built.get(a.article_no);
          return item === undefined ? [] : [item];
        });
      },
      deletedKey: (a) => a.article_no,
    });
  }

  /**
   * One article as the JSON text of its wire object, read in one statement with its stored
   * document (docs/catalog.md, "The article document"), after the SCN (shared by the requests of a
   * turn). The text is also kept in memory and served again while the database-wide SCN has not
   * moved since it was last confirmed, without asking the database about the article at all.
   */
  async articleJson(audience: Audience, key: { articleNo?: string; barcode?: string }): Promise<string> {
    const now = await this.#scn.current();
    if (key.articleNo !== undefined) {
      const cached = this.#articleJson.get(`${audience}|${key.articleNo}`);
      if (cached && cached.checkedAt === now) return cached.json;
    }
    const found =
      key.articleNo !== undefined
        ? await this.#documents.byArticleNo(key.articleNo, this.database.reader)
        : key.barcode !== undefined
          ? await this.#documents.byBarcode(key.barcode, this.database.reader)
          : undefined;
    if (!found || !visibleTo(audience, found)) {
      if (key.articleNo !== undefined) this.#articleJson.delete(`${audience}|${key.articleNo}`);
      const what = key.articleNo ? `article "${key.articleNo}"` : `barcode "${key.barcode}"`;
      throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(
        `No ${what}${audience === 'B2C' ? ' published for retail' : ''}.`,
      );
    }
    const cacheKey = `${audience}|${found.article_no}`;
    const cached = this.#articleJson.get(cacheKey);
    if (cached && cached.scn === found.scn) {
      cached.checkedAt = now;
      return cached.json;
    }
    // No current document (a database written before documents, or by hand): from the tables.
    const json =
      found.document !== null
        ? answerOf(found.document, found.scn)
        : await this.#fromTables(found.article_no);
    if (json === undefined) throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${found.article_no}".`);
    if (this.#articleJson.size >= ARTICLE_CACHE_LIMIT) {
      // Evict the oldest answer (a Map keeps insertion order), not the whole cache.
      const oldest = this.#articleJson.keys().next().value;
      if (oldest !== undefined) this.#articleJson.delete(oldest);
    }
    // Stamped with the SCN read before the row: a write committed in between moves the SCN and
    // forces a re-check next time.
    this.#articleJson.set(cacheKey, { scn: found.scn, json, checkedAt: now });
    return json;
  }

  /** The answer built from the article's tables (what its document holds when it is current). */
  async #fromTables(articleNo: string): Promise<string | undefined> {
    const row = await this.#read.findArticle(articleNo);
    if (!row || row.deleted === 1) return undefined;
    const [wire] = articlesToWire([row], await this.#read.childrenOf([articleNo]));
    return JSON.stringify(wire);
  }

  /** One article; its fields are named as in its written form (`/SIZES/0/BARCODE`). */
  async saveArticle(input: ArticleInput): Promise<SaveResult> {
    return withRoot('', () => this.saveArticles([input]), { single: true });
  }

  /**
   * Creates or replaces articles, all in one transaction (all or none). An article whose stored
   * form already equals the input is left alone: saving the same data twice moves no SCN, so
   * re-importing a file changes nothing. A refusal names the field by the article's index in the
   * list first (`/3/SIZES/0/BARCODE`).
   */
  async saveArticles(inputs: ArticleInput[]): Promise<SaveResult> {
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    for (const [i, input] of inputs.entries()) {
      errors.push(...articleErrors(input).map((e) => ({ ...e, name: `/${i}${e.name}` })));
      if (seen.has(input.articleNo)) {
        errors.push({ name: `/${i}/ARTICLE`, message: `article ${input.articleNo} appears twice` });
      }
      seen.add(input.articleNo);
    }
    if (errors.length > 0) throw new ValidationError(errors);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CatalogRepository(uow.db);
      const nos = inputs.map((i) => i.articleNo);
      const existing = new Map((await repo.findArticles(nos)).map((a) => [a.article_no, a]));
      const current = await repo.childrenOf([...existing.keys()]);
      const owners = await repo.barcodeOwners(inputs.flatMap((i) => i.sizes.map((s) => s.barcode)));
      const sizeTables = new Map<string, string[]>();
      const claimed = new Map<string, string>();
      const at = this.now().toISOString();
      const changed: Array<{ row: ArticleRow; children: ReturnType<typeof childrenOf> }> = [];

      for (const [i, input] of inputs.entries()) {
        let sizes = sizeTables.get(input.sizeTableCode);
        if (!sizes) {
          sizes = (await repo.sizeTableExists(input.sizeTableCode))
            ? await repo.sizesOfTable(input.sizeTableCode)
            : [];
          sizeTables.set(input.sizeTableCode, sizes);
        }
        if (sizes.length === 0) {
          throw new ValidationError([
            { name: `/${i}/SIZETABLE`, message: `no size table "${input.sizeTableCode}"` },
          ]);
        }
        const unknown = input.sizes.filter((s) => !sizes.includes(s.sizex)).map((s) => s.sizex);
        if (unknown.length > 0) {
          throw new ValidationError([
            {
              name: `/${i}/SIZES`,
              message: `not in size table ${input.sizeTableCode}: ${unknown.join(', ')}`,
            },
          ]);
        }
        for (const s of input.sizes) {
          const owner = claimed.get(s.barcode) ?? owners.get(s.barcode);
          if (owner !== undefined && owner !== input.articleNo) {
            throw CATALOG_ERRORS.BARCODE_TAKEN(`Barcode ${s.barcode} belongs to article ${owner}.`);
          }
          claimed.set(s.barcode, input.articleNo);
        }
        const before = existing.get(input.articleNo);
        const children = childrenOf(input, sizes);
        const row = toRow(input, before?.scn ?? 0, before?.created_at ?? at, before?.updated_at ?? at);
        if (before && sameArticle(before, row, current, children)) continue;
        changed.push({ row, children });
      }
      if (changed.length === 0) return { written: 0, unchanged: inputs.length };

      const scn = await uow.scn();
      const rows = changed.map((c) => ({ ...c.row, scn, updated_at: at }));
      const children = {
        sizes: changed.flatMap((c) => c.children.sizes),
        parameterCodes: changed.flatMap((c) => c.children.parameterCodes),
        parameterNumbers: changed.flatMap((c) => c.children.parameterNumbers),
      };
      await repo.writeArticles(
        rows,
        children,
        changed.filter((c) => existing.has(c.row.article_no)).map((c) => c.row.article_no),
      );
      // The answers of the changed articles, with the images they keep (a new article has none).
      await new ArticleDocumentRepository(uow.db).write(
        documentsOf(rows, { ...children, images: current.images }),
      );
      // Images are seen by retail with their article: stamped when that changes (the image feed).
      const shown = changed
        .map((c) => c.row)
        .filter((row) => {
          const before = existing.get(row.article_no);
          return before !== undefined && visibleTo('B2C', before) !== visibleTo('B2C', row);
        });
      if (shown.length > 0) {
        await new ImageRepository(uow.db).stampImages(
          shown.map((r) => r.article_no),
          scn,
        );
      }
      return { written: changed.length, unchanged: inputs.length - changed.length };
    });
  }

  /**
   * Deletes an article. Refused while stock of it is on hand or reserved anywhere (an order may
   * still need it: 409 ARTICLE_HAS_STOCK); its list prices go with it in the same transaction, so
   * the price feeds report them deleted too. Stock and prices are the stock and pricing areas':
   * they are asked through the deletion rules handed in (catalog/index.ts).
   */
  async deleteArticle(articleNo: string): Promise<void> {
    const rules = this.deletion;
    if (!rules) throw new Error('this catalog service was built without the rules for deleting articles');
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new CatalogRepository(uow.db);
      const scn = await uow.scn();
      // Marked first, looked at second: the marking waits for a stock receipt holding the article
      // (stock's receipt-repository.ts), and the look then sees its stock; a refusal rolls it all back.
      const found = await repo.softDeleteArticle(articleNo, scn, this.now().toISOString());
      if (!found) throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${articleNo}".`);
      const stocked = await rules.stockedLocationsIn(uow, articleNo);
      if (stocked.length > 0) {
        throw CATALOG_ERRORS.ARTICLE_HAS_STOCK(
          `Article "${articleNo}" still has stock at ${stocked.join(', ')}; book it out first.`,
        );
      }
      await rules.deletePricesIn(uow, articleNo);
    });
  }
}
