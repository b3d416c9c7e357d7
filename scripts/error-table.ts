/**
 * Writes the "Error codes" table of docs/api-conventions.md from the declared codes (the kernel's,
 * the HTTP layer's, each area's errors.ts): `npx tsx scripts/error-table.ts`. With `--check` it only
 * says whether the table is current (test/error-codes.test.ts checks the same).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { AREAS } from '../src/areas.ts';
import { errorCodesOf, errorCodeTable } from '../src/http/errors.ts';

export const ERROR_TABLE_FILE = new URL('../docs/api-conventions.md', import.meta.url);
export const ERROR_TABLE_START =
  '<!-- error-codes:start (npx tsx scripts/error-table.ts writes this table) -->';
export const ERROR_TABLE_END = '<!-- error-codes:end -->';

/** The text of the file with the table between the markers made afresh. */
export function withErrorTable(text: string): string {
  const start = text.indexOf(ERROR_TABLE_START);
  const end = text.indexOf(ERROR_TABLE_END);
  if (start < 0 || end < start) throw new Error('docs/api-conventions.md lacks the error-codes markers');
  const table = errorCodeTable(errorCodesOf(AREAS));
  return `${text.slice(0, start + ERROR_TABLE_START.length)}\n${table}\n${text.slice(end)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = readFileSync(ERROR_TABLE_FILE, 'utf8');
  const fresh = withErrorTable(text);
  if (process.argv.includes('--check')) {
    if (fresh !== text) {
      console.error(
        'docs/api-conventions.md: the error table is out of date; run npx tsx scripts/error-table.ts',
      );
      process.exit(1);
    }
  } else if (fresh !== text) {
    writeFileSync(ERROR_TABLE_FILE, fresh);
    console.log('docs/api-conventions.md: error table written');
  }
}
