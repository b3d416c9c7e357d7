/**
 * Named component schemas for the OpenAPI document: every schema that carries a JSON Schema `title`
 * (an annotation validators and serializers ignore, so it changes nothing at run time) is moved to
 * `components.schemas[title]` and each place it was is replaced by a `$ref` to it. A generated
 * client then gets one named type per entity (`components['schemas']['Article']`) instead of a
 * structural copy per operation, and the document is smaller.
 *
 * The schemas with a title are the entities of the areas (src/areas/<area>/schemas.ts) and the
 * answer roots (`rooted()` in src/kernel/schemas.ts: the title is the root, `B2BGETORDER`). Roots
 * and bodies that were given no title are named here after their operation (`namedRoots`), so no
 * answer or body of the document is an inline schema.
 *
 * Two different schemas with one title are refused: the name would stand for two types.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Keys whose values are data, not schemas: never searched for titles. */
const DATA_KEYS = new Set(['example', 'examples', 'enum', 'const', 'default']);

export const SCHEMA_REF_PREFIX = '#/components/schemas/';

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON text of a value with its object keys sorted: two schemas are the same when it is. */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] as Json)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A component name as OpenAPI allows it (`^[a-zA-Z0-9._-]+$`). */
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * Hoists every titled schema under `roots` (the document's paths, and its component schemas) into
 * `schemas`, innermost first, and returns the titles hoisted. A title used for two different
 * schemas, or one that is no valid component name, is an error naming it.
 */
export function hoistTitledSchemas(given: object): string[] {
  const document = given as JsonObject;
  const components = childObject(document, 'components');
  const schemas = childObject(components, 'schemas');
  const canonical = new Map<string, string>();
  for (const [name, schema] of Object.entries(schemas)) canonical.set(name, canonicalJson(schema));
  const hoisted: string[] = [];

  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) out[key] = DATA_KEYS.has(key) ? value : visit(value);
    const title = out.title;
    // `title` as a string: a property named "title" is an object under `properties`.
    if (typeof title !== 'string' || !('type' in out || 'anyOf' in out || 'oneOf' in out || 'allOf' in out)) {
      return out;
    }
    if (!COMPONENT_NAME.test(title)) throw new Error(`schema title "${title}" is not a component name`);
    const text = canonicalJson(out);
    const known = canonical.get(title);
    if (known === undefined) {
      canonical.set(title, text);
      schemas[title] = out;
      hoisted.push(title);
    } else if (known !== text) {
      throw new Error(`two different schemas are titled "${title}"`);
    }
    return { $ref: `${SCHEMA_REF_PREFIX}${title}` };
  };

  for (const [name, schema] of Object.entries(schemas)) {
    // A component keeps its own place; only what it holds is hoisted.
    if (isObject(schema)) {
      const inner: JsonObject = {};
      for (const [key, value] of Object.entries(schema)) {
        inner[key] = DATA_KEYS.has(key) ? value : visit(value);
      }
      schemas[name] = inner;
    }
  }
  document.paths = visit(document.paths ?? {});
  return hoisted;
}

/** `parent[key]`, made an empty object first when it is none. */
export function childObject(parent: JsonObject, key: string): JsonObject {
  const value = parent[key];
  if (isObject(value)) return value;
  const made: JsonObject = {};
  parent[key] = made;
  return made;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** Each operation of a document with its path and method. */
export function operationsOf(given: object): Array<{ path: string; method: string; op: JsonObject }> {
  const found: Array<{ path: string; method: string; op: JsonObject }> = [];
  for (const [path, item] of Object.entries(((given as JsonObject).paths ?? {}) as JsonObject)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (isObject(op)) found.push({ path, method, op });
    }
  }
  return found;
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The answer root of an operation, as `rootOf` in src/kernel/operation.ts makes it. */
function rootName(operationId: string): string {
  return operationId.replaceAll('_', '').toUpperCase();
}

/**
 * Gives a title to each JSON answer and JSON body root that has none (run before hoisting): a TV2
 * operation's answer is named after its root (`APIPING`), a back-office answer `<OperationId>Answer`,
 * a body `<OperationId>Body`. A root that is a `$ref` already, or not an object, is left alone.
 */
export function nameRoots(document: object): void {
  for (const { path, op } of operationsOf(document)) {
    const id = String(op.operationId ?? '');
    const admin = path.startsWith('/TV2/Admin/');
    const responses = isObject(op.responses) ? op.responses : {};
    for (const [status, response] of Object.entries(responses)) {
      if (!status.startsWith('2') || !isObject(response)) continue;
      const schema = jsonSchemaOf(response);
      if (schema && typeof schema.title !== 'string' && schema.type === 'object') {
        schema.title = admin ? `${upperFirst(id)}Answer` : (soleKey(schema) ?? rootName(id));
      }
    }
    const body = isObject(op.requestBody) ? jsonSchemaOf(op.requestBody) : undefined;
    if (body && typeof body.title !== 'string' && body.type === 'object')
      body.title = `${upperFirst(id)}Body`;
  }
}

/** The one property of a TV2 answer: its root. */
function soleKey(schema: JsonObject): string | undefined {
  const keys = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  return keys.length === 1 ? keys[0] : undefined;
}

function jsonSchemaOf(holder: JsonObject): JsonObject | undefined {
  const content = holder.content;
  if (!isObject(content)) return undefined;
  const json = content['application/json'];
  return isObject(json) && isObject(json.schema) ? json.schema : undefined;
}

/**
 * The back-office uploads take raw bytes (AdminRoute.rawBodyTypes), which Fastify does not validate
 * against a body schema; admin-routes.ts names their media types in `x-tv2-raw-body`, and this
 * makes the requestBody a client and a validating proxy need: each type, bytes (`format: binary`).
 */
export function rawBodies(document: object): void {
  for (const { op } of operationsOf(document)) {
    const types = op['x-tv2-raw-body'];
    if (!Array.isArray(types)) continue;
    delete op['x-tv2-raw-body'];
    op.requestBody = {
      required: true,
      description: `The raw bytes, sent as ${types.join(', ')}.`,
      content: Object.fromEntries(
        types.map((type) => [String(type), { schema: { type: 'string', format: 'binary' } }]),
      ),
    };
  }
}
