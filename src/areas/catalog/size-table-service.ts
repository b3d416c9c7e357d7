import type { Database } from '../../kernel/db/database.ts';
import { inWriteTransaction } from '../../kernel/db/unit-of-work.ts';
import { ValidationError, withRoot } from '../../kernel/errors.ts';
import { feedPage } from '../../kernel/feed-page.ts';
import type { SaveResult } from '../../kernel/import/import-kind.ts';
import {
  fromLanguageJson,
  type LanguageObject,
  type LanguageText,
  toLanguageJson,
} from '../../kernel/language.ts';
import type { Page, PageOf } from '../../kernel/paging.ts';
import { CatalogRepository } from './catalog-repository.ts';
import { CATALOG_ERRORS } from './errors.ts';

export interface SizeTableInput {
  code: string;
  description: LanguageText;
  sizes: string[];
}

export interface SizeTableWire {
  SIZETABLE: string;
  DESCRIPTION: LanguageObject;
  SIZES: Array<{ POSITION: number; SIZEX: string }>;
  SCN: number;
}

/** Size tables (GetSizeTables): the sizes an article may come in, in order. */
export class SizeTableService {
  readonly #read: CatalogRepository;

  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
    this.#read = new CatalogRepository(database.db);
  }

  listSizeTables(page: Page): Promise<PageOf<SizeTableWire, string>> {
    return feedPage(this.database.db, page, {
      rows: (sinceScn, from, limit) => this.#read.sizeTablesPage(sinceScn, from, limit),
      position: (t) => t.pos,
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

  /** One size table; its fields are named as in its written form (`/SIZES`). */
  saveSizeTable(input: SizeTableInput): Promise<SaveResult> {
    return withRoot('', () => this.saveSizeTables([input]), { single: true });
  }

  /**
   * Creates or replaces size tables in one transaction; unchanged ones move no SCN. The shape of
   * each is its written form's (catalog-input.ts); here each size once, named by the table's index
   * in the list first (`/3/SIZES`).
   */
  async saveSizeTables(inputs: SizeTableInput[]): Promise<SaveResult> {
    const errors = inputs.flatMap((input, i) =>
      new Set(input.sizes).size !== input.sizes.length
        ? [{ name: `/${i}/SIZES`, message: 'sizes repeat' }]
        : [],
    );
    if (errors.length > 0) throw new ValidationError(errors);
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
}
