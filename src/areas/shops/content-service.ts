import type { Database } from '../../kernel/db/database.ts';
import { currentScn, inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { type ConflictError, ValidationError } from '../../kernel/errors.ts';
import { feedOf, feedPage } from '../../kernel/feed-page.ts';
import type { SaveResult } from '../../kernel/import/import-kind.ts';
import { fromLanguageJson, toLanguageJson } from '../../kernel/language.ts';
import type { Page, PageOf } from '../../kernel/paging.ts';
import { type CompanyPattern, checkPattern, isServerPattern, SERVER_PATTERNS } from './company-regex.ts';
import { SHOPS_ERRORS } from './errors.ts';
import { type RegexRow, ShopRepository } from './shop-repository.ts';
import { blockRow, type HomePageBlockInput } from './shop-rules.ts';
import { tombstone, upsertRow } from './shop-shared.ts';
import { type BlockWire, blockToWire, type RegexWire, regexToWire } from './shop-wire.ts';

/** The consumer app's content (docs/shops.md): home page blocks and the validation patterns for client apps. */
export class ContentService {
  readonly #read: ShopRepository;

  readonly database: Database;
  readonly now: () => Date;

  constructor(database: Database, now: () => Date = () => new Date()) {
    this.database = database;
    this.now = now;
    this.#read = new ShopRepository(database.db);
  }

  /** Active content blocks of the app's pages (or of one page), in page and block order. */
  async listHomePageBlocks(
    page: Page,
    pageCode?: string,
  ): Promise<PageOf<BlockWire, { PAGE: string; BLOCK: number }>> {
    return feedPage(this.database.db, page, {
      rows: (sinceScn, offset, limit) => this.#read.blocksPage(sinceScn, offset, limit, pageCode),
      live: (r) => r.deleted === 0 && r.active === 1,
      items: (live) => live.map(blockToWire),
      deletedKey: (r) => ({ PAGE: r.page, BLOCK: r.block_no }),
    });
  }

  /**
   * The validation patterns: the server's own (built in, SCN 0) at positions 1 to n of every
   * answer, full list or feed, then the table's entries in name and country order.
   */
  async listRegexes(page: Page): Promise<PageOf<RegexWire, { NAME: string; COUNTRY: string | null }>> {
    const scn = await currentScn(this.database.db);
    const builtIn = SERVER_PATTERNS.length;
    const start = page.offset - 1;
    const fixed = SERVER_PATTERNS.slice(start, start + page.limit).map(
      (p): RegexWire => ({
        NAME: p.name,
        COUNTRY: p.country,
        PATTERN: p.pattern,
        DESCRIPTION: fromLanguageJson(toLanguageJson(p.description)),
        SERVER: true,
        SCN: 0,
      }),
    );
    const need = page.limit - fixed.length;
    const rows = await this.#read.regexPage(page.sinceScn, Math.max(0, start - builtIn), need + 1);
    // A table entry under a key the server now validates itself is shadowed by the built-in one.
    const shadowed = (r: RegexRow) => isServerPattern(r.name, r.country === '' ? null : r.country);
    const table = await feedOf(scn, { ...page, limit: need }, rows, {
      live: (r) => r.deleted === 0 && !shadowed(r),
      items: (live) => live.map(regexToWire),
      tombstone: (r) => r.deleted === 1 && !shadowed(r),
      deletedKey: (r) => ({ NAME: r.name, COUNTRY: r.country === '' ? null : r.country }),
    });
    const more = table.nextOffset !== null || start + page.limit < builtIn;
    return {
      scn,
      nextOffset: more ? page.offset + page.limit : null,
      items: [...fixed, ...table.items],
      deleted: table.deleted,
    };
  }

  async saveHomePageBlock(input: HomePageBlockInput): Promise<SaveResult> {
    const wanted = blockRow(input);
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      return upsertRow(uow, this.now, await repo.findBlock(input.page, input.blockNo), wanted, (row) =>
        repo.upsertBlock(row),
      );
    });
  }

  async deleteHomePageBlock(page: string, blockNo: number): Promise<void> {
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      const stored = await repo.findBlock(page, blockNo);
      if (!stored || stored.deleted === 1)
        throw SHOPS_ERRORS.BLOCK_NOT_FOUND(`Page "${page}" has no block ${blockNo}.`);
      await repo.upsertBlock(await tombstone(uow, this.now, stored));
    });
  }

  /** Stores a validation pattern; the server's own patterns are fixed (409 PATTERN_FIXED). */
  async saveRegex(input: CompanyPattern): Promise<SaveResult> {
    const errors = checkPattern(input);
    if (errors.length > 0) throw new ValidationError(errors);
    if (isServerPattern(input.name, input.country)) throw patternFixed(input.name, input.country);
    const wanted: RegexRow = {
      name: input.name,
      country: input.country ?? '',
      pattern: input.pattern,
      description: toLanguageJson(input.description),
      deleted: 0,
      scn: 0,
      updated_at: '',
    };
    return inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      return upsertRow(uow, this.now, await repo.findRegex(wanted.name, wanted.country), wanted, (row) =>
        repo.upsertRegex(row),
      );
    });
  }

  async deleteRegex(name: string, country: string | null): Promise<void> {
    if (isServerPattern(name, country)) throw patternFixed(name, country);
    await inWriteTransaction(this.database, async (uow) => {
      const repo = new ShopRepository(uow.db);
      const stored = await repo.findRegex(name, country ?? '');
      if (!stored || stored.deleted === 1) {
        throw SHOPS_ERRORS.PATTERN_NOT_FOUND(`No pattern ${name}${country ? ` for ${country}` : ''}.`);
      }
      await repo.upsertRegex(await tombstone(uow, this.now, stored));
    });
  }
}

function patternFixed(name: string, country: string | null): ConflictError {
  return SHOPS_ERRORS.PATTERN_FIXED(
    `The server validates ${name}${country ? ` for ${country}` : ''} with its own pattern; it cannot be changed here.`,
  );
}
