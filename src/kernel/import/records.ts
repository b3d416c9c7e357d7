import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { parse as parseCsv } from 'csv-parse';
import { parser as jsonParser } from 'stream-json';
import { streamArray } from 'stream-json/streamers/stream-array.js';

export type RecordFormat = 'csv' | 'json' | 'jsonl';

export interface SourceRecord {
  /** Where the record starts: the line of a CSV or JSON-lines file, the element number of a JSON array. */
  position: number;
  /** CSV rows are `{ column: text }`; JSON records are whatever the file holds. */
  record: unknown;
  /** How many bytes of the file have been read so far (for a progress bar). */
  bytesRead: number;
}

export function formatOf(file: string): RecordFormat {
  const ext = extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.json') return 'json';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  throw new Error(`unknown file type "${ext}": use .csv, .json (an array) or .jsonl (one object per line)`);
}

/** Streams the records of a file one at a time, so memory stays flat whatever its size. */
export async function* readRecords(file: string): AsyncGenerator<SourceRecord> {
  const format = formatOf(file);
  const input = createReadStream(file);
  if (format === 'csv') {
    const rows = input.pipe(
      parseCsv({
        columns: true,
        bom: true,
        trim: true,
        skip_empty_lines: true,
        info: true,
        relax_column_count: false,
      }),
    );
    for await (const { record, info } of rows as AsyncIterable<{
      record: unknown;
      info: { lines: number };
    }>) {
      yield { position: info.lines, record, bytesRead: input.bytesRead };
    }
  } else if (format === 'json') {
    const items = input.pipe(jsonParser.asStream()).pipe(streamArray.asStream());
    for await (const { key, value } of items as AsyncIterable<{ key: number; value: unknown }>) {
      yield { position: key + 1, record: value, bytesRead: input.bytesRead };
    }
  } else {
    let line = 0;
    for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      line++;
      if (text.trim() === '') continue;
      let record: unknown;
      try {
        record = JSON.parse(text);
      } catch (error) {
        record = new MalformedRecord((error as Error).message);
      }
      yield { position: line, record, bytesRead: input.bytesRead };
    }
  }
}

/** A record that could not even be parsed (a bad JSON line); reported as rejected, the rest goes on. */
export class MalformedRecord {
  readonly reason: string;

  constructor(reason: string) {
    this.reason = reason;
  }
}
