/**
 * The render time of the invoice PDF (src/areas/billing/pdf/invoice-pdf.ts), per document: the CPU
 * time (user + system, process.cpuUsage) and the wall time of each of `--renders` renders of the
 * Dutch two-rate sample, after a warm-up, as median and 90th percentile; then the 120-line sample.
 * The baseline, measured in the same run, is pdfkit's floor: a one-line A4 document with the same
 * fixed info (what any PDF costs before the invoice's layout).
 *
 *   flock /tmp/tv2-bench.lock node bench/invoice-pdf.ts [--renders 200]
 */
import { parseArgs } from 'node:util';
import PDFDocument from 'pdfkit';
import { renderDocumentPdf } from '../src/areas/billing/pdf/invoice-pdf.ts';
import { SAMPLE_INVOICE_DE_LONG, SAMPLE_INVOICE_NL } from '../src/areas/billing/pdf/sample-documents.ts';

const { values } = parseArgs({ options: { renders: { type: 'string', default: '200' } } });
const RENDERS = Number(values.renders);

function baseline(): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: 'A4', info: { CreationDate: new Date('2026-11-20T00:00:00Z') } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Uint8Array>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.font('Helvetica').fontSize(12).text('Factuur 2026-000123', 50, 50);
  doc.end();
  return done;
}

interface Figures {
  cpuMs: number[];
  wallMs: number[];
  bytes: number;
}

async function measure(render: () => Promise<Uint8Array>, count: number): Promise<Figures> {
  for (let i = 0; i < Math.min(20, count); i++) await render();
  const cpuMs: number[] = [];
  const wallMs: number[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const cpu = process.cpuUsage();
    const wall = performance.now();
    bytes = (await render()).length;
    wallMs.push(performance.now() - wall);
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
  }
  return { cpuMs, wallMs, bytes };
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function report(name: string, figures: Figures, base?: Figures): void {
  const cpu = quantile(figures.cpuMs, 0.5);
  const ratio = base ? `, ${(cpu / quantile(base.cpuMs, 0.5)).toFixed(1)}× the baseline` : '';
  console.log(
    `${name.padEnd(34)} CPU median ${cpu.toFixed(2)} ms (p90 ${quantile(figures.cpuMs, 0.9).toFixed(2)})` +
      `, wall median ${quantile(figures.wallMs, 0.5).toFixed(2)} ms, ${figures.bytes} bytes${ratio}`,
  );
}

const base = await measure(baseline, RENDERS);
const invoice = await measure(() => renderDocumentPdf(SAMPLE_INVOICE_NL), RENDERS);
const long = await measure(
  () => renderDocumentPdf(SAMPLE_INVOICE_DE_LONG),
  Math.max(10, Math.floor(RENDERS / 4)),
);
report('baseline (one-line pdfkit A4)', base);
report('invoice, 5 lines, 2 rates (nl)', invoice, base);
report('invoice, 120 lines, 5 pages (de)', long, base);
