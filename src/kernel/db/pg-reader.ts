import type { CompiledQuery, Kysely } from 'kysely';
import pg from 'pg';
import { describedShape, type PgConnection, prepareValue, type RowShape } from './pg-named-query.ts';
import type { DB } from './schema.ts';
import { type Reader, readerWithoutThread } from './sqlite-reader.ts';

/**
 * The reader on PostgreSQL (decision 48): the reads asked for in one turn of the event loop go to
 * the server together, in one write on one connection, and come back in one answer.
 *
 * On a small machine a round trip cost more than the read it carried: the write to the socket, the
 * wake-up of the server's process, its answer and the wake-up of Node (about 100 µs of CPU on each
 * side before any work, where a single read's own work was about as much again). Under load many
 * requests ask for a read in the same turn. Their statements are sent as one pipeline (Bind and
 * Execute for each, one Sync at the end): the server runs them one after the other, each with a
 * snapshot of its own as a statement sent alone would have (READ COMMITTED), and answers them in
 * one stream.
 *
 * A statement goes in a pipeline only on a connection that has prepared it and knows its rows'
 * shape (pg-named-query.ts); others, and a turn with one read, run as before on any connection,
 * which prepares and describes them. The statements after one the server refused are skipped by
 * the server up to the Sync: they run again on their own. A read never fails because another read
 * of its pipeline did.
 */
export interface PgReaderOptions {
  pool: pg.Pool;
  /** Where a read runs on its own (the pool behind Kysely, with its error mapping). */
  db: Kysely<DB>;
  /** The name a statement is prepared under, if it has one (database.ts). */
  statementName(sql: string): string | undefined;
  /** The error a read gets when the connection failed under it (not an error answer of the server). */
  lost(error: unknown): Error;
}

/** At most this many reads go in one pipeline; more go in the next. */
export const PIPELINE_MAX = 64;

interface Entry {
  query: CompiledQuery<unknown>;
  name: string;
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

export function pgReader(options: PgReaderOptions): Reader {
  let waiting: Entry[] = [];
  let scheduled = false;
  const alone = (entry: Entry) => {
    options.db.executeQuery(entry.query).then((result) => entry.resolve(result.rows), entry.reject);
  };

  const flush = () => {
    scheduled = false;
    const entries = waiting;
    waiting = [];
    if (entries.length === 1) alone(entries[0] as Entry);
    else
      for (let i = 0; i < entries.length; i += PIPELINE_MAX) {
        void pipeline(entries.slice(i, i + PIPELINE_MAX));
      }
  };

  const pipeline = async (entries: Entry[]) => {
    let client: pg.PoolClient;
    try {
      client = await options.pool.connect();
    } catch {
      // each read meets the failure on its own, mapped as Kysely's reads are
      for (const entry of entries) alone(entry);
      return;
    }
    const connection = (client as unknown as { connection: PgConnection }).connection;
    const ready: Array<Entry & { shape: RowShape; values: unknown[] }> = [];
    for (const entry of entries) {
      const shape = describedShape(connection, entry.name, entry.query.sql);
      let values: unknown[] | undefined;
      if (shape !== undefined) {
        try {
          values = entry.query.parameters.map((v) => prepareValue(v));
        } catch {
          values = undefined;
        }
      }
      if (shape === undefined || values === undefined) alone(entry);
      else ready.push({ ...entry, shape, values });
    }
    if (ready.length === 0) {
      client.release();
      return;
    }
    client.query(new Pipeline(ready, client, options, alone) as unknown as pg.Submittable);
  };

  const rows = <R>(query: CompiledQuery<R>): Promise<R[]> => {
    const name = options.statementName(query.sql);
    return new Promise<R[]>((resolve, reject) => {
      const entry: Entry = {
        query,
        name: name ?? '',
        resolve: resolve as (rows: unknown[]) => void,
        reject,
      };
      if (name === undefined) {
        alone(entry);
        return;
      }
      waiting.push(entry);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
  };
  return readerWithoutThread(rows);
}

/**
 * One pipeline as a pg submittable: pg hands it the server's messages in order; CommandComplete
 * ends a statement's rows and the next message belongs to the next statement.
 */
class Pipeline {
  readonly #entries: ReadonlyArray<Entry & { shape: RowShape; values: unknown[] }>;
  readonly #client: pg.PoolClient;
  readonly #options: PgReaderOptions;
  readonly #alone: (entry: Entry) => void;
  #rows: unknown[] = [];
  #results: unknown[][] = [];
  /** A statement whose rows the type parsers could not read, by its place: that read alone fails. */
  readonly #unreadable = new Map<number, unknown>();
  #done = false;
  /** Set by pg when the pool has a read timeout: called once the pipeline ended, it clears that timer. */
  callback: ((error: Error | null) => void) | undefined = undefined;

  constructor(
    entries: ReadonlyArray<Entry & { shape: RowShape; values: unknown[] }>,
    client: pg.PoolClient,
    options: PgReaderOptions,
    alone: (entry: Entry) => void,
  ) {
    this.#entries = entries;
    this.#client = client;
    this.#options = options;
    this.#alone = alone;
  }

  submit(connection: PgConnection): void {
    connection.stream.cork?.();
    try {
      for (const entry of this.#entries) {
        connection.bind({ portal: '', statement: entry.name, values: entry.values, binary: false });
        connection.execute({ portal: '' });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
  }

  handleRowDescription(): void {}

  handleDataRow(message: { fields: (string | null)[] }): void {
    const at = this.#results.length;
    const entry = this.#entries[at];
    if (this.#done || entry === undefined || this.#unreadable.has(at)) return;
    try {
      this.#rows.push(entry.shape.build(message.fields, entry.shape.parsers));
    } catch (error) {
      this.#unreadable.set(at, error);
    }
  }

  handleCommandComplete(): void {
    this.#results.push(this.#rows);
    this.#rows = [];
  }

  handleEmptyQuery(): void {
    this.handleCommandComplete();
  }

  handleReadyForQuery(): void {
    this.#finish(undefined);
  }

  handleError(error: unknown): void {
    this.#finish(error);
  }

  handlePortalSuspended(): void {}

  #finish(error: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.callback?.(null);
    const answered = this.#results.length;
    const refused = error instanceof pg.DatabaseError;
    // a connection the server ended (FATAL) or that failed is not handed out again
    this.#client.release(error !== undefined && !(refused && error.severity === 'ERROR'));
    this.#entries.forEach((entry, i) => {
      if (i < answered) {
        if (this.#unreadable.has(i)) entry.reject(this.#unreadable.get(i));
        else entry.resolve(this.#results[i] as unknown[]);
      } else if (i === answered && error !== undefined) {
        entry.reject(refused ? error : this.#options.lost(error));
      } else {
        this.#alone(entry);
      }
    });
  }
}
