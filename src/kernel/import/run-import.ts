import { refreshStatistics } from '../db/statistics.ts';
import { DomainError, ValidationError } from '../errors.ts';
import type { Services } from '../services.ts';
import type { ImportKind } from './import-kind.ts';
import { formatOf, MalformedRecord, readRecords } from './records.ts';

export interface Rejected {
  position: number;
  key?: string;
  reasons: string[];
}

export interface ImportReport {
  kind: string;
  file: string;
  records: number;
  written: number;
  unchanged: number;
  rejected: Rejected[];
  seconds: number;
}

export interface ImportOptions {
  batchSize?: number;
  onProgress?: (progress: { records: number; bytesRead: number }) => void;
}

function reasonsOf(error: unknown): string[] {
  if (error instanceof ValidationError) return error.errors.map((e) => `${e.name}: ${e.message}`);
  if (error instanceof DomainError) return [`${error.code}: ${error.message}`];
  throw error;
}

/**
 * Streams a file into the database in batches, each batch one transaction. A record that does not
 * parse is rejected with its line; when a batch is refused, its records are saved one by one so
 * only the offending ones are rejected. Saving the same file twice writes nothing the second time.
 */
export async function runImport<I>(
  services: Services,
  kind: ImportKind<I>,
  file: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const started = performance.now();
  const format = formatOf(file);
  const batchSize = options.batchSize ?? 500;
  const report: ImportReport = {
    kind: kind.name,
    file,
    records: 0,
    written: 0,
    unchanged: 0,
    rejected: [],
    seconds: 0,
  };
  let batch: Array<{ position: number; input: I }> = [];

  const flush = async () => {
    if (batch.length === 0) return;
    const pending = batch;
    batch = [];
    try {
      const result = await kind.save(
        services,
        pending.map((p) => p.input),
      );
      report.written += result.written;
      report.unchanged += result.unchanged;
    } catch (error) {
      reasonsOf(error);
      for (const item of pending) {
        try {
          const result = await kind.save(services, [item.input]);
          report.written += result.written;
          report.unchanged += result.unchanged;
        } catch (single) {
          report.rejected.push({ position: item.position, reasons: reasonsOf(single) });
        }
      }
    }
  };

  for await (const { position, record, bytesRead } of readRecords(file)) {
    report.records++;
    if (record instanceof MalformedRecord) {
      report.rejected.push({ position, reasons: [`not valid JSON: ${record.reason}`] });
    } else {
      try {
        batch.push({ position, input: kind.parse(record, format) });
      } catch (error) {
        report.rejected.push({ position, reasons: reasonsOf(error) });
      }
    }
    if (batch.length >= batchSize) await flush();
    options.onProgress?.({ records: report.records, bytesRead });
  }
  await flush();
  // The planner's statistics follow what the import added (SQLite; docs/architecture.md).
  if (report.written > 0) await refreshStatistics(services.database);
  report.rejected.sort((a, b) => a.position - b.position);
  report.seconds = Number(((performance.now() - started) / 1000).toFixed(2));
  return report;
}
