import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TABLE_FILE, withErrorTable } from '../scripts/error-table.ts';
import { AREAS } from '../src/areas.ts';
import { errorCodesOf } from '../src/http/errors.ts';
import { problemFromError } from '../src/http/problem.ts';
import { DomainError, defineErrors, type ErrorCode } from '../src/kernel/errors.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

const ROOT = join(import.meta.dirname, '..');
const CODES = errorCodesOf(AREAS);
const DECLARED = new Set(CODES.map((c) => c.code));

/** The files that declare codes: the only places a code is written as a string. */
const TABLES = /^src\/(kernel\/errors|http\/errors|areas\/[^/]+\/errors)\.ts$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

interface Literal {
  value: string;
  /** Offset of the opening quote in the text. */
  at: number;
}

/**
 * The text with comments blanked out (offsets kept), and its quoted string literals. Template
 * literals are skipped as text but their `${...}` parts are scanned; regular expression literals are
 * skipped.
 */
function scan(text: string): { code: string; literals: Literal[] } {
  const code = text.split('');
  const literals: Literal[] = [];
  const braces: number[] = []; // template nesting: brace depth at each `${`
  let depth = 0;
  let i = 0;
  const template = () => {
    // from just after a backtick or the `}` closing a `${`, to the closing backtick or the next `${`
    while (i < text.length) {
      if (text[i] === '\\') {
        i += 2;
      } else if (text[i] === '`') {
        i++;
        return;
      } else if (text[i] === '$' && text[i + 1] === '{') {
        braces.push(depth);
        depth++;
        i += 2;
        return;
      } else {
        i++;
      }
    }
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') code[i++] = ' ';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2) + 2;
      for (; i < end; i++) if (text[i] !== '\n') code[i] = ' ';
    } else if (c === '/' && /[(,=:[!&|?{};]/.test(text.slice(0, i).trimEnd().slice(-1) || ';')) {
      // a regular expression literal: skip it (a character class may hold a slash)
      let inClass = false;
      for (i++; i < text.length && (inClass || text[i] !== '/'); i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
      }
      i++;
    } else if (c === "'" || c === '"') {
      const start = i++;
      while (text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      literals.push({ value: text.slice(start + 1, i), at: start });
      i++;
    } else if (c === '`') {
      i++;
      template();
    } else if (c === '{') {
      depth++;
      i++;
    } else if (c === '}') {
      depth--;
      i++;
      if (braces.length > 0 && braces[braces.length - 1] === depth) {
        braces.pop();
        template();
      }
    } else i++;
  }
  return { code: code.join(''), literals };
}

const CODE_LIKE = /^[A-Z][A-Z0-9_]{3,}$/;

/** The spans of the arguments of calls that make an error or a problem: `new XError(...)`, `super(...)`, `makeProblem(...)`. */
function errorCallSpans(code: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const m of code.matchAll(/\bnew \w*Error\(|\bsuper\(|\bmakeProblem\(|\bproblemOf\(/g)) {
    let depth = 1;
    let i = (m.index ?? 0) + m[0].length;
    for (; i < code.length && depth > 0; i++) {
      if (code[i] === '(') depth++;
      else if (code[i] === ')') depth--;
    }
    spans.push([(m.index ?? 0) + m[0].length, i]);
  }
  return spans;
}

function lineOf(text: string, at: number): number {
  return text.slice(0, at).split('\n').length;
}

describe('error codes', () => {
  it('are declared once each, as A_CODE_NAME, with a status of a problem and a meaning', () => {
    expect(CODES.length).toBe(DECLARED.size);
    for (const c of CODES) {
      expect(c.code, c.area).toMatch(CODE_LIKE);
      expect(c.status, c.code).toBeGreaterThanOrEqual(400);
      expect(c.status, c.code).toBeLessThan(600);
      expect(c.meaning.length, c.code).toBeGreaterThan(10);
    }
    // Every built area that throws codes of its own lists its table.
    for (const area of ['catalog', 'stock', 'shops', 'pricing', 'customers', 'clients', 'general']) {
      expect(
        CODES.some((c) => c.area === area),
        area,
      ).toBe(true);
    }
  });

  it('refuse a code declared by two tables', () => {
    const twice = defineErrors('second', { ARTICLE_NOT_FOUND: { status: 404, meaning: 'again' } });
    const area = { name: 'second', operations: [], errors: twice };
    expect(() => errorCodesOf([...AREAS, area])).toThrow(
      /ARTICLE_NOT_FOUND is declared by catalog and second/,
    );
  });

  it('make errors that problem+json sends with the declared status and code', () => {
    const request = { url: '/x', id: 'r' } as FastifyRequest;
    const made = CODES.filter(
      (c): c is ErrorCode & ((...args: never[]) => DomainError) => typeof c === 'function',
    );
    // Every status of a domain error is made by its table entry; the rest only describe codes.
    expect(new Set(made.map((c) => c.status))).toEqual(new Set([400, 401, 403, 404, 409, 429]));
    for (const entry of made) {
      const make = entry as unknown as (a: unknown, b?: number) => DomainError;
      const error = entry.status === 400 ? make([{ name: 'f', message: 'm' }]) : make('Some detail.', 7);
      expect(error).toBeInstanceOf(DomainError);
      const { problem, retryAfter } = problemFromError(error, request);
      expect([problem.status, problem.code], entry.code).toEqual([entry.status, entry.code]);
      if (entry.status === 429 || entry.status === 409) expect(retryAfter).toBe(7);
      if (entry.status !== 400) expect(problem.detail).toBe('Some detail.');
    }
  });

  it('are never written as strings outside the tables', () => {
    const found: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'src'))) {
      const path = relative(ROOT, file);
      if (TABLES.test(path)) continue;
      const text = readFileSync(file, 'utf8');
      const { code, literals } = scan(text);
      const spans = errorCallSpans(code);
      for (const { value, at } of literals) {
        if (!CODE_LIKE.test(value)) continue;
        // A declared code anywhere, or an undeclared one given to an error or a problem.
        const inCall = spans.some(([from, to]) => at >= from && at < to);
        if (DECLARED.has(value) || inCall) found.push(`${path}:${lineOf(text, at)} '${value}'`);
      }
    }
    expect(found, 'use the area table (src/areas/<area>/errors.ts), the kernel or the HTTP table').toEqual(
      [],
    );
  });

  it('are listed by the error table of docs/api-conventions.md', () => {
    const text = readFileSync(ERROR_TABLE_FILE, 'utf8');
    expect(text, 'run npx tsx scripts/error-table.ts').toBe(withErrorTable(text));
    for (const c of CODES) expect(text).toContain(`| \`${c.code}\` | ${c.status} | ${c.area} |`);
  });

  describe('in the OpenAPI document', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    it('are the enum of the problem code, each described with its status and meaning', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/TV2/openapi.json' })).json();
      const code = doc.components.schemas.Problem.properties.code;
      expect([...code.enum].sort()).toEqual([...DECLARED].sort());
      for (const c of CODES)
        expect(code.description).toContain(`\`${c.code}\` (${c.status}, ${c.area}): ${c.meaning}`);
    });
  });
});
