import type { Ajv as AjvCore } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { generate } from 'json-schema-faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoIfEmpty } from '../src/app.ts';
import { digitsMaxKeyword } from '../src/http/digits-keyword.ts';
import { answerChecker } from './helpers/openapi-answers.ts';
import { testSeed } from './helpers/seed.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * What the served OpenAPI document says a request may be, the server accepts (issue 14): for every
 * operation and admin route, requests generated from the document's own schemas (query and path
 * parameters, JSON bodies; `$ref`s resolved against the whole document) by json-schema-faker, and
 * checked against the document before they are sent, go with a token of the route's role (ADMIN,
 * B2B, B2C) to a server holding the demo world; none may get a 5xx or be refused as malformed.
 *
 * The rule that tells "malformed" from a business answer, by the problem's `code`:
 * - A code of the HTTP layer saying the request is not what the route takes (MALFORMED_JSON,
 *   EMPTY_BODY, BODY_TOO_COMPLEX, BAD_REQUEST, NOT_FOUND for the path, METHOD_NOT_ALLOWED,
 *   UNSUPPORTED_MEDIA_TYPE, BODY_TOO_LARGE, PATH_SEGMENT_TOO_LONG) or a 401/403 (the token has the
 *   role the document names): malformed.
 * - `VALIDATION_FAILED`: the code of the schema validator and also of the services' field checks, so
 *   the code alone does not tell them apart; each field it names is looked at. A refusal for a rule
 *   JSON Schema cannot state (a body key equal to the path's, a row that must exist, dates in
 *   order, ...) is a business answer when NAMED_RULES lists it and the field's description (or the
 *   operation's) names the rule; any other is malformed: the schema should have stated it.
 * - Any other code (404 ARTICLE_NOT_FOUND, 409 for a rule refused, a 400 with an area's own code):
 *   a business answer.
 *
 * Skipped, with a reason: the binary image uploads (their body is bytes, not JSON), /TV2/GetToken
 * (Basic credentials, no input) and planned (501) operations. The seed is testSeed()'s: a failure
 * prints it (TV2_TEST_SEED replays it) and one request per kind of fault.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: Json };

const REQUESTS_PER_ROUTE = 6;

/**
 * The `VALIDATION_FAILED` refusals of rules JSON Schema cannot state: the field (a query parameter,
 * path key or JSON pointer into the body), the server's message, and the words that name the rule in
 * the field's description or the operation's (checked: a rule a client cannot read is a fault).
 * Rules JSON Schema can state are in the schemas, so a schema-valid request never meets them.
 */
interface NamedRule {
  field: RegExp;
  message: RegExp;
  described: RegExp;
}
const NAMED_RULES: NamedRule[] = [
  // a body key repeats the path's key
  { field: /^\/[A-Z]+$/, message: /^must equal the path's/, described: /path's key/i },
  // an unconfined token names the party; a confined one may leave it out
  {
    field: /(^|\/)(strclient|strcustomer|CLIENT|CUSTOMER)$/,
    message: /^give the (client|customer) number$/,
    described: /confined/i,
  },
  // one of two query parameters, or two that go together
  { field: /^str/, message: /^give either/, described: /either/i },
  { field: /^strl(at|on)$/, message: /^give it with/, described: /with str/i },
  // rows that must exist
  { field: /./, message: /^no (article|location|customer|client) /, described: /exist/i },
  { field: /\/LINE$/, message: /^the order has lines/, described: /line/i },
  { field: /./, message: /given twice/, described: /once/i },
  // dates in order, and real calendar dates (the pattern admits 2025-02-30)
  { field: /./, message: /^is before /, described: /not before/i },
  { field: /BIRTHDATE$/, message: /^is before 1900/, described: /not before 1900/i },
  { field: /./, message: /^(must be a date|is not a date)/, described: /calendar date|YYYY-MM-DD/i },
  // amounts: JSON numbers with at most two decimals (Ajv's multipleOf is not exact for 0.01)
  { field: /./, message: /two decimals/, described: /two decimals/i },
  // lists a pattern cannot hold: countries, VAT prefixes, postal codes per country
  {
    field: /./,
    message: /ISO 3166|country prefix|VAT number|postal code|2 to 10 letters/,
    described: /checked/i,
  },
  { field: /ADDRESS$/, message: /^give a street/, described: /street .*post box/i },
  { field: /POSTALCODE$/, message: /^is required in /, described: /required in/i },
  { field: /EMAIL$/, message: /one address/, described: /e-?mail address/i },
  { field: /PHOTO$/, message: /base64/, described: /base64/i },
  { field: /^strl(at|on)$/, message: /^must be -?[0-9]+ to/, described: /-90|-180|degrees/i },
  { field: /^strscn$/, message: /not a change feed/, described: /distance/i },
  // what a stock movement of a TYPE needs (if/then would add an unnamed "/" error to each answer)
  { field: /^\/(QUANTITY|TOLOCATION)$/, message: /^is required$/, described: /required for a/i },
  // a customer's fields, all named in one answer by the service (docs/customers.md, "Validation")
  { field: /\/(CITY|COUNTRYPOST|LASTNAME)$/, message: /^is required$/, described: /required/i },
  { field: /CURRENCY$/, message: /^must be an ISO 4217 code/, described: /ISO 4217/i },
  { field: /EXTRAADDRESSNO$/, message: /^repeats/, described: /at most once/i },
  { field: /\/TENDERS\/[0-9]+\/CODE$/, message: /bonus card number is digits/, described: /digits only/i },
  { field: /\/DESCRIPTION$/, message: /at least one language/, described: /at least one language/i },
  { field: /PICKUPLOCATION$/, message: /^required with /, described: /required with/i },
  // exactly one of, and either of two fields, where an empty or null one counts as not given
  { field: /./, message: /^give exactly one of/, described: /exactly one of/i },
  { field: /./, message: /^give either/, described: /either/i },
  // a new client or customer (no number given, and a token not confined to one) needs these
  { field: /./, message: /^is required for a new/, described: /required/i },
];

const HTTP_SHAPE_CODES = new Set([
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'EMPTY_BODY',
  'BODY_TOO_COMPLEX',
  'BAD_REQUEST',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'UNSUPPORTED_MEDIA_TYPE',
  'BODY_TOO_LARGE',
  'PATH_SEGMENT_TOO_LONG',
  'TOKEN_MISSING',
  'TOKEN_INVALID',
  'ROLE_REQUIRED',
  'OUTSIDE_SCOPE',
]);

interface Route {
  method: string;
  path: string;
  operation: Schema;
  audience: 'ADMIN' | 'B2B' | 'B2C' | 'GENERAL' | 'PUBLIC' | 'BASIC';
}

let t: TestApp;
let doc: Schema;
const tokens: Record<string, string> = {};
let answers: ReturnType<typeof answerChecker>;
/** What the answers to the generated requests got wrong (the second property), one per kind. */
const answerFaults = new Map<string, string>();
let answersChecked = 0;

beforeAll(async () => {
  t = await startTestApp();
  await loadDemoIfEmpty(t.services);
  doc = (await t.app.openApiDocument()) as unknown as Schema;
  answers = answerChecker(doc);
  tokens.ADMIN = await t.tokenFor(['ADMIN']);
  tokens.B2B = await t.tokenFor(['B2B']);
  tokens.B2C = await t.tokenFor(['B2C']);
  tokens.GENERAL = tokens.B2B;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/**
 * The document's own verdict on a generated value: json-schema-faker does not honour every keyword
 * (look-aheads in patterns, if/then, oneOf of required sets), so a value is sent only when it
 * validates against its schema in the document (compiled by JSON pointer, with the server's
 * `x-digits-max`); others are drawn again.
 */
let validator: ((pointer: string, value: unknown) => boolean) | undefined;
function schemaValid(pointer: string, value: unknown): boolean {
  if (!validator) {
    const ajv = new Ajv2020({ strict: false, allErrors: false, logger: false, validateFormats: false });
    digitsMaxKeyword(ajv as unknown as AjvCore);
    ajv.addSchema(doc, 'urn:tv2:openapi');
    const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
    validator = (at, v) => {
      let validate = compiled.get(at);
      if (!validate) {
        validate = ajv.compile({ $ref: `urn:tv2:openapi#${at}` });
        compiled.set(at, validate);
      }
      return validate(v) as boolean;
    };
  }
  return validator(pointer, value);
}

const token = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** Follows a `#/...` pointer in the document. */
function pointer(ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`a $ref outside the document: ${ref}`);
  let node: Json = doc as Json;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = (node as Record<string, Json>)[key] as Json;
    if (node === undefined) throw new Error(`a $ref to nothing: ${ref}`);
  }
  return node;
}

/** The schema with every `$ref` into the document replaced by what it points at. */
function resolved(node: Json, depth = 0): Json {
  if (depth > 40) throw new Error('$ref nests too deep');
  if (Array.isArray(node)) return node.map((n) => resolved(n, depth));
  if (node === null || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    const { $ref, ...rest } = node;
    const target = resolved(pointer($ref), depth + 1) as Schema;
    return Object.keys(rest).length ? { ...target, ...(resolved(rest, depth) as Schema) } : target;
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolved(v, depth)]));
}

function routes(): Route[] {
  const out: Route[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Schema>)) {
    for (const method of ['get', 'put', 'post', 'delete']) {
      const operation = item[method] as Schema | undefined;
      if (!operation) continue;
      const security = JSON.stringify(operation.security ?? null);
      const audience = path.startsWith('/TV2/Admin/')
        ? 'ADMIN'
        : security.includes('basic')
          ? 'BASIC'
          : ((operation['x-tv2-audience'] as Route['audience'] | undefined) ?? 'PUBLIC');
      out.push({ method: method.toUpperCase(), path, operation, audience });
    }
  }
  return out;
}

/** Why a route is not generated for, or undefined. */
function skipReason(route: Route): string | undefined {
  if (route.operation['x-tv2-status'] === 'planned') return 'planned: answers 501 by design';
  if (route.audience === 'BASIC') return 'takes Basic credentials, no schema-described input';
  const body = route.operation.requestBody as Schema | undefined;
  const types = Object.keys((body?.content as Schema | undefined) ?? {});
  if (types.length && !types.includes('application/json')) return `binary upload (${types.join(', ')})`;
  if (!body && route.method === 'PUT' && /\/images\/\{imageno\}$/.test(route.path)) {
    return 'binary upload (image bytes)';
  }
  return undefined;
}

/**
 * `x-digits-max` (the HTTP layer's keyword, declared in the document): digits spelling at most max.
 * json-schema-faker does not know it, so a generated digit string is brought into range (its value
 * modulo max + 1, which keeps it deterministic).
 */
function digitsInRange(value: unknown, schema: unknown): unknown {
  const max = (schema as Schema | null)?.['x-digits-max'];
  if (typeof max !== 'number' || typeof value !== 'string' || !/^[0-9]+$/.test(value)) return value;
  const pattern = (schema as Schema).pattern;
  const fits = typeof pattern !== 'string' || new RegExp(pattern).test(value);
  if (BigInt(value) <= BigInt(max) && fits) return value;
  const inRange = (BigInt(value) % BigInt(max + 1)).toString();
  // keep a positive pattern positive
  return inRange === '0' && /\[1-9\]/.test(String((schema as Schema).pattern)) ? '1' : inRange;
}

async function value(schema: Json, seed: number): Promise<Json> {
  return (await generate(schema as never, {
    seed,
    maxDefaultItems: 3,
    maxItems: 5,
    optionalsProbability: 0.6,
    outputTransform: digitsInRange,
  })) as Json;
}

interface Sent {
  method: string;
  url: string;
  body?: Json;
}

/** A schema-valid value for the schema at `pointer`, or undefined when none was drawn in 8 tries. */
async function validValue(pointer: string, seed: number): Promise<Json | undefined> {
  const schema = resolved(
    pointer
      .split('/')
      .slice(1)
      .reduce<Json>(
        (at, t) => (at as Schema)[t.replaceAll('~1', '/').replaceAll('~0', '~')] as Json,
        doc as Json,
      ),
  );
  for (let attempt = 0; attempt < 8; attempt++) {
    const v = await value(schema, seed + attempt * 104729);
    if (schemaValid(pointer, v)) return v;
  }
  return undefined;
}

async function request(route: Route, seed: number): Promise<Sent | undefined> {
  const at = `/paths/${token(route.path)}/${route.method.toLowerCase()}`;
  let path = route.path;
  const query: string[] = [];
  let n = 0;
  for (const [i, parameter] of ((route.operation.parameters as Schema[] | undefined) ?? []).entries()) {
    const p = resolved(parameter) as Schema;
    if (p.in === 'header') continue;
    if (p.in === 'query' && !p.required && (seed + n) % 3 === 0) {
      n++;
      continue;
    }
    const v = await validValue(`${at}/parameters/${i}/schema`, seed * 31 + n++);
    if (v === undefined) return undefined;
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(text));
    else if (p.in === 'query')
      query.push(`${encodeURIComponent(String(p.name))}=${encodeURIComponent(text)}`);
  }
  const url = query.length ? `${path}?${query.join('&')}` : path;
  const content = (route.operation.requestBody as Schema | undefined)?.content as Schema | undefined;
  if (!content?.['application/json']) return { method: route.method, url };
  const body = await validValue(`${at}/requestBody/content/application~1json/schema`, seed * 31 + n);
  return body === undefined ? undefined : { method: route.method, url, body };
}

interface Problem {
  code?: string;
  detail?: string;
  errors?: { name: string; message: string }[];
}

/** The schema of the field a problem names, or undefined. */
function fieldSchema(route: Route, name: string): Schema | undefined {
  const parameters = ((route.operation.parameters as Schema[] | undefined) ?? []).map(
    (p) => resolved(p) as Schema,
  );
  const parameter = parameters.find((p) => p.name === name);
  if (parameter) return { ...(parameter.schema as Schema), description: parameter.description ?? '' };
  if (!name.startsWith('/')) return undefined;
  const content = (route.operation.requestBody as Schema | undefined)?.content as Schema | undefined;
  let node = resolved(
    ((content?.['application/json'] as Schema | undefined)?.schema ?? null) as Json,
  ) as Schema | null;
  for (const token of name.split('/').slice(1)) {
    if (!node) return undefined;
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    const branches = [node, ...(((node.anyOf ?? node.oneOf ?? []) as Schema[]) || [])];
    let next: Schema | undefined;
    for (const b of branches) {
      const props = b.properties as Record<string, Schema> | undefined;
      if (props?.[key]) next = props[key];
      else if (b.items && /^[0-9]+$/.test(key)) next = b.items as Schema;
      if (next) break;
    }
    node = next ?? null;
  }
  return node ?? undefined;
}

function descriptions(schema: Schema | undefined): string {
  if (!schema) return '';
  return [schema.description, ...((schema.anyOf ?? schema.oneOf ?? []) as Schema[]).map((s) => s.description)]
    .filter(Boolean)
    .join(' ');
}

/** Why an answer breaks the contract, or undefined. */
function fault(route: Route, status: number, problem: Problem): string | undefined {
  if (status >= 500) return `a ${status}`;
  if (status < 400 || !problem.code || !HTTP_SHAPE_CODES.has(problem.code)) return undefined;
  if (problem.code !== 'VALIDATION_FAILED') return `refused as malformed (${problem.code})`;
  if (!problem.errors?.length) return 'refused as malformed (VALIDATION_FAILED, no field named)';
  const verdicts = problem.errors.map((e) => {
    const rules = NAMED_RULES.filter((r) => r.field.test(e.name) && r.message.test(e.message));
    if (rules.length === 0) return 'a rule the schema could state';
    const text = `${descriptions(fieldSchema(route, e.name))} ${route.operation.description ?? ''}`;
    return rules.some((r) => r.described.test(text)) ? undefined : 'a rule no description names';
  });
  const faults = [...new Set(verdicts.filter((v) => v !== undefined))];
  return faults.length ? `refused as malformed (VALIDATION_FAILED: ${faults.join(', ')})` : undefined;
}

describe(`every request the document allows is accepted (${ENGINE})`, () => {
  it('generated requests to every operation and admin route get neither a 5xx nor a shape refusal', async () => {
    const seed = testSeed();
    const all = routes();
    // one example per route and kind of fault
    const faults = new Map<string, string>();
    const skipped: string[] = [];
    let sent = 0;
    // routes for which json-schema-faker drew no schema-valid request in 8 tries (said, not failed)
    const undrawn = new Set<string>();
    for (const [index, route] of all.entries()) {
      const reason = skipReason(route);
      if (reason) {
        skipped.push(`${route.method} ${route.path}: ${reason}`);
        continue;
      }
      for (let i = 0; i < REQUESTS_PER_ROUTE; i++) {
        const requestSeed = (seed + index * 1009 + i * 7919) >>> 0;
        const req = await request(route, requestSeed);
        if (!req) {
          undrawn.add(`${route.method} ${route.path}`);
          continue;
        }
        const headers: Record<string, string> = {};
        if (route.audience !== 'PUBLIC') headers.authorization = `Bearer ${tokens[route.audience]}`;
        if (req.body !== undefined) headers['content-type'] = 'application/json';
        const res = await t.app.inject({
          method: req.method as 'GET',
          url: req.url,
          headers,
          ...(req.body !== undefined ? { payload: JSON.stringify(req.body) } : {}),
        });
        sent++;
        answersChecked++;
        for (const wrong of answers.mismatches(`${route.method} ${route.path}`, res)) {
          // one per route, status and kind of fault, without the values that differ per request
          const kind = wrong.replace(/ in \{.*$/, '').replace(/"[^"]*"/g, '"…"');
          if (!answerFaults.has(kind)) answerFaults.set(kind, `${req.method} ${req.url}`);
        }
        let problem: Problem = {};
        try {
          problem = res.headers['content-type']?.toString().includes('json') ? res.json() : {};
        } catch {}
        const why = fault(route, res.statusCode, problem);
        if (why) {
          // the kind of fault, without the values (list indexes, keys) that differ per request
          const named = [
            ...new Set(
              (problem.errors ?? []).map(
                (e) => `${e.name.replace(/\/[0-9]+\//g, '/n/')}: ${e.message.replace(/"[^"]*"/g, '"…"')}`,
              ),
            ),
          ].join('; ');
          const kind = `${why} ${route.method} ${route.path}: ${named || problem.detail || res.statusCode}`;
          const sentBody = req.body !== undefined ? ` ${JSON.stringify(req.body).slice(0, 400)}` : '';
          if (!faults.has(kind)) faults.set(kind, `${req.method} ${req.url}${sentBody}`);
        }
      }
    }
    console.log(
      `[contract-requests] ${ENGINE}: ${sent} requests to ${all.length - skipped.length} routes; ` +
        `skipped: ${skipped.join('; ')}; no valid request drawn (sometimes): ${[...undrawn].join(', ') || 'none'}`,
    );
    expect(
      [...faults].map(([kind, example]) => `${kind}\n    e.g. ${example}`),
      `seed ${seed}`,
    ).toEqual([]);
  }, 300_000);

  it('every answer to those requests validates against its declared status, headers and schema', () => {
    // The answers of the test above (run first: tests in a file run in order), checked as
    // test/contract-answers.test.ts checks the demo scenario's (test/helpers/openapi-answers.ts).
    expect(answersChecked).toBeGreaterThan(500);
    expect(answers.validated()).toBeGreaterThan(500);
    expect([...answerFaults].map(([kind, example]) => `${kind}\n    e.g. ${example}`)).toEqual([]);
  });
});

/**
 * The disagreements the property test found, each fixed in the schema: a request the server refuses
 * is now one the document refuses too (checked against the document), and the server still refuses
 * it (no check was loosened). Query cases name a parameter; body cases give the whole body.
 */
const FIXED: { route: string; query?: Record<string, string>; body?: Json; role: string }[] = [
  // a page size above the operation's maximum, or 0; a page position of 0
  { route: 'GET /TV2/Execute/APIPACK.B2B_GetAllArticles', query: { strlimit: '1001' }, role: 'B2B' },
  {
    route: 'GET /TV2/Execute/APIPACK.B2B_GetOrder',
    query: { strcustomer: '1', strlimit: '101' },
    role: 'B2B',
  },
  { route: 'GET /TV2/Execute/APIPACK.B2B_GetDeliveryHistory', query: { strlimit: '1001' }, role: 'B2B' },
  { route: 'GET /TV2/Execute/APIPACK.B2B_GetStocks', query: { strlimit: '0' }, role: 'B2B' },
  { route: 'GET /TV2/Execute/APIPACK.B2B_GetAllPrices', query: { stroffset: '0' }, role: 'B2B' },
  {
    route: 'GET /TV2/Execute/APIPACK.B2B_GetInvoiceHistory',
    query: { strcustomer: '1', strscn: '0', stroffset: '0' },
    role: 'B2B',
  },
  {
    route: 'GET /TV2/Execute/APIPACK.B2B_GetOrderStateChanges',
    query: { strscn: '0', stroffset: '00' },
    role: 'B2B',
  },
  // numbers of 1 or more
  {
    route: 'GET /TV2/Execute/APIPACK.B2B_GetArticlePrice',
    query: { strcustomer: '0', strarticle: 'M10002-410' },
    role: 'B2B',
  },
  {
    route: 'GET /TV2/Execute/APIPACK.B2B_GetArticlePrice',
    query: { strcustomer: '10001', strarticle: 'M10002-410', strquantity: '0' },
    role: 'B2B',
  },
  { route: 'GET /TV2/Execute/APIPACK.B2B_GetPriceAgreement', query: { stragreement: '0' }, role: 'B2B' },
  {
    route: 'GET /TV2/Execute/APIPACK.B2C_GetArticleImage',
    query: { strarticle: 'M10002-410', strimageno: '0' },
    role: 'B2C',
  },
  {
    route: 'GET /TV2/Execute/APIPACK.B2C_GetShopImage',
    query: { strlocation: 'AMS', strimageno: '0' },
    role: 'B2C',
  },
  {
    route: 'GET /TV2/Execute/APIPACK.B2C_GetUserMessages',
    query: { strclient: '100001', strmessage: '0' },
    role: 'B2C',
  },
  // a month or day no calendar has
  {
    route: 'GET /TV2/Execute/APIPACK.B2B_GetArticlePrice',
    query: { strcustomer: '10001', strarticle: 'M10002-410', strdate: '2026-13-01' },
    role: 'B2B',
  },
  { route: 'PUT /TV2/Admin/vouchers/{code}/validuntil', body: { VALIDUNTIL: '2026-00-10' }, role: 'ADMIN' },
  {
    route: 'POST /TV2/Admin/billing/payments',
    body: { DATE: '2026-01-32', AMOUNT: 10, REFERENCE: 'r', CUSTOMER: 10001 },
    role: 'ADMIN',
  },
  // required if: a credit-note voucher or a client cheque names its client
  {
    route: 'POST /TV2/Admin/vouchers',
    body: { KIND: 'CREDIT_NOTE_VOUCHER', AMOUNT: 5, WEBID: 'FIXED-1' },
    role: 'ADMIN',
  },
  // a customer number where one must be given is 1 or more
  {
    route: 'PUT /TV2/Admin/customerarticlelinks',
    body: { ARTICLELINKS: [{ CUSTOMER: 0, ARTICLE: 'M10002-410', CUSTOMERARTICLE: 'X' }] },
    role: 'ADMIN',
  },
];

describe(`the disagreements found are fixed in the schemas (${ENGINE})`, () => {
  it('refuses in the document what the server refuses', async () => {
    const byRoute = new Map(routes().map((r) => [`${r.method} ${r.path}`, r]));
    for (const c of FIXED) {
      const route = byRoute.get(c.route);
      expect(route, c.route).toBeDefined();
      if (!route) continue;
      const at = `/paths/${token(route.path)}/${route.method.toLowerCase()}`;
      const parameters = (route.operation.parameters as Schema[] | undefined) ?? [];
      const documentRefuses = c.query
        ? Object.entries(c.query).some(([name, v]) => {
            const i = parameters.findIndex((p) => (resolved(p) as Schema).name === name);
            return !schemaValid(`${at}/parameters/${i}/schema`, v);
          })
        : !schemaValid(`${at}/requestBody/content/application~1json/schema`, c.body);
      expect(documentRefuses, `${c.route} ${JSON.stringify(c.query ?? c.body)}`).toBe(true);

      const path = route.path.replace(/\{[^}]+\}/g, 'FIXED1');
      const query = c.query ? `?${new URLSearchParams(c.query).toString()}` : '';
      const res = await t.app.inject({
        method: route.method as 'GET',
        url: `${path}${query}`,
        headers: {
          authorization: `Bearer ${tokens[c.role]}`,
          ...(c.body ? { 'content-type': 'application/json' } : {}),
        },
        ...(c.body ? { payload: JSON.stringify(c.body) } : {}),
      });
      expect(res.statusCode, `${c.route}: ${res.body}`).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
  });
});
