#!/usr/bin/env node
// Summarise vitest JSON reports (`--reporter=json --outputFile=...`).
//
//   node scripts/vitest-summary.mjs .tmp/vitest-sqlite.json .tmp/vitest-postgres.json
//
// Prints one line per report (`sqlite: 120 passed, 0 failed`) and, as the very last line,
// the totals: `N passed, N failed` (plus `, N skipped` when any test was skipped or todo).
// A missing or unreadable report, a test file that failed without a failing test (import
// error, crashed worker) and a run that vitest marked unsuccessful with no failure counted
// otherwise each count as one failure, so the totals never look green by accident.
// Always exits 0: the caller decides the exit code.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const num = (value) => (Number.isFinite(value) ? value : 0);

function label(file) {
  return basename(file)
    .replace(/\.json$/, '')
    .replace(/^vitest-/, '');
}

function format({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}

function unusable(file, why) {
  return {
    line: `${label(file)}: report ${file} is ${why}; counted as 1 failure`,
    passed: 0,
    failed: 1,
    skipped: 0,
  };
}

function summarise(file) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const detail = String(error?.message ?? error).replace(/\s+/g, ' ');
    return unusable(file, error?.code === 'ENOENT' ? 'missing' : `unreadable (${detail})`);
  }
  if (report === null || typeof report !== 'object' || typeof report.numPassedTests !== 'number') {
    return unusable(file, 'not a vitest JSON report');
  }

  const passed = num(report.numPassedTests);
  let failed = num(report.numFailedTests);
  const skipped = num(report.numPendingTests) + num(report.numTodoTests);
  const notes = [];

  // Test files that failed without any failing test: they never ran (syntax/import error, crash).
  const results = Array.isArray(report.testResults) ? report.testResults : [];
  const brokenFiles = results.filter(
    (r) =>
      r?.status === 'failed' &&
      !(Array.isArray(r.assertionResults) && r.assertionResults.some((a) => a?.status === 'failed')),
  );
  if (brokenFiles.length > 0) {
    failed += brokenFiles.length;
    notes.push(
      `${brokenFiles.length} test file(s) failed to run: ${brokenFiles.map((r) => r.name).join(', ')}`,
    );
  }
  if (report.success === false && failed === 0) {
    failed = 1;
    notes.push(results.length === 0 ? 'no test files ran' : 'vitest reported the run as unsuccessful');
  }

  const counts = { passed, failed, skipped };
  const suffix = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  return { line: `${label(file)}: ${format(counts)}${suffix}`, ...counts };
}

const files = process.argv.slice(2);
const total = { passed: 0, failed: 0, skipped: 0 };
if (files.length === 0) {
  console.log('vitest-summary: no report files given; counted as 1 failure');
  total.failed = 1;
}
for (const file of files) {
  const result = summarise(file);
  console.log(result.line);
  total.passed += result.passed;
  total.failed += result.failed;
  total.skipped += result.skipped;
}
console.log(format(total));
process.exitCode = 0;
