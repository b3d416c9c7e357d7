/**
 * client/schema.d.ts is generated from the OpenAPI document (`npm run client:generate`) and checked
 * in, so the typed client compiles without a server. This keeps it current: the types are made
 * again in memory from this checkout's document and must equal the file, so a change of an
 * operation that forgets to regenerate fails here instead of in a client application.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateClientTypes, SCHEMA_FILE } from '../client/generate.ts';

describe('the typed client', () => {
  it('has types generated from the current OpenAPI document', async () => {
    const fresh = await generateClientTypes();
    const checkedIn = readFileSync(SCHEMA_FILE, 'utf8');
    if (fresh !== checkedIn) {
      const freshLines = fresh.split('\n');
      const oldLines = checkedIn.split('\n');
      const at = freshLines.findIndex((line, i) => line !== oldLines[i]);
      expect.fail(
        `client/schema.d.ts is not the document's types (first difference at line ${at + 1}: ` +
          `${JSON.stringify(oldLines[at])} should be ${JSON.stringify(freshLines[at])}): run npm run client:generate`,
      );
    }
  });
});
