import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { Database } from '../db/database.ts';
import { inWriteTransaction, joinedDatabase } from '../db/unit-of-work.ts';
import { ValidationError } from '../errors.ts';
import type { Services } from '../services.ts';
import type { RecordFormat } from './records.ts';

/** What saving a batch did: records written, and records that were already as given. */
export interface SaveResult {
  written: number;
  unchanged: number;
}

/**
 * One kind of record `tv2 import` understands: how a record (JSON, or a CSV row turned into the
 * JSON form) becomes a domain input, and how a batch of inputs is saved in one transaction. Each
 * area lists its kinds in its index.ts.
 */
export interface ImportKind<I> {
  name: string;
  description: string;
  parse(record: unknown, format: RecordFormat): I;
  save(services: Services, inputs: I[]): Promise<SaveResult>;
}

/**
 * Runs a batch as one write transaction for kinds whose service saves one record per call: the
 * services built over the given Database join this transaction (joinedDatabase), so the batch is
 * saved with one SCN, or not at all (then run-import saves its records one by one).
 */
export function inOneTransaction<T>(
  services: Services,
  work: (database: Database) => Promise<T>,
): Promise<T> {
  return inWriteTransaction(services.database, (uow) => work(joinedDatabase(services.database, uow)));
}

/** The JSON form of a record: a CSV row through the kind's own column mapping, JSON as it is. */
export function fromCsv(
  record: unknown,
  format: RecordFormat,
  toRecord: (row: Record<string, string>) => unknown,
): unknown {
  return format === 'csv' ? toRecord(record as Record<string, string>) : record;
}

/** A service's `{ changed }` count as a SaveResult over `total` records. */
export function writtenOf(result: { changed: number }, total: number): SaveResult {
  return { written: result.changed, unchanged: total - result.changed };
}

/** Checks a record against a schema, naming each bad field by its JSON pointer. */
export function checkRecord<T>(schema: TSchema, record: unknown): T {
  if (Value.Check(schema, record)) return record as T;
  const errors = [...Value.Errors(schema, record)]
    .filter((e) => e.keyword !== 'boolean')
    .map((e) => ({ name: e.instancePath || '/', message: e.message }));
  throw new ValidationError(errors.slice(0, 10));
}
