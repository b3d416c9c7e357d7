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

const COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const;
/** Keywords whose schemas are parts of the schema they sit in, not wholes. */
const PARTS = new Set<string>([...COMBINATORS, 'if', 'then', 'else', 'not', 'dependentSchemas']);

/**
 * A copy of the document in which every object schema is closed (`unevaluatedProperties: false`
 * where it says nothing of other properties; JSON Schema 2020-12, so a schema made of `allOf`
 * parts is closed as a whole, not part by part): an answer validated against it may hold no
 * property its schema does not declare.
 */
export function closedDocument(doc: Doc): Doc {
  const copy = structuredClone(doc);
  // A component that is a part of an `allOf`, `anyOf` or `oneOf` somewhere stays open: its whole
  // closes it (unevaluatedProperties sees what the parts evaluated).
  const parts = new Set<string>();
  const findParts = (node: Doc): void => {
    if (!node || typeof node !== 'object') return;
    for (const key of COMBINATORS) {
      for (const part of Array.isArray(node[key]) ? node[key] : []) {
        if (typeof part?.$ref === 'string') parts.add(part.$ref);
      }
    }
    for (const value of Object.values<Doc>(node)) findParts(value);
  };
  findParts(copy);
  const close = (node: Doc, open: boolean): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) close(item, open);
      return;
    }
    const isObject = node.properties !== undefined || COMBINATORS.some((key) => node[key] !== undefined);
    if (
      isObject &&
      !open &&
      node.additionalProperties === undefined &&
      node.unevaluatedProperties === undefined
    ) {
      node.unevaluatedProperties = false;
    }
    for (const [key, value] of Object.entries<Doc>(node)) {
      if (key === 'example' || key === 'examples' || key === 'enum' || key === 'const') continue;
      close(value, PARTS.has(key));
    }
  };
  for (const [name, schema] of Object.entries<Doc>(copy.components?.schemas ?? {})) {
    close(schema, parts.has(`#/components/schemas/${name}`));
  }
  close(copy.components?.responses, false);
  close(copy.paths, false);
  return copy;
}
