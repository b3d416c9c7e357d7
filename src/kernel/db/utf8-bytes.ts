import { type Kysely, type RawBuilder, sql } from 'kysely';
import { onPostgres } from './engine.ts';
import type { DB } from './schema.ts';

/** PostgreSQL's `bpchar` (character): the type `utf8Bytes` reads text as, which no table of tv2 has. */
export const UTF8_BYTES_OID = 1042;

/** The pg type parser of UTF8_BYTES_OID: the text's UTF-8 bytes. */
export function utf8BytesOf(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/**
 * A text column read as its UTF-8 bytes (a Buffer; null stays null), for answers that copy stored
 * text into their bytes as it is (article-list-answer.ts). SQLite: `CAST(x AS BLOB)`, the stored
 * bytes. PostgreSQL: `CAST(x AS bpchar)`, a relabelling without a function or a copy, whose text
 * the pg layer turns into its UTF-8 bytes as each row arrives (`utf8BytesOf`, the type parser of
 * `openDatabase` for UTF8_BYTES_OID), so the string dies young and no page of them stays alive.
 * Not a `bytea` (`convert_to(x, 'UTF8')`, as before): the server converts the text and sends it
 * hex-encoded, twice the bytes, which Node decodes again; reading a pass's documents that way took
 * about half as much CPU again, in the server and in Node (decision 25 (a)). Nor pg's binary result
 * format: pg-protocol decodes every field of a row into a string as UTF-8 whatever its format (so
 * the bytes would still make a string, and integers in binary would be garbled), and pg encodes it
 * again. bpchar's padding and comparisons do not come into it: without a length it only labels the
 * text, which is sent as stored (trailing blanks included), and no table has a column of that type
 * (utf8-bytes.test.ts checks both).
 */
export function utf8Bytes(db: Kysely<DB>, column: string): RawBuilder<Uint8Array | null> {
  return onPostgres(db)
    ? sql<Uint8Array | null>`CAST(${sql.ref(column)} AS bpchar)`
    : sql<Uint8Array | null>`CAST(${sql.ref(column)} AS BLOB)`;
}
