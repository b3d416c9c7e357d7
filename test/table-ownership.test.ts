import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One owner per table (docs/architecture.md, "Boundaries"): the area whose tables.ts adds a table to
 * the kernel's `DB` interface owns it, and only that area's code names it in SQL. Another area reads
 * or changes it through the owner's index: its `...In(db, ...)` functions, or a query fragment (a
 * subquery over the owner's table, written in the owner's repository) where one statement must join
 * both areas' tables.
 */

const ROOT = join(import.meta.dirname, '..');
const AREAS_DIR = join(ROOT, 'src', 'areas');
const KERNEL_SCHEMA = join(ROOT, 'src', 'kernel', 'db', 'schema.ts');

/** The calls whose first argument names a table (`'name'`, `'name as alias'`, or a list of them). */
const TABLE_CALL =
  /\b(selectFrom|updateTable|insertInto|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*/g;
/** Table names in raw SQL text: after from, join, update, into. */
const RAW_TABLE = /\b(?:from|join|update|into)\s+"?([a-z_][a-z0-9_]*)"?/gi;

/** The top-level property names of the interface `name` declared in `text`. */
function interfaceKeys(text: string, name: string): string[] {
  const start = text.search(new RegExp(`interface ${name}\\b[^{]*\\{`));
  if (start < 0) return [];
  const open = text.indexOf('{', start);
  let depth = 0;
  let i = open;
  for (; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) break;
  }
  const body = text.slice(open + 1, i);
  const keys: string[] = [];
  let level = 0;
  for (const line of body.split('\n')) {
    const m = level === 0 ? /^\s*([a-z_][a-z0-9_]*)\??\s*:/.exec(line) : null;
    if (m?.[1]) keys.push(m[1]);
    for (const c of line) {
      if (c === '{') level++;
      else if (c === '}') level--;
    }
  }
  return keys;
}

/**
 * The tables each area declares: the keys of the `interface DB` augmentation in its tables.ts,
 * written out or through the interfaces it extends. The kernel's own tables belong to 'kernel'.
 */
function owners(): Map<string, string> {
  const out = new Map<string, string>();
  const declare = (owner: string, text: string) => {
    const match = /interface DB(?:\s+extends\s+([\w\s,]+?))?\s*\{/.exec(text);
    if (!match) return;
    const tables = [
      ...interfaceKeys(text, 'DB'),
      ...(match[1] ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .flatMap((base) => interfaceKeys(text, base)),
    ];
    for (const table of tables) {
      const seen = out.get(table);
      if (seen && seen !== owner) throw new Error(`table ${table} is declared by ${seen} and ${owner}`);
      out.set(table, owner);
    }
  };
  declare('kernel', readFileSync(KERNEL_SCHEMA, 'utf8'));
  for (const area of readdirSync(AREAS_DIR, { withFileTypes: true })) {
    if (!area.isDirectory()) continue;
    try {
      declare(area.name, readFileSync(join(AREAS_DIR, area.name, 'tables.ts'), 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return out;
}

/** Every .ts file of an area that is not a test (test/ folders and *.test.ts). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The text with comments blanked out (offsets kept, so line numbers stay right). */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(
      /(^|[^:'"`\\])\/\/[^\n]*/g,
      (c, before: string) => before + ' '.repeat(c.length - before.length),
    );
}

interface TableUse {
  table: string;
  line: number;
  how: string;
}

/** The tables `code` names: in the table argument of a query builder call, and in raw `sql` text. */
function tablesNamed(code: string): TableUse[] {
  const uses: TableUse[] = [];
  const lineOf = (at: number) => code.slice(0, at).split('\n').length;
  for (const m of code.matchAll(TABLE_CALL)) {
    let i = (m.index ?? 0) + m[0].length;
    const list = code[i] === '[';
    if (list) i++;
    for (;;) {
      while (/\s/.test(code[i] ?? '')) i++;
      const quote = code[i];
      if (quote !== "'" && quote !== '"' && quote !== '`') break;
      const end = code.indexOf(quote, i + 1);
      const name =
        code
          .slice(i + 1, end)
          .trim()
          .split(/\s+/)[0] ?? '';
      uses.push({ table: name, line: lineOf(i), how: `${m[1]}('${name}')` });
      i = end + 1;
      if (!list) break;
      while (/\s/.test(code[i] ?? '')) i++;
      if (code[i] !== ',') break;
      i++;
    }
  }
  for (const m of code.matchAll(/\bsql(?:<[^`>]*>)?`([^`]*)`/g)) {
    for (const t of (m[1] ?? '').matchAll(RAW_TABLE)) {
      const name = (t[1] ?? '').toLowerCase();
      uses.push({ table: name, line: lineOf((m.index ?? 0) + (t.index ?? 0)), how: `sql\`...${t[0]}...\`` });
    }
  }
  return uses;
}

/** Every place an area names a table another area (or the kernel) owns: `file:line table (owner)`. */
function foreignUses(tables: Map<string, string>): string[] {
  const out: string[] = [];
  for (const area of readdirSync(AREAS_DIR, { withFileTypes: true })) {
    if (!area.isDirectory()) continue;
    for (const file of sourceFiles(join(AREAS_DIR, area.name))) {
      const code = withoutComments(readFileSync(file, 'utf8'));
      for (const use of tablesNamed(code)) {
        const owner = tables.get(use.table);
        // Names no area declares are common table expressions or aliases of subqueries.
        if (owner === undefined || owner === area.name) continue;
        out.push(
          `${relative(ROOT, file)}:${use.line} ${use.how}: table ${use.table} belongs to ${owner}` +
            (owner === 'kernel' ? '' : `; use what src/areas/${owner}/index.ts exports`),
        );
      }
    }
  }
  return out;
}

describe('table ownership', () => {
  const tables = owners();

  it('reads each area’s tables from its tables.ts', () => {
    expect(tables.get('article')).toBe('catalog');
    expect(tables.get('article_size')).toBe('catalog');
    expect(tables.get('stock_location')).toBe('stock');
    expect(tables.get('customer')).toBe('customers');
    expect(tables.get('list_price')).toBe('pricing');
    expect(tables.get('shop_detail')).toBe('shops');
    expect(tables.get('client')).toBe('clients');
    expect(tables.get('api_user')).toBe('general');
    expect(tables.get('scn_counter')).toBe('kernel');
  });

  it('finds table names in query builder calls and raw SQL', () => {
    const code = [
      "db.selectFrom('stock_level as l').innerJoin('article as a', 'a.article_no', 'l.article_no')",
      "db.selectFrom(['list_price', 'customer as c'])",
      'db.updateTable(\n  "shop_image"\n)',
      'db.deleteFrom(`client`)',
      'db.innerJoin(articleFlags(db).as("a"), "a.article_no", "l.article_no")',
      'sql<number>`select 1 from article_size s join stock_location l on 1 = 1`',
    ].join('\n');
    expect(tablesNamed(code).map((u) => `${u.line}:${u.table}`)).toEqual([
      '1:stock_level',
      '1:article',
      '2:list_price',
      '2:customer',
      '4:shop_image',
      '6:client',
      '8:article_size',
      '8:stock_location',
    ]);
  });

  it('keeps every table’s SQL inside its owning area', () => {
    expect(foreignUses(tables)).toEqual([]);
  });
});
