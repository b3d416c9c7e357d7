/**
 * Writes client/schema.d.ts: the types of every operation of the OpenAPI document, made with
 * openapi-typescript (`npm run client:generate`). The document is made in-process, as
 * `tv2 openapi` makes it (an app on an empty in-memory database, never listening), so the types
 * are those of this checkout's code, not of some running server. This is the one module under
 * client/ that imports the server (.dependency-cruiser.cjs): the client itself never does.
 * test/client-generated.test.ts regenerates in memory and fails when the checked-in file differs.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { AREAS } from '../src/areas.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/server.ts';
import { openDatabase } from '../src/kernel/db/database.ts';
import { createServices } from '../src/services.ts';

export const SCHEMA_FILE = fileURLToPath(new URL('./schema.d.ts', import.meta.url));

/** The OpenAPI document of this checkout, as GET /TV2/openapi.json serves it. */
export async function openApiDocument(): Promise<OpenAPI3> {
  const config = loadConfig({}, { databaseUrl: 'sqlite::memory:', demo: false });
  const database = openDatabase(config.databaseUrl);
  const app = await buildApp(createServices(config, database), { areas: AREAS });
  try {
    await app.ready();
    return (await app.openApiDocument()) as OpenAPI3;
  } finally {
    await app.close();
    await database.close();
  }
}

/** The text of client/schema.d.ts for the document. */
export async function generateClientTypes(document?: OpenAPI3): Promise<string> {
  // A copy: openapi-typescript may annotate the document as it walks it, and the caller may keep it.
  const source = structuredClone(document ?? (await openApiDocument()));
  // defaultNonNullable: a property with a default is always in an answer (the server fills it).
  // No `enum: true`: string unions keep the file a declaration file that emits no code.
  const ast = await openapiTS(source, {
    silent: true,
    defaultNonNullable: true,
    // Bytes (images, PDFs, uploads) are a Blob, as fetch hands them over, not the `string` of JSON.
    transform: (schema) =>
      schema.format === 'binary'
        ? ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'))
        : undefined,
  });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await generateClientTypes();
  writeFileSync(SCHEMA_FILE, text);
  console.log(`client/schema.d.ts: ${text.length} characters, ${text.split('\n').length} lines`);
}
