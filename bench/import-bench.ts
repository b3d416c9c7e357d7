/**
 * Times `tv2 import articles` of a generated CSV file (IMPORT_ARTICLES, default 100000) into a
 * fresh database (DATABASE_URL, default a temp SQLite file), then the same file again (nothing to
 * write), and reports records per second and peak memory.
 */
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { demoArticles } from '../src/areas/catalog/demo/catalog-data.ts';
import { demoSizeTables } from '../src/areas/catalog/demo/size-tables.ts';
import { IMPORT_KINDS, MIGRATIONS } from '../src/areas.ts';
import { loadConfig } from '../src/config.ts';
import { migrate, openDatabase } from '../src/kernel/db/database.ts';
import { runImport } from '../src/kernel/import/run-import.ts';
import { createServices } from '../src/services.ts';

const COUNT = Number(process.env.IMPORT_ARTICLES ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'tv2-import-bench-'));
const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(dir, 'import.db')}`;

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
const tablesFile = join(dir, 'sizetables.csv');
writeFileSync(
  tablesFile,
  `SIZETABLE,SIZES,DESCRIPTION_LANGUAGE_2\n${demoSizeTables()
    .map((t) => [t.code, t.sizes.join('|'), t.description.LANGUAGE_2 ?? ''].map(csvCell).join(','))
    .join('\n')}\n`,
);
const articlesFile = join(dir, 'articles.csv');
const out = createWriteStream(articlesFile);
out.write(
  'ARTICLE,MODEL,COLOUR,SIZETABLE,BRAND,SEASON,ARTICLEGROUP,PERCVAT,ACTIVE,RETAIL,SIZES,ARTICLEDESCRIPTION_LANGUAGE_1,ARTICLEDESCRIPTION_LANGUAGE_2,COLOURDESCRIPTION_LANGUAGE_2\n',
);
for (const a of demoArticles({ seed: 1, count: COUNT })) {
  const row = [
    a.articleNo,
    a.modelNo,
    a.colourCode,
    a.sizeTableCode,
    a.brand,
    a.season,
    a.articleGroup,
    String(a.vatRateBp / 100),
    a.active ? '1' : '0',
    a.retail ? '1' : '0',
    a.sizes.map((s) => `${s.sizex}=${s.barcode}`).join('|'),
    a.description.LANGUAGE_1 ?? '',
    a.description.LANGUAGE_2 ?? '',
    a.colourDescription.LANGUAGE_2 ?? '',
  ];
  if (!out.write(`${row.map(csvCell).join(',')}\n`))
    await new Promise<void>((r) => out.once('drain', () => r()));
}
out.end();
await finished(out);

const database = openDatabase(databaseUrl);
await migrate(database, MIGRATIONS);
const services = createServices(loadConfig({}, { databaseUrl, demo: false }), database);
let peakRss = 0;
const sample = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);
await runImport(services, IMPORT_KINDS.sizetables!, tablesFile);
const first = await runImport(services, IMPORT_KINDS.articles!, articlesFile);
const second = await runImport(services, IMPORT_KINDS.articles!, articlesFile);
clearInterval(sample);
await database.close();
rmSync(dir, { recursive: true, force: true });

const line = (label: string, r: typeof first) =>
  `${label}: ${r.records} records in ${r.seconds} s (${Math.round(r.records / r.seconds)} records/s), ${r.written} written, ${r.unchanged} unchanged, ${r.rejected.length} rejected`;
console.log(line('first import ', first));
console.log(line('second import', second));
console.log(`peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MiB, engine ${database.engine}`);
