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

/**
 * Where the table's validation patterns start in B2C_GetCompanyRegEx's positions: the server's own
 * are 1 to n (n far below this), the table's entry with position p is at this plus p, so adding a
 * built-in pattern in a later version moves no table entry (docs/shops.md, "Paging").
 */
export const REGEX_TABLE_POSITIONS = 1000;

/** The keys of the server's own patterns, as the table stores them (country '' for every country). */
const SHADOWED = SERVER_PATTERNS.map((p) => ({ name: p.name, country: p.country ?? '' }));

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

  /**
   * Active content blocks of the app's pages (or of one page), in position order (page and block
   * order for the blocks stored before positions, then the order they were first stored in).
   */
  async listHomePageBlocks(
    page: Page,
    pageCode?: string,
  ): Promise<PageOf<BlockWire, { PAGE: string; BLOCK: number }>> {
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#read.blocksPage(sinceScn, from, limit, pageCode),
      position: (r) => r.pos,
      live: (r) => r.deleted === 0 && r.active === 1,
      items: (live) => live.map(blockToWire),
      deletedKey: (r) => ({ PAGE: r.page, BLOCK: r.block_no }),
    });
  }

  /**
   * The validation patterns: the server's own (built in, SCN 0) at positions 1 to n of every
   * answer, full list or feed, then the table's entries at REGEX_TABLE_POSITIONS plus their stable
   * position. A table entry under a key the server validates itself is shadowed by the built-in one:
   * left out in SQL, so it takes no place in a page.
   */
  async listRegexes(page: Page): Promise<PageOf<RegexWire, { NAME: string; COUNTRY: string | null }>> {
    const scn = await currentScn(this.database.db);
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
    if (start + page.limit < SERVER_PATTERNS.length) {
      return { scn, nextOffset: page.offset + page.limit, items: fixed, deleted: [] };
    }
    const need = page.limit - fixed.length;
    const rows = await this.#read.regexPage(
      page.sinceScn,
      Math.max(1, page.offset - REGEX_TABLE_POSITIONS),
      need + 1,
      SHADOWED,
    );
    const table = await feedOf(scn, { ...page, limit: need }, rows, {
      position: (r) => REGEX_TABLE_POSITIONS + r.pos,
      live: (r) => r.deleted === 0,
      items: (live) => live.map(regexToWire),
      deletedKey: (r) => ({ NAME: r.name, COUNTRY: r.country === '' ? null : r.country }),
    });
    return { scn, nextOffset: table.nextOffset, items: [...fixed, ...table.items], deleted: table.deleted };
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
