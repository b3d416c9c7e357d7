import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ENGINE, withMigratedDatabase } from '../../../test/helpers/test-app.ts';
import type { Database } from './database.ts';
import { utf8Bytes } from './utf8-bytes.ts';

let database: Database;
withMigratedDatabase((d) => {
  database = d;
});

const bytesOf = async (text: string | null) => {
  const { rows } = await sql<{ b: Uint8Array | null }>`
    SELECT ${utf8Bytes(database.db, 't.x')} AS b FROM (SELECT CAST(${text} AS text) AS x) AS t`.execute(
    database.db,
  );
  return rows[0]?.b;
};

describe('utf8Bytes', () => {
  it('reads a text as exactly its UTF-8 bytes, blanks, escapes and letters of every plane included', async () => {
    for (const text of [
      '{"NAME":"Trui \\"Å\\" met één mouw","SIZES":[]',
      '  leading and trailing blanks  \t\n',
      'back\\slash, tab\t, emoji 🧥, CJK 外套, ä',
      '',
    ]) {
      const bytes = await bytesOf(text);
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(bytes as Uint8Array).equals(Buffer.from(text, 'utf8'))).toBe(true);
    }
    expect(await bytesOf(null)).toBeNull();
  });

  it.runIf(ENGINE === 'postgres')(
    'leaves every table column as it was: none is of the type it reads as',
    async () => {
      const { rows } = await sql<{ name: string }>`
      SELECT table_name || '.' || column_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND data_type = 'character'`.execute(database.db);
      expect(rows.map((r) => r.name)).toEqual([]);
    },
  );
});
