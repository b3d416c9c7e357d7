/**
 * `npm run openapi:examples`: writes src/http/openapi-examples.json, the examples of the OpenAPI
 * document (issue 14; src/http/openapi-examples.ts puts them in). It builds the app in-process on a
 * fresh SQLite database with the demo data (as `serve --demo` loads it), runs the demo scenario of
 * test/helpers/demo-scenario.ts (every built operation and back-office route, reads with demo keys,
 * writes on this throwaway database) and keeps each route's first 2xx: its path parameters, query
 * parameters and JSON body, and its JSON answer; later 2xx calls of a route add examples of the query
 * parameters the first did not use.
 *
 * The file is the same on every run: the clock is fixed (the demo data's dates follow today), random
 * values (tokens, voucher codes) are replaced by fixed ones of the same form, and lists are cut to
 * two items.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fixed "now" of the examples (a Monday morning). */
const NOW = Date.parse('2026-03-02T09:30:00.000Z');

freezeClock(NOW);
// The examples come from SQLite, whatever engine the tests use.
delete process.env.TV2_TEST_DATABASE_URL;
const { DEMO_USER, loadDemoIfEmpty } = await import('../src/app.ts');
const { startTestApp } = await import('../test/helpers/test-app.ts');
const { runDemoScenario } = await import('../test/helpers/demo-scenario.ts');
const { checkCharacter, CODE_RANDOM_LENGTH } = await import('../src/areas/tenders/tender-code.ts');

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'http', 'openapi-examples.json');
/** Lists are cut to this many items: enough to show the shape. */
const MAX_ITEMS = 2;

interface Example {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** Values of the other query parameters, from later calls of the route (parameter examples). */
  otherQuery?: Record<string, string>;
  body?: unknown;
  status: number;
  answer?: unknown;
}

const t = await startTestApp();
const examples: Record<string, Example> = {};
const failed: string[] = [];
try {
  if (!(await loadDemoIfEmpty(t.services))) throw new Error('the demo data was not loaded');
  const basic = Buffer.from(`${DEMO_USER.name}:${DEMO_USER.secret}`).toString('base64');
  const tokenAnswer = await t.app.inject({
    method: 'GET',
    url: '/TV2/GetToken',
    headers: { authorization: `Basic ${basic}` },
  });
  examples['GET /TV2/GetToken'] = { status: tokenAnswer.statusCode, answer: tokenAnswer.json() };
  const token = await t.tokenFor(['B2B', 'B2C', 'ADMIN']);
  await runDemoScenario(t.app, token, (call, res) => {
    if (res.statusCode >= 300) {
      failed.push(`${call.route} -> ${res.statusCode} ${res.body.slice(0, 300)}`);
      return;
    }
    const known = examples[call.route];
    if (known) {
      for (const [name, value] of Object.entries(call.query ?? {})) {
        if (known.query?.[name] === undefined && known.otherQuery?.[name] === undefined) {
          known.otherQuery = { ...known.otherQuery, [name]: value };
        }
      }
      return;
    }
    const json = String(res.headers['content-type'] ?? '').startsWith('application/json');
    examples[call.route] = {
      ...(call.params && Object.keys(call.params).length > 0 ? { params: call.params } : {}),
      ...(call.query && Object.keys(call.query).length > 0 ? { query: call.query } : {}),
      ...(call.body !== undefined ? { body: call.body } : {}),
      status: res.statusCode,
      ...(json ? { answer: res.json() } : {}),
    };
  });
} finally {
  await t.close();
}
if (failed.length > 0) {
  console.error(`openapi:examples: ${failed.length} calls failed:\n${failed.join('\n')}`);
  process.exit(1);
}

const sorted = Object.fromEntries(
  Object.entries(examples)
    .sort(([a], [b]) => a.localeCompare(b))
    // Keys in one order, whatever order the calls gave them.
    .map(([route, { params, query, otherQuery, body, status, answer }]) => [
      route,
      { params, query, otherQuery, body, status, answer },
    ]),
);
const text = `${JSON.stringify(fixedRandomValues(trimmed(sorted)), null, 2)}\n`;
writeFileSync(OUT, text);
console.log(`openapi:examples: ${Object.keys(sorted).length} routes, ${text.length} bytes -> ${OUT}`);

/** Every list cut to MAX_ITEMS. */
function trimmed(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map(trimmed);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimmed(v)]));
  }
  return value;
}

/**
 * Random values replaced by fixed ones of the same form, the same replacement wherever a value
 * occurs: voucher codes (valid codes: 16 characters and a check character) and tokens.
 */
function fixedRandomValues(value: unknown): unknown {
  const replacements = new Map<string, string>();
  const codeForm = new RegExp(`^[0-9A-HJKMNP-TV-Z]{${CODE_RANDOM_LENGTH}}[0-9A-HJKMNP-TV-Z]$`);
  const replace = (s: string, key: string | undefined): string => {
    const known = replacements.get(s);
    if (known) return known;
    let fixed: string | undefined;
    if (codeForm.test(s) && checkCharacter(s.slice(0, -1)) === s.slice(-1)) {
      const body = `EXAMPLE${String(replacements.size + 1)}`
        .replace(/[ILOU]/g, '0')
        .padStart(CODE_RANDOM_LENGTH, '0');
      fixed = body + checkCharacter(body);
    } else if (key === 'TOKEN') {
      fixed = 'ZXhhbXBsZS10b2tlbi1mcm9tLWRlbW8tZGF0YS0xMjM'.slice(0, s.length).padEnd(s.length, 'A');
    }
    if (fixed) replacements.set(s, fixed);
    return fixed ?? s;
  };
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') return replace(v, key);
    if (Array.isArray(v)) return v.map((item) => walk(item, key));
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, walk(inner, k)]));
    return v;
  };
  return walk(value);
}

/** `Date` fixed at `now`: `new Date()` and `Date.now()` give it; dates given explicitly are kept. */
function freezeClock(now: number): void {
  const Real = Date;
  class FixedDate extends Real {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(now);
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return now;
    }
  }
  globalThis.Date = FixedDate as DateConstructor;
}
