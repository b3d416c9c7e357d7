import { Ajv2020 } from 'ajv/dist/2020.js';
import type { LightMyRequestResponse } from 'fastify';
import { closedDocument, type Doc, documentValidator, pointerToken, resolved } from './openapi-ajv.ts';

/**
 * The answer side of the contract (issue 14), shared by test/contract-answers.test.ts (the demo
 * scenario and refusals) and test/contract-requests.test.ts (answers to generated requests): an
 * answer's status must be declared for its route, its media type too, its JSON body must validate
 * against the declared schema of the served document, closed (closedDocument: no property its schema
 * does not declare), and the headers the document describes must be declared where they are sent.
 */
export function answerChecker(doc: Doc) {
  const validator = documentValidator(closedDocument(doc));
  /** Header schemas are plain (no references): one small Ajv for them. */
  const headerAjv = new Ajv2020({ strict: false });
  const headerValidator = (schema: object) => headerAjv.compile(schema);
  /** How many JSON bodies were validated: the checks are not vacuous. */
  let validated = 0;

  /** What is wrong with `res` as an answer of `route` ("METHOD /path" as the document names it); [] if nothing. */
  function mismatches(route: string, res: LightMyRequestResponse): string[] {
    const space = route.indexOf(' ');
    const method = route.slice(0, space).toLowerCase();
    const path = route.slice(space + 1);
    const op = doc.paths[path]?.[method];
    const said = `${route} -> ${res.statusCode}`;
    if (!op) return [`${said}: the route is not in the document`];
    const status = String(res.statusCode);
    const declared = op.responses[status] ?? op.responses[`${status[0]}XX`] ?? op.responses.default;
    if (!declared) return [`${said}: status not declared (${Object.keys(op.responses).join(', ')})`];
    const { node: response, pointer } = resolved(doc, declared);
    const base = pointer ?? `/paths/${pointerToken(path)}/${method}/responses/${status}`;
    return [...headerMismatches(said, response, res), ...bodyMismatches(said, response, base, res)];
  }

  /** The headers the document describes: one the answer sends must be declared on its response. */
  const DOCUMENTED_HEADERS = [
    'x-request-id',
    'etag',
    'idempotent-replayed',
    'allow',
    'retry-after',
    'www-authenticate',
  ];

  function headerMismatches(said: string, response: Doc, res: LightMyRequestResponse): string[] {
    const declared = new Map(
      Object.entries<Doc>(response.headers ?? {}).map(([name, h]) => [
        name.toLowerCase(),
        resolved(doc, h).node,
      ]),
    );
    const out: string[] = [];
    for (const name of DOCUMENTED_HEADERS) {
      const value = res.headers[name];
      const header = declared.get(name);
      if (value === undefined) {
        if (header?.required) out.push(`${said}: header ${name} is required but not sent`);
        continue;
      }
      if (!header) {
        out.push(`${said}: header ${name} sent but not declared (${[...declared.keys()].join(', ')})`);
        continue;
      }
      const text = String(value);
      const typed = header.schema?.type === 'integer' && /^[0-9]+$/.test(text) ? Number(text) : text;
      if (!headerValidator(header.schema ?? {})(typed))
        out.push(`${said}: header ${name}: ${text} does not fit its schema`);
    }
    return out;
  }

  function bodyMismatches(said: string, response: Doc, base: string, res: LightMyRequestResponse): string[] {
    if (res.rawPayload.length === 0) {
      return res.statusCode === 204 || res.statusCode === 304 || !response.content
        ? []
        : [`${said}: an empty body, but the document declares content`];
    }
    const type =
      String(res.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim() ?? '';
    const media = response.content?.[type];
    if (!media)
      return [`${said}: media type ${type} not declared (${Object.keys(response.content ?? {}).join(', ')})`];
    if (!/json$/.test(type)) return [];
    validated++;
    const errors = validator.errorsAt(`${base}/content/${pointerToken(type)}/schema`, res.json());
    return errors.length > 0 ? [`${said}: ${errors.join('; ')} in ${res.body.slice(0, 300)}`] : [];
  }

  return { mismatches, validated: () => validated };
}
