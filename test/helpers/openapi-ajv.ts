import type { Ajv as AjvCore } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { digitsMaxKeyword } from '../../src/http/digits-keyword.ts';

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked as plain JSON
export type Doc = any;

const DOCUMENT_ID = 'urn:tv2:openapi';

/** A JSON pointer's token: `~` and `/` escaped (RFC 6901). */
export const pointerToken = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Validation against the schemas of the served OpenAPI 3.1 document (JSON Schema 2020-12): the
 * whole document is added to one Ajv under an id, and a schema is compiled by its JSON pointer in
 * it, so `$ref: '#/components/schemas/...'` resolves as the document means it. The server's own
 * keyword (`x-digits-max`) is checked as the server checks it; the formats the document uses are
 * known (binary bodies are not validated here).
 */
export function documentValidator(doc: Doc) {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    logger: false,
    formats: {
      binary: true,
      byte: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
      email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
    },
  });
  digitsMaxKeyword(ajv as unknown as AjvCore);
  ajv.addSchema(doc, DOCUMENT_ID);
  const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
  return {
    /** The errors of `value` against the schema at `pointer` in the document ([] when it is valid). */
    errorsAt(pointer: string, value: unknown): string[] {
      let validate = compiled.get(pointer);
      if (!validate) {
        validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
        compiled.set(pointer, validate);
      }
      if (validate(value)) return [];
      return (validate.errors ?? [])
        .slice(0, 8)
        .map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    },
  };
}

/** The object a `$ref` to `#/components/...` names, or the object itself. */
export function resolved(doc: Doc, node: Doc): { node: Doc; pointer?: string } {
  if (node && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    const pointer = node.$ref.slice(1);
    const target = pointer
      .split('/')
      .slice(1)
      .reduce((at: Doc, token: string) => at?.[token.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return { node: target, pointer };
  }
  return { node };
}

/** Every operation of the document: its method, path and the pointer to it. */
export function operationsOf(doc: Doc): { method: string; path: string; op: Doc; pointer: string }[] {
  const out: { method: string; path: string; op: Doc; pointer: string }[] = [];
  for (const [path, item] of Object.entries<Doc>(doc.paths)) {
    for (const [method, op] of Object.entries<Doc>(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
      out.push({ method, path, op, pointer: `/paths/${pointerToken(path)}/${method}` });
    }
  }
  return out;
}
