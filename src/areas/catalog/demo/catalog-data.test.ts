import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../areas.ts';
import { loadConfig } from '../../../config.ts';
import { migrate, openDatabase } from '../../../kernel/db/database.ts';
import { swatchPng } from '../../../kernel/demo-images.ts';
import { LANGUAGE_SLOTS, type LanguageText } from '../../../kernel/language.ts';
import { Random } from '../../../kernel/random.ts';
import { createServices } from '../../../services.ts';
import { isValidEan13 } from '../ean.ts';
import { demoArticles } from './catalog-data.ts';
import { DEMO_COLOURS } from './fashion.ts';
import { COLOUR_RGB, colourSwatchPng } from './images.ts';
import { seedCatalog } from './seed.ts';
import { demoSizeTables } from './size-tables.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function allSlotsFilled(text: LanguageText): boolean {
  return LANGUAGE_SLOTS.every((slot) => typeof text[slot] === 'string' && text[slot] !== '');
}

describe('Random', () => {
  it('is deterministic for a seed and stays in range', () => {
    const a = new Random(42);
    const b = new Random(42);
    const xs = Array.from({ length: 1000 }, () => a.int(1, 6));
    expect(Array.from({ length: 1000 }, () => b.int(1, 6))).toEqual(xs);
    expect(Math.min(...xs)).toBe(1);
    expect(Math.max(...xs)).toBe(6);
    expect(new Random(43).next()).not.toBe(new Random(42).next());
  });
});

describe('demo catalogue data', () => {
  it('gives the same articles for the same seed, other articles for another seed', () => {
    const first = [...demoArticles({ seed: 7, count: 500 })];
    const second = [...demoArticles({ seed: 7, count: 500 })];
    expect(first).toHaveLength(500);
    expect(second).toEqual(first);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect([...demoArticles({ seed: 8, count: 500 })]).not.toEqual(first);
  });

  it('yields exactly count articles, a prefix of a larger count', () => {
    expect([...demoArticles({ seed: 1, count: 0 })]).toHaveLength(0);
    expect([...demoArticles({ seed: 1, count: 1 })]).toHaveLength(1);
    const small = [...demoArticles({ seed: 3, count: 37 })];
    const large = [...demoArticles({ seed: 3, count: 120 })];
    expect(small).toHaveLength(37);
    expect(large.slice(0, 37)).toEqual(small);
  });

  it('is lazy: the first articles of a huge set come at once', () => {
    const started = Date.now();
    const iterator = demoArticles({ seed: 1, count: 100_000 });
    for (let i = 0; i < 3; i++) expect(iterator.next().done).toBe(false);
    iterator.return(undefined);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('makes valid, unique barcodes and article numbers; sizes are contiguous runs of their size table', () => {
    const tables = new Map(demoSizeTables().map((t) => [t.code, t.sizes]));
    const barcodes = new Set<string>();
    const articleNos = new Set<string>();
    const modelColours = new Map<string, number>();
    // Checked by hand and collected: 20 000 articles times a dozen expect() calls is needlessly slow.
    const problems: string[] = [];
    const problem = (articleNo: string, what: string) => {
      if (problems.length < 20) problems.push(`${articleNo}: ${what}`);
    };
    let count = 0;
    let active = 0;
    let retail = 0;
    for (const a of demoArticles({ seed: 1, count: 20_000 })) {
      count += 1;
      if (a.active) active += 1;
      if (a.retail) retail += 1;
      if (articleNos.has(a.articleNo)) problem(a.articleNo, 'article number repeats');
      articleNos.add(a.articleNo);
      if (a.articleNo !== `${a.modelNo}-${a.colourCode}`) problem(a.articleNo, 'not <model>-<colour>');
      if (!/^M[0-9]{5,}$/.test(a.modelNo)) problem(a.articleNo, `model number ${a.modelNo}`);
      if (!(a.colourCode in DEMO_COLOURS)) problem(a.articleNo, `unknown colour ${a.colourCode}`);
      modelColours.set(a.modelNo, (modelColours.get(a.modelNo) ?? 0) + 1);

      const sizes = tables.get(a.sizeTableCode);
      if (!sizes) problem(a.articleNo, `unknown size table ${a.sizeTableCode}`);
      if (a.sizes.length === 0) problem(a.articleNo, 'no sizes');
      const positions = a.sizes.map((s) => sizes?.indexOf(s.sizex) ?? -1);
      const first = positions[0] ?? -1;
      if (first < 0 || positions.some((p, i) => p !== first + i)) {
        problem(
          a.articleNo,
          `sizes ${a.sizes.map((s) => s.sizex).join(',')} not a run of ${a.sizeTableCode}`,
        );
      }
      for (const s of a.sizes) {
        if (!isValidEan13(s.barcode)) problem(a.articleNo, `invalid barcode ${s.barcode}`);
        if (barcodes.has(s.barcode)) problem(a.articleNo, `barcode ${s.barcode} repeats`);
        barcodes.add(s.barcode);
      }

      if (a.vatRateBp !== 2100) problem(a.articleNo, `VAT ${a.vatRateBp}`);
      if (!/^(20[0-9]{2}-(SS|AW)|NOOS)$/.test(a.season)) problem(a.articleNo, `season ${a.season}`);
      const texts = [a.description, a.modelDescription, a.colourDescription, ...a.searchNames];
      for (const p of [...a.parameterCodes, ...a.parameterNumbers]) texts.push(p.text);
      if (!texts.every(allSlotsFilled)) problem(a.articleNo, 'a text misses a language slot');
      if (!a.parameterCodes.some((p) => p.code === 1)) problem(a.articleNo, 'no material (parameter code 1)');
    }
    expect(problems).toEqual([]);
    expect(count).toBe(20_000);
    expect(articleNos.size).toBe(20_000);
    expect(barcodes.size).toBeGreaterThan(20_000);
    expect(Math.max(...modelColours.values())).toBeLessThanOrEqual(4);
    expect(active / count).toBeGreaterThan(0.85);
    expect(active / count).toBeLessThan(0.95);
    expect(retail / count).toBeGreaterThan(0.75);
    expect(retail / count).toBeLessThan(0.85);
  });

  it('has size tables with unique sizes and texts in every language slot', () => {
    const tables = demoSizeTables();
    expect(tables.map((t) => t.code)).toEqual(
      expect.arrayContaining(['CONF', 'JEANS', 'SHOES', 'KIDS', 'ONE']),
    );
    for (const t of tables) {
      expect(new Set(t.sizes).size).toBe(t.sizes.length);
      expect(allSlotsFilled(t.description)).toBe(true);
    }
  });
});

describe('swatch images', () => {
  it('makes real PNG bytes', () => {
    const png = swatchPng([42, 56, 102]);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(png.readUInt32BE(16)).toBe(16); // IHDR width
    expect(swatchPng([1, 2, 3], 4).readUInt32BE(20)).toBe(4); // IHDR height
    expect(colourSwatchPng('420').equals(png)).toBe(true);
  });

  it('has a colour for every demo colour code', () => {
    for (const code of Object.keys(DEMO_COLOURS)) expect(COLOUR_RGB).toHaveProperty(code);
  });
});

describe('seedCatalog', () => {
  it('loads size tables, articles with sizes and barcodes, and images into a database', async () => {
    const path = join(tmpdir(), `tv2-demo-${randomUUID()}.db`);
    const url = `sqlite:${path}`;
    const database = openDatabase(url);
    try {
      await migrate(database, MIGRATIONS);
      const services = createServices(loadConfig({}, { databaseUrl: url }), database);
      const progress: number[] = [];
      const result = await seedCatalog(services, {
        articles: 120,
        batchSize: 50,
        onProgress: (done, total) => {
          expect(total).toBe(120);
          progress.push(done);
        },
      });
      expect(result).toEqual({ sizeTables: demoSizeTables().length, articles: 120, images: 120 });
      expect(progress).toEqual([50, 100, 120]);

      const b2b = await services.catalog.listArticles('B2B', { sinceScn: 0, offset: 1, limit: 1000 });
      expect(b2b.items).toHaveLength(120);
      expect(b2b.nextOffset).toBeNull();
      for (const a of b2b.items) {
        expect(a.SIZES.length).toBeGreaterThan(0);
        for (const s of a.SIZES) expect(isValidEan13(s.BARCODE)).toBe(true);
        expect(a.IMAGES).toHaveLength(1);
        expect(a.IMAGES[0]?.CONTENTTYPE).toBe('image/png');
      }

      const b2c = await services.catalog.listArticles('B2C', { sinceScn: 0, offset: 1, limit: 1000 });
      const expected = b2b.items.filter((a) => a.ACTIVE && a.RETAIL).length;
      expect(b2c.items.length).toBeLessThan(120);
      expect(b2c.items).toHaveLength(expected);

      const tables = await services.catalog.listSizeTables({ sinceScn: 0, offset: 1, limit: 100 });
      expect(tables.items.map((t) => t.SIZETABLE).sort()).toEqual(
        demoSizeTables()
          .map((t) => t.code)
          .sort(),
      );

      const image = await services.catalog.image('B2B', b2b.items[0]?.ARTICLE ?? '', 1);
      expect(image.data.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);

      // Seeding again with the same seed replaces, it does not clash.
      await seedCatalog(services, { articles: 120, images: false });
      const again = await services.catalog.listArticles('B2B', { sinceScn: 0, offset: 1, limit: 1000 });
      expect(again.items).toHaveLength(120);
    } finally {
      await database.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    }
  });
});
