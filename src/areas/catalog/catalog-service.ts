import type { Database } from '../../kernel/db/database.ts';
import { CoalescedScnReader } from '../../kernel/db/scn-reader.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { type FieldError, KERNEL_ERRORS, ValidationError } from '../../kernel/errors.ts';
import { feedPage } from '../../kernel/feed-page.ts';
import { cleanImage, MAX_IMAGE_BYTES } from '../../kernel/image-bytes.ts';
import type { SaveResult } from '../../kernel/import/import-kind.ts';
import {
  fromLanguageJson,
  type LanguageObject,
  type LanguageText,
  toLanguageJson,
} from '../../kernel/language.ts';
import type { Audience, Page, PageOf } from '../../kernel/paging.ts';
import { PricingRepository } from '../pricing/pricing-repository.ts';
import { StockRepository } from '../stock/stock-repository.ts';
import { type ArticleWire, articlesToWire, type ImageWire, imageToWire } from './article-wire.ts';
import {
  type ArticleChildren,
  type ArticleRow,
  type ArticleVersion,
  CatalogRepository,
} from './catalog-repository.ts';
import { isValidEan13 } from './ean.ts';
import { CATALOG_ERRORS } from './errors.ts';

export interface SizeTableInput {
  code: string;
  description: LanguageText;
  sizes: string[];
}

export interface ArticleInput {
  articleNo: string;
  modelNo: string;
  colourCode: string;
  colourDescription: LanguageText;
  description: LanguageText;
  modelDescription: LanguageText;
  searchNames: [LanguageText, LanguageText, LanguageText];
  brand: string;
  season: string;
  articleGroup: string;
  /** VAT rate in basis points (2100 = 21 %). */
  vatRateBp: number;
  sizeTableCode: string;
  active: boolean;
  retail: boolean;
  /** In size-table order; each size once, each barcode a valid EAN-13 unique across articles. */
  sizes: Array<{ sizex: string; barcode: string }>;
  parameterCodes: Array<{ code: number; text: LanguageText }>;
  parameterNumbers: Array<{ code: number; number: number; text: LanguageText }>;
}

export interface SizeTableWire {
  SIZETABLE: string;
  DESCRIPTION: LanguageObject;
  SIZES: Array<{ POSITION: number; SIZEX: string }>;
  SCN: number;
}

const ARTICLE_NO = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$/;
/** About 2.5 KiB an answer: at most some 50 MiB of cached answers per process. */
const ARTICLE_CACHE_LIMIT = 20_000;

function visibleTo(audience: Audience, a: Pick<ArticleVersion, 'deleted' | 'retail' | 'active'>): boolean {
  if (a.deleted === 1) return false;
  return audience === 'B2B' || (a.retail === 1 && a.active === 1);
}

export class CatalogService {
  readonly #read: CatalogRepository;
  /**
   * Serialised single-article answers. An entry is valid while the article's SCN is unchanged; it
   * was last confirmed when the database-wide SCN stood at `checkedAt`, and while that SCN has not
   * moved nothing can have changed, so no per-article query is needed.
   */
  readonly #articleJson = new Map<string, { scn: number; json: string; checkedAt: number }>();
  readonly #scn: CoalescedScnReader;

  constructor(
    private readonly database: Database,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#read = new CatalogRepository(database.db);
    this.#scn = new CoalescedScnReader(database.db);
  }

  // --- reads -----------------------------------------------------------------------------------

  listArticles(audience: Audience, page: Page): Promise<PageOf<ArticleWire, string>> {
    return feedPage(this.database.db, page, {
      rows: (sinceScn, offset, limit) => this.#read.articlesPage(sinceScn, offset, limit),
      live: (a) => visibleTo(audience, a),
      items: async (visible) =>
        articlesToWire(visible, await this.#read.childrenOf(visible.map((a) => a.article_no))),
      deletedKey: (a) => a.article_no,
    });
  }

  /**
   * One article as the JSON text of its wire object. The text is kept in memory and served again
   * while the article's SCN is unchanged: one indexed lookup instead of five queries and a
   * serialisation. Every change of an article or its sizes, parameters or images moves its SCN.
   */
  async articleJson(audience: Audience, key: { articleNo?: string; barcode?: string }): Promise<string> {
    const now = await this.#scn.current();
    const articleNo =
      key.articleNo ?? (key.barcode ? await this.#read.articleNoByBarcode(key.barcode) : undefined);
    const cacheKey = `${audience}|${articleNo}`;
    const cached = articleNo ? this.#articleJson.get(cacheKey) : undefined;
    if (cached && cached.checkedAt === now) return cached.json;

    const version = articleNo ? await this.#read.articleVersion(articleNo) : undefined;
    if (!articleNo || !version || !visibleTo(audience, version)) {
      if (cached) this.#articleJson.delete(cacheKey);
      const what = key.articleNo ? `article "${key.articleNo}"` : `barcode "${key.barcode}"`;
      throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(
        `No ${what}${audience === 'B2C' ? ' published for retail' : ''}.`,
      );
    }
    if (cached && cached.scn === version.scn) {
      cached.checkedAt = now;
      return cached.json;
    }
    const row = await this.#read.findArticle(articleNo);
    if (!row || !visibleTo(audience, row))
      throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${articleNo}".`);
    const [wire] = articlesToWire([row], await this.#read.childrenOf([articleNo]));
    const json = JSON.stringify(wire);
    if (this.#articleJson.size >= ARTICLE_CACHE_LIMIT) {
      // Evict the oldest answer (a Map keeps insertion order), not the whole cache.
      const oldest = this.#articleJson.keys().next().value;
      if (oldest !== undefined) this.#articleJson.delete(oldest);
    }
    // Stamped with the SCN read before the rows: a write committed in between moves the SCN and
    // forces a re-check next time.
    this.#articleJson.set(cacheKey, { scn: row.scn, json, checkedAt: now });
    return json;
  }

  listImages(
    audience: Audience,
    page: Page,
  ): Promise<PageOf<ImageWire, { ARTICLE: string; IMAGENO: number }>> {
    return feedPage(this.database.db, page, {
      rows: (sinceScn, offset, limit) => this.#read.imagesPage(sinceScn, offset, limit),
      live: (r) =>
        r.deleted === 0 &&
        visibleTo(audience, { deleted: r.article_deleted, retail: r.retail, active: r.active }),
      items: (shown) => shown.map(imageToWire),
      deletedKey: (r) => ({ ARTICLE: r.article_no, IMAGENO: r.image_no }),
    });
  }

  async image(audience: Audience, articleNo: string, imageNo: number) {
    const version = await this.#read.articleVersion(articleNo);
    const image =
      version && visibleTo(audience, version) ? await this.#read.findImage(articleNo, imageNo) : undefined;
    if (!image) throw KERNEL_ERRORS.IMAGE_NOT_FOUND(`Article "${articleNo}" has no image ${imageNo}.`);
    return { contentType: image.content_type, data: image.data, sha256: image.sha256 };
  }

  listSizeTables(page: Page): Promise<PageOf<SizeTableWire, string>> {
    return feedPage(this.database.db, page, {
      rows: (sinceScn, offset, limit) => this.#read.sizeTablesPage(sinceScn, offset, limit),
      live: (t) => t.deleted === 0,
      items: async (live) => {
        const sizes = await this.#read.sizesOfTables(live.map((t) => t.code));
        return live.map((t) => ({
          SIZETABLE: t.code,
          DESCRIPTION: fromLanguageJson(t.description),
          SIZES: sizes
            .filter((s) => s.size_table_code === t.code)
            .map((s) => ({ POSITION: s.position, SIZEX: s.sizex })),
          SCN: t.scn,
        }));
      },
      tombstone: (t) => t.deleted === 1,
      deletedKey: (t) => t.code,
    });
  }

  // --- writes: each call is one transaction ------------------------------------------------------

  saveSizeTable(input: SizeTableInput): Promise<SaveResult> {
    return this.saveSizeTables([input]);
  }

  /** Creates or replaces size tables in one transaction; unchanged ones move no SCN. */
  async saveSizeTables(inputs: SizeTableInput[]): Promise<SaveResult> {
    for (const input of inputs) {
      const errors: FieldError[] = [];
      if (!ARTICLE_NO.test(input.code))
        errors.push({ name: 'code', message: 'use 1 to 40 letters, digits or . _ / -' });
      if (input.sizes.length === 0)
        errors.push({ name: 'sizes', message: 'a size table has at least one size' });
      if (new Set(input.sizes).size !== input.sizes.length)
        errors.push({ name: 'sizes', message: 'sizes repeat' });
      if (errors.length > 0) throw new ValidationError(errors);
    }
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new CatalogRepository(uow.db);
      let written = 0;
      for (const input of inputs) {
        const description = toLanguageJson(input.description);
        const stored = await repo.findSizeTable(input.code);
        if (
          stored &&
          stored.deleted === 0 &&
          stored.description === description &&
          JSON.stringify(await repo.sizesOfTable(input.code)) === JSON.stringify(input.sizes)
        ) {
          continue;
        }
        await repo.upsertSizeTable({ code: input.code, description, scn: await uow.scn() }, input.sizes);
        written++;
      }
      return { written, unchanged: inputs.length - written };
    });
  }

  async saveArticle(input: ArticleInput): Promise<SaveResult> {
    return this.saveArticles([input]);
  }

  /**
   * Creates or replaces articles, all in one transaction (all or none). An article whose stored
   * form already equals the input is left alone: saving the same data twice moves no SCN, so
   * re-importing a file changes nothing.
   */
  async saveArticles(inputs: ArticleInput[]): Promise<SaveResult> {
    for (const input of inputs) checkArticle(input);
    const seen = new Map<string, string>();
    for (const input of inputs) {
      if (seen.has(input.articleNo)) {
        throw new ValidationError([
          { name: 'articleNo', message: `article ${input.articleNo} appears twice` },
        ]);
      }
      seen.set(input.articleNo, input.articleNo);
    }
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

      for (const input of inputs) {
        let sizes = sizeTables.get(input.sizeTableCode);
        if (!sizes) {
          sizes = (await repo.sizeTableExists(input.sizeTableCode))
            ? await repo.sizesOfTable(input.sizeTableCode)
            : [];
          sizeTables.set(input.sizeTableCode, sizes);
        }
        if (sizes.length === 0) {
          throw new ValidationError([
            { name: 'sizeTableCode', message: `no size table "${input.sizeTableCode}"` },
          ]);
        }
        const unknown = input.sizes.filter((s) => !sizes.includes(s.sizex)).map((s) => s.sizex);
        if (unknown.length > 0) {
          throw new ValidationError([
            { name: 'sizes', message: `not in size table ${input.sizeTableCode}: ${unknown.join(', ')}` },
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
      await repo.writeArticles(
        changed.map((c) => ({ ...c.row, scn, updated_at: at })),
        {
          sizes: changed.flatMap((c) => c.children.sizes),
          parameterCodes: changed.flatMap((c) => c.children.parameterCodes),
          parameterNumbers: changed.flatMap((c) => c.children.parameterNumbers),
        },
        changed.filter((c) => existing.has(c.row.article_no)).map((c) => c.row.article_no),
      );
      return { written: changed.length, unchanged: inputs.length - changed.length };
    });
  }

  /** Deletes a size table no live article uses. */
  async deleteSizeTable(code: string): Promise<void> {
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new CatalogRepository(uow.db);
      const users = await repo.articlesUsingSizeTable(code);
      if (users > 0) throw CATALOG_ERRORS.SIZE_TABLE_IN_USE(`${users} article(s) use size table ${code}.`);
      if (!(await repo.softDeleteSizeTable(code, await uow.scn()))) {
        throw CATALOG_ERRORS.SIZE_TABLE_NOT_FOUND(`No size table "${code}".`);
      }
    });
  }

  /**
   * Deletes an article. Refused while stock of it is on hand or reserved anywhere (an order may
   * still need it: 409 ARTICLE_HAS_STOCK); its list prices go with it in the same transaction, so
   * the price feeds report them deleted too.
   */
  async deleteArticle(articleNo: string): Promise<void> {
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new CatalogRepository(uow.db);
      const scn = await uow.scn();
      const stocked = (await new StockRepository(uow.db).levelsOfArticle(articleNo)).filter(
        (l) => l.on_hand > 0 || l.reserved > 0,
      );
      if (stocked.length > 0) {
        throw CATALOG_ERRORS.ARTICLE_HAS_STOCK(
          `Article "${articleNo}" still has stock at ${[...new Set(stocked.map((l) => l.location_code))].join(', ')}; book it out first.`,
        );
      }
      const found = await repo.softDeleteArticle(articleNo, scn, this.now().toISOString());
      if (!found) throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${articleNo}".`);
      const pricing = new PricingRepository(uow.db);
      const prices = (await pricing.listPricesOf([articleNo])).filter((p) => p.deleted === 0);
      if (prices.length > 0) {
        await pricing.upsertListPrices(prices.map((p) => ({ ...p, deleted: 1, scn })));
        await pricing.refreshPriceArticles([articleNo], scn);
      }
    });
  }

  /**
   * Stores an image: its type sniffed from the bytes (only JPEG, PNG and WebP are taken), then
   * decoded and encoded again (cleanImage), so only the picture is kept, never what was appended
   * to it or its metadata.
   */
  async putImage(
    articleNo: string,
    imageNo: number,
    upload: Buffer,
    declaredType?: string,
  ): Promise<{ contentType: string }> {
    if (!Number.isInteger(imageNo) || imageNo < 1 || imageNo > 99) {
      throw new ValidationError([{ name: 'imageNo', message: 'an image number is 1 to 99' }]);
    }
    const { contentType, sha256, data } = await cleanImage(upload, {
      maxBytes: MAX_IMAGE_BYTES,
      field: 'data',
      declaredType,
    });
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new CatalogRepository(uow.db);
      const scn = await uow.scn();
      if (!(await repo.touchArticle(articleNo, scn, this.now().toISOString()))) {
        throw CATALOG_ERRORS.ARTICLE_NOT_FOUND(`No article "${articleNo}".`);
      }
      await repo.putImage({
        article_no: articleNo,
        image_no: imageNo,
        content_type: contentType,
        byte_size: data.length,
        sha256,
        data,
        deleted: 0,
        scn,
      });
    });
    return { contentType };
  }

  async deleteImage(articleNo: string, imageNo: number): Promise<void> {
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new CatalogRepository(uow.db);
      const scn = await uow.scn();
      if (!(await repo.softDeleteImage(articleNo, imageNo, scn))) {
        throw KERNEL_ERRORS.IMAGE_NOT_FOUND(`Article "${articleNo}" has no image ${imageNo}.`);
      }
      await repo.touchArticle(articleNo, scn, this.now().toISOString());
    });
  }
}

function checkArticle(input: ArticleInput): void {
  const errors: FieldError[] = [];
  if (!ARTICLE_NO.test(input.articleNo)) {
    errors.push({ name: 'articleNo', message: 'use 1 to 40 letters, digits or . _ / -' });
  }
  if (!Number.isInteger(input.vatRateBp) || input.vatRateBp < 0 || input.vatRateBp > 10_000) {
    errors.push({ name: 'vatRateBp', message: 'a VAT rate is 0 to 10000 basis points' });
  }
  const seen = new Set<string>();
  for (const [i, s] of input.sizes.entries()) {
    if (seen.has(s.sizex)) errors.push({ name: `sizes/${i}/sizex`, message: `size ${s.sizex} repeats` });
    seen.add(s.sizex);
    if (!isValidEan13(s.barcode)) errors.push({ name: `sizes/${i}/barcode`, message: 'not a valid EAN-13' });
  }
  if (errors.length > 0) throw new ValidationError(errors);
}

function toRow(input: ArticleInput, scn: number, createdAt: string, updatedAt: string): ArticleRow {
  return {
    article_no: input.articleNo,
    model_no: input.modelNo,
    colour_code: input.colourCode,
    colour_description: toLanguageJson(input.colourDescription),
    description: toLanguageJson(input.description),
    model_description: toLanguageJson(input.modelDescription),
    search_name1: toLanguageJson(input.searchNames[0]),
    search_name2: toLanguageJson(input.searchNames[1]),
    search_name3: toLanguageJson(input.searchNames[2]),
    brand: input.brand,
    season: input.season,
    article_group: input.articleGroup,
    vat_rate_bp: input.vatRateBp,
    size_table_code: input.sizeTableCode,
    active: input.active ? 1 : 0,
    retail: input.retail ? 1 : 0,
    deleted: 0,
    scn,
    created_at: createdAt,
    updated_at: updatedAt,
  };
}

function childrenOf(input: ArticleInput, tableSizes: string[]) {
  return {
    sizes: input.sizes.map((s) => ({
      article_no: input.articleNo,
      sizex: s.sizex,
      position: tableSizes.indexOf(s.sizex) + 1,
      barcode: s.barcode,
    })),
    parameterCodes: input.parameterCodes.map((p) => ({
      article_no: input.articleNo,
      parameter_code: p.code,
      text: toLanguageJson(p.text),
    })),
    parameterNumbers: input.parameterNumbers.map((p) => ({
      article_no: input.articleNo,
      parameter_code: p.code,
      parameter_no: p.number,
      text: toLanguageJson(p.text),
    })),
  };
}

const ROW_FIELDS = [
  'model_no',
  'colour_code',
  'colour_description',
  'description',
  'model_description',
  'search_name1',
  'search_name2',
  'search_name3',
  'brand',
  'season',
  'article_group',
  'vat_rate_bp',
  'size_table_code',
  'active',
  'retail',
  'deleted',
] as const;

/** True when the stored article (row and children) already says what the input says. */
function sameArticle(
  before: ArticleRow,
  wanted: ArticleRow,
  stored: ArticleChildren,
  children: ReturnType<typeof childrenOf>,
): boolean {
  if (ROW_FIELDS.some((f) => before[f] !== wanted[f])) return false;
  const no = before.article_no;
  const key = (rows: object[]) => JSON.stringify(rows);
  const mine = <T extends { article_no: string }>(rows: T[]) => rows.filter((r) => r.article_no === no);
  const sort = <T>(rows: T[], by: (r: T) => string) => [...rows].sort((a, b) => by(a).localeCompare(by(b)));
  return (
    key(sort(mine(stored.sizes), (r) => r.sizex).map((r) => [r.sizex, r.position, r.barcode])) ===
      key(sort(children.sizes, (r) => r.sizex).map((r) => [r.sizex, r.position, r.barcode])) &&
    key(
      sort(mine(stored.parameterCodes), (r) => String(r.parameter_code)).map((r) => [
        r.parameter_code,
        r.text,
      ]),
    ) ===
      key(
        sort(children.parameterCodes, (r) => String(r.parameter_code)).map((r) => [r.parameter_code, r.text]),
      ) &&
    key(
      sort(mine(stored.parameterNumbers), (r) => `${r.parameter_code}/${r.parameter_no}`).map((r) => [
        r.parameter_code,
        r.parameter_no,
        r.text,
      ]),
    ) ===
      key(
        sort(children.parameterNumbers, (r) => `${r.parameter_code}/${r.parameter_no}`).map((r) => [
          r.parameter_code,
          r.parameter_no,
          r.text,
        ]),
      )
  );
}
